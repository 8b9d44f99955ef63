#!/bin/sh
# The image's entrypoint: every start of a container gets an empty
# PROMETHEUS_MULTIPROC_DIR (a restarted container reuses the PIDs, and so the
# file names, of its last run: old open-socket counts would be read back), then
# runs the command (web by default; compose and Kubernetes name worker, beat, migrate).
set -eu
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
  mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
  find "$PROMETHEUS_MULTIPROC_DIR" -mindepth 1 -delete
fi
exec "$@"
