#!/usr/bin/env bash
# CI: the journey tests (test/journeys) with DATABASE_URL through PgBouncer in transaction mode
# and DATABASE_DIRECT_URL straight to PostgreSQL (LISTEN/NOTIFY and migrations only), as a deployment
# behind a transaction pooler runs: proves no session state and no named prepared statement is
# relied on through DATABASE_URL (docs/reliability.md, "Pools").
#
#   scripts/ci-pgbouncer.sh                      # PostgreSQL at 127.0.0.1:5432, PgBouncer on 6432
#   PRIMARY_URL=postgres://postgres@127.0.0.1:5432/postgres PGBOUNCER_PORT=6432 scripts/ci-pgbouncer.sh
#
# Installs Debian's pgbouncer when missing (apt-get). Needs a PostgreSQL that accepts the
# `postgres` user from 127.0.0.1 without a password, as .ci/run's does.
set -euo pipefail
cd "$(dirname "$0")/.."

primary="${PRIMARY_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
port="${PGBOUNCER_PORT:-6432}"
started=$(date +%s)

if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
fi
pgbouncer_bin="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"

host="$(node -e 'const u=new URL(process.argv[1]);console.log(u.hostname)' "$primary" 2>/dev/null || echo 127.0.0.1)"
pgport="$(node -e 'const u=new URL(process.argv[1]);console.log(u.port||5432)' "$primary" 2>/dev/null || echo 5432)"

dir="$(mktemp -d /tmp/ci-pgbouncer.XXXXXX)"
# Every database name (each test file makes its own) goes to the same server as the same user:
# `auth_type = any` takes that user from here, so no password file is needed on a CI machine.
cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=$host port=$pgport user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = any
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 20
max_db_connections = 40
server_reset_query =
server_idle_timeout = 2
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
chown -R postgres "$dir" 2>/dev/null || true
# PgBouncer refuses to run as root: -u drops to the postgres user.
if [ "$(id -u)" = 0 ]; then
  "$pgbouncer_bin" -d -u postgres "$dir/pgbouncer.ini"
else
  "$pgbouncer_bin" -d "$dir/pgbouncer.ini"
fi
stop() {
  [ -f "$dir/pgbouncer.pid" ] && kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
  sleep 0.5
  rm -rf "$dir"
}
trap stop EXIT
for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p "$port" -q && break; sleep 0.2; done

pooled="$(node -e 'const u=new URL(process.argv[1]);u.host=`127.0.0.1:${process.argv[2]}`;console.log(u.toString())' "$primary" "$port")"
echo "== journey tests through PgBouncer $("$pgbouncer_bin" --version | head -1) (transaction mode, port $port) =="
DATABASE_URL="$pooled" DATABASE_DIRECT_URL="$primary" \
  NODE_COMPILE_CACHE=node_modules/.cache/node node_modules/.bin/node --liftoff-only --import ./src/resolve-hooks.ts --test \
  --test-timeout=180000 --test-concurrency=3 test/journeys/*.test.ts
echo "== PgBouncer journeys passed in $(($(date +%s) - started)) s =="
