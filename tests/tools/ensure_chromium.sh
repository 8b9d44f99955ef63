#!/usr/bin/env bash
# Make sure a system Chromium exists for the browser tests.
# Root: install it with apt-get. Otherwise: say loudly that browser tests will be
# skipped -- except under CI=true, where a missing browser fails the run.
set -u
# nginx for the production smoke test, by the same rules (tests/tools/ensure_nginx.sh).
"$(dirname "$0")/ensure_nginx.sh" || exit 1
# Debian's redis-server 7.0 for the suite's Redis and Sentinels (tests/tools/ensure_redis.sh).
"$(dirname "$0")/ensure_redis.sh" || exit 1
# PgBouncer for the scale test (tests/tools/ensure_pgbouncer.sh).
"$(dirname "$0")/ensure_pgbouncer.sh" || exit 1
# promtool for the alert-rule tests (tests/tools/ensure_promtool.sh).
"$(dirname "$0")/ensure_promtool.sh" || exit 1
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[matika] installing Chromium for the browser tests (apt-get install chromium)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q chromium >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; }
  command -v chromium >/dev/null 2>&1 && exit 0
fi
echo "############################################################################"
echo "# NO CHROMIUM: the browser tests will be SKIPPED.                          #"
echo "# Install it (Debian/Ubuntu: sudo apt-get install chromium) and run again.  #"
echo "############################################################################"
if [ "${CI:-}" = "true" ]; then
  echo "CI=true: a missing browser is a failure." >&2
  exit 1
fi
exit 0
