#!/usr/bin/env bash
# Make sure podman and what the container checks need are installed (make
# container-test; docs/operations.md "Podman"): podman, buildah, runc, debootstrap
# (the local Debian base), podman-compose, CNI's dnsname plugin (service names
# between containers) and catatonit (kube play's pause image). Root: apt-get.
set -eu
needed="podman buildah runc debootstrap podman-compose golang-github-containernetworking-plugin-dnsname catatonit"
missing=""
for package in $needed; do
  dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != "0" ]; then
  echo "the container checks need root and:$missing" >&2
  exit 1
fi
echo "[matika] installing for the container checks:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1 \
  || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $missing >/dev/null; }
