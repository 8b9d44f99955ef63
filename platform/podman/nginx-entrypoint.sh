#!/bin/sh
# What the official nginx image's entrypoint does with the kit's site, for the
# Debian nginx image (nginx.Containerfile): with NGINX_ENTRYPOINT_LOCAL_RESOLVERS
# set, NGINX_LOCAL_RESOLVERS is the container's DNS server (/etc/resolv.conf),
# and every /etc/nginx/templates/*.template becomes /etc/nginx/conf.d/<name>
# with the environment's ${VARIABLES} filled in (nginx's own $variables kept).
# One difference: only the FIRST nameserver. podman's CNI network puts its own
# DNS (which knows the containers' names) first and then the host's servers,
# which do not; nginx asks its resolvers in turn, so every other lookup of
# `web` would fail (Docker's containers see only 127.0.0.11).
set -eu
if [ -n "${NGINX_ENTRYPOINT_LOCAL_RESOLVERS:-}" ]; then
  NGINX_LOCAL_RESOLVERS=$(awk '$1=="nameserver" {if ($2 ~ ":") {print "["$2"]"} else {print $2}; exit}' /etc/resolv.conf)
  export NGINX_LOCAL_RESOLVERS
fi
defined=$(awk 'END { for (name in ENVIRON) printf "${%s} ", name }' </dev/null)
for template in /etc/nginx/templates/*.template; do
  [ -f "$template" ] || continue
  name=$(basename "$template" .template)
  envsubst "$defined" < "$template" > "/etc/nginx/conf.d/$name"
done
exec "$@"
