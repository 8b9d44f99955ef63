#!/bin/sh
# The image's entrypoint: every start of a container gets an empty
# PROMETHEUS_MULTIPROC_DIR (a restarted container reuses the PIDs, and so the
# file names, of its last run: old open-socket counts would be read back), then
# runs the command (web by default; compose and Kubernetes name worker, beat, migrate).
#
# MATIKA_WAIT makes start-up order independent of the orchestrator's health
# checks (podman-compose runs none): "database" waits until PostgreSQL answers
# (the migrate step), "migrations" until every migration is applied (web,
# worker, beat: they start after migrate has finished). MATIKA_WAIT_SECONDS
# (300) is the patience; then the container fails and is restarted.
set -eu
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
  mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
  find "$PROMETHEUS_MULTIPROC_DIR" -mindepth 1 -delete
fi
wait_until() {  # wait_until <what> <command...>
  what=$1; shift
  deadline=$(( $(date +%s) + ${MATIKA_WAIT_SECONDS:-300} ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "entrypoint: gave up waiting for $what" >&2
      exit 1
    fi
    sleep 2
  done
}
case "${MATIKA_WAIT:-}" in
  "") ;;
  database)
    wait_until "the database" python -c "import django; django.setup(); from django.db import connection; connection.ensure_connection()" ;;
  migrations) wait_until "the migrations" python manage.py migrate --check ;;
  *) echo "entrypoint: MATIKA_WAIT is database or migrations, not ${MATIKA_WAIT}" >&2; exit 2 ;;
esac
exec "$@"
