#!/usr/bin/env bash
# Make sure Debian's nginx exists for the production smoke test
# (tests/production/test_smoke.py). Root: install it with apt-get, without
# starting the system service. Otherwise: say loudly that the smoke test will
# be skipped -- except under CI=true, where a missing nginx fails the run.
set -u
# The smoke test makes its self-signed certificate with the openssl CLI.
if ! command -v openssl >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[matika] installing openssl for the production smoke test"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q openssl >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q openssl >/dev/null; }
fi
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[matika] installing nginx for the production smoke test (apt-get install nginx)"
  export DEBIAN_FRONTEND=noninteractive
  # The package would start nginx on port 80; the test runs its own instance.
  created_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    created_policy=yes
  fi
  apt-get install -y -q nginx >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q nginx >/dev/null; }
  [ -n "$created_policy" ] && rm -f /usr/sbin/policy-rc.d
  if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
    exit 0
  fi
fi
echo "############################################################################"
echo "# NO NGINX: the production smoke test will be SKIPPED.                     #"
echo "# Install it (Debian/Ubuntu: sudo apt-get install nginx) and run again.     #"
echo "############################################################################"
if [ "${CI:-}" = "true" ]; then
  echo "CI=true: a missing nginx is a failure." >&2
  exit 1
fi
exit 0
