#!/bin/sh
# Writes pgbouncer.ini from the environment, then runs PgBouncer in the foreground.
#   DB_HOST, DB_PORT (5432), DB_NAME (matika), DB_USER (matika), DB_PASSWORD
#   POOL_SIZE (server connections per database/user, 40), MAX_CLIENT_CONN (2000)
set -eu
run=/etc/pgbouncer/run
printf '"%s" "%s"\n' "${DB_USER:-matika}" "${DB_PASSWORD:?set DB_PASSWORD}" > "$run/userlist.txt"
chmod 0600 "$run/userlist.txt"
cat > "$run/pgbouncer.ini" <<INI
[databases]
${DB_NAME:-matika} = host=${DB_HOST:?set DB_HOST} port=${DB_PORT:-5432} dbname=${DB_NAME:-matika}
[pgbouncer]
listen_addr = 0.0.0.0
listen_port = 6432
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $run/userlist.txt
; Matika's settings with DATABASE_POOLER=pgbouncer are safe in transaction mode.
pool_mode = transaction
default_pool_size = ${POOL_SIZE:-40}
max_client_conn = ${MAX_CLIENT_CONN:-2000}
ignore_startup_parameters = extra_float_digits,options
server_check_query = select 1
INI
exec pgbouncer "$run/pgbouncer.ini"
