#!/usr/bin/env bash
# Make sure Debian's PgBouncer exists for the scale test (tests/scale/test_failover.py:
# PgBouncer in transaction mode in front of the test PostgreSQL). Root: install it
# with apt-get, without starting the system service. Otherwise: say loudly that
# the scale test will be skipped -- except under CI=true, where it fails the run.
set -u
if command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[matika] installing PgBouncer for the scale test (apt-get install pgbouncer)"
  export DEBIAN_FRONTEND=noninteractive
  # The package would start its own service; the test runs its own instance.
  created_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    created_policy=yes
  fi
  apt-get install -y -q pgbouncer >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q pgbouncer >/dev/null; }
  [ -n "$created_policy" ] && rm -f /usr/sbin/policy-rc.d
  if command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ]; then
    exit 0
  fi
fi
echo "############################################################################"
echo "# NO PGBOUNCER: the scale test (tests/scale/test_failover.py) is SKIPPED.   #"
echo "# Install it (Debian/Ubuntu: sudo apt-get install pgbouncer) and run again. #"
echo "############################################################################"
if [ "${CI:-}" = "true" ]; then
  echo "CI=true: a missing PgBouncer is a failure." >&2
  exit 1
fi
exit 0
