#!/usr/bin/env bash
# CI: the journey tests (test/journeys) with DATABASE_REPLICA_URL pointing at a streaming replica
# made by pg_basebackup, so lists and the other lag-tolerant reads (docs/reliability.md, "Pools")
# are served by a hot standby while every write and read-your-write goes to the primary.
#
# It makes its own primary (initdb) and replica on two free ports, so the server other work uses
# is never reconfigured. The replica is synchronous with `remote_apply`: a commit returns once the
# replica shows it, so a journey that lists right after it wrote finds its row, as it would with
# the few milliseconds of lag a real replica has; what is tested is that the reads go there and
# work. Ports: REPLICA_PRIMARY_PORT (5434), REPLICA_PORT (5435). Runs as root (switching to the
# postgres user for the servers) or as the postgres user.
set -euo pipefail
cd "$(dirname "$0")/.."

primary_port="${REPLICA_PRIMARY_PORT:-5434}"
replica_port="${REPLICA_PORT:-5435}"
started=$(date +%s)
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
if [ ! -x "$bin/pg_basebackup" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
fi
dir="$(mktemp -d /tmp/ci-replica.XXXXXX)"
chown postgres "$dir" 2>/dev/null || true
as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}

as_postgres "'$bin/initdb' -D '$dir/primary' -U postgres --auth=trust -N >/dev/null"
cat >>"$dir/primary/postgresql.conf" <<CONF
port = $primary_port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = off
wal_level = replica
max_wal_senders = 4
synchronous_standby_names = 'ci_replica'
synchronous_commit = remote_apply
max_connections = 300
CONF
echo "host replication postgres 127.0.0.1/32 trust" >>"$dir/primary/pg_hba.conf"
as_postgres "'$bin/pg_ctl' -D '$dir/primary' -l '$dir/primary.log' -w start >/dev/null"
sampler=""
stop() {
  if [ -n "$sampler" ]; then kill "$sampler" 2>/dev/null || true; fi
  as_postgres "'$bin/pg_ctl' -D '$dir/replica' -m immediate stop >/dev/null 2>&1" || true
  as_postgres "'$bin/pg_ctl' -D '$dir/primary' -m immediate stop >/dev/null 2>&1" || true
  rm -rf "$dir"
}
trap stop EXIT

# The replica: a base backup of the primary with its standby settings (-R), streaming WAL.
as_postgres "'$bin/pg_basebackup' -h 127.0.0.1 -p $primary_port -U postgres -D '$dir/replica' -R -X stream \
  -d 'application_name=ci_replica'"
cat >>"$dir/replica/postgresql.conf" <<CONF
port = $replica_port
hot_standby = on
CONF
as_postgres "'$bin/pg_ctl' -D '$dir/replica' -l '$dir/replica.log' -w start >/dev/null"
for _ in $(seq 1 50); do
  state="$("$bin/psql" -h 127.0.0.1 -p "$primary_port" -U postgres -Atc \
    "select sync_state from pg_stat_replication where application_name = 'ci_replica'")"
  [ "$state" = sync ] && break
  sleep 0.2
done
echo "== journey tests with a streaming replica (primary :$primary_port, replica :$replica_port, $state) =="
"$bin/psql" -h 127.0.0.1 -p "$replica_port" -U postgres -Atc "select 'replica in recovery: ' || pg_is_in_recovery()"

# What the replica served, sampled while the tests run (each test file drops its database, and its
# statistics with it, when it ends): the most transactions each test database showed there.
(
  while :; do
    "$bin/psql" -h 127.0.0.1 -p "$replica_port" -U postgres -AtF ' ' -c \
      "select datname, xact_commit from pg_stat_database where datname like 't\_%'" >>"$dir/served" 2>/dev/null || true
    sleep 1
  done
) &
sampler=$!
DATABASE_URL="postgres://postgres@127.0.0.1:$primary_port/postgres" \
  DATABASE_REPLICA_URL="postgres://postgres@127.0.0.1:$replica_port/postgres" \
  NODE_COMPILE_CACHE=node_modules/.cache/node node_modules/.bin/node --liftoff-only --import ./src/resolve-hooks.ts --test \
  --test-timeout=180000 --test-concurrency=3 test/journeys/*.test.ts
kill "$sampler" 2>/dev/null || true
reads="$(awk '{ if ($2 > max[$1]) max[$1] = $2 } END { for (d in max) sum += max[d]; print sum + 0 }' "$dir/served")"
echo "== replica journeys passed in $(($(date +%s) - started)) s; transactions the replica served: $reads =="
