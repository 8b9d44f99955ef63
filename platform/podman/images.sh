#!/bin/sh
# Builds the kit's images with podman from Debian packages, where no image
# registry is reachable (docs/operations.md "Building the image"):
#   platform/podman/images.sh app        # matika:<version> (make image)
#   platform/podman/images.sh services   # PgBouncer, PostgreSQL, Redis, nginx, Prometheus
#   platform/podman/images.sh all        # both (make images)
# The base (debootstrap --variant=minbase bookworm, ~2 min) and the dependency
# layer are cached in podman's storage: later builds redo only what changed.
# Needs root and: apt-get install podman buildah debootstrap runc
set -eu
cd "$(dirname "$0")/../.."
export CONTAINERS_CONF="${CONTAINERS_CONF:-$PWD/platform/podman/containers.conf}"
VERSION="${MATIKA_VERSION:-2026.12.1}"
BASE=localhost/matika-base:bookworm
# pip inside the build checks certificates against this bundle (a TLS-inspecting
# proxy's CA is in the host's bundle); handed in as a build secret, not a layer.
CERT="${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}"

pod() { podman --runtime runc --cgroup-manager cgroupfs "$@"; }

# MATIKA_IMAGE_CACHE: a folder kept between CI runs on fresh machines; the base is
# saved there once and loaded instead of running debootstrap again.
CACHE="${MATIKA_IMAGE_CACHE:-}"

base() {
  if pod image exists "$BASE"; then return; fi
  if [ -n "$CACHE" ] && [ -s "$CACHE/matika-base-bookworm.tar" ]; then
    pod load -q -i "$CACHE/matika-base-bookworm.tar" >/dev/null && pod image exists "$BASE" && return
  fi
  root=$(mktemp -d /var/tmp/matika-base.XXXXXX)
  # The host's Debian mirror and its suites (updates, security) when it has them.
  mirror=$(sed -n 's|^URIs: *\([^ ]*/debian\)/*$|\1|p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
  debootstrap --variant=minbase bookworm "$root" ${mirror:+"$mirror"}
  if ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1; then
    cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/"
    : > "$root/etc/apt/sources.list"
  fi
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | pod import --change 'CMD ["/bin/bash"]' - "$BASE"
  rm -rf "$root"
  if [ -n "$CACHE" ]; then
    mkdir -p "$CACHE" && pod save -q -o "$CACHE/matika-base-bookworm.tar" "$BASE"
  fi
}

build() {  # build <tag> <context> [podman build options...]
  tag=$1; context=$2; shift 2
  pod build --layers --build-arg BASE_IMAGE="$BASE" --secret id=pipcert,src="$CERT" \
    -t "localhost/$tag:$VERSION" "$@" "$context"
}

base
service() {  # service <name>: the kit's other images (PgBouncer, PostgreSQL, Redis, nginx, Prometheus)
  case "$1" in
    pgbouncer) build matika-pgbouncer platform/pgbouncer ;;
    postgres|redis|nginx|prometheus)
      build "matika-$1" platform/podman -f "platform/podman/$1.Containerfile" ;;
    *) echo "unknown service $1" >&2; exit 2 ;;
  esac
}

case "${1:-app}" in
  app) build matika . -f platform/Dockerfile ;;
  services) for name in pgbouncer postgres redis nginx prometheus; do service "$name"; done ;;
  all)
    build matika . -f platform/Dockerfile
    for name in pgbouncer postgres redis nginx prometheus; do service "$name"; done ;;
  *) service "$1" ;;
esac
