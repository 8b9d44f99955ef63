#!/usr/bin/env bash
# Make sure promtool (Debian's prometheus package) exists for the alert-rule tests
# (tests/production/test_operations_metrics.py). Root: install it with apt-get,
# without starting the system service. Otherwise: say loudly that those tests
# will be skipped -- except under CI=true, where it fails the run.
set -u
if command -v promtool >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[matika] installing promtool for the alert-rule tests (apt-get install prometheus)"
  export DEBIAN_FRONTEND=noninteractive
  created_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    created_policy=yes
  fi
  apt-get install -y -q --no-install-recommends prometheus >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends prometheus >/dev/null; }
  [ -n "$created_policy" ] && rm -f /usr/sbin/policy-rc.d
  command -v promtool >/dev/null 2>&1 && exit 0
fi
echo "############################################################################"
echo "# NO PROMTOOL: the alert-rule tests are SKIPPED.                           #"
echo "# Install it (Debian/Ubuntu: sudo apt-get install prometheus) and run again.#"
echo "############################################################################"
if [ "${CI:-}" = "true" ]; then
  echo "CI=true: a missing promtool is a failure." >&2
  exit 1
fi
exit 0
