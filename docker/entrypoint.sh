#!/bin/sh
# Container entrypoint: create the cluster on first start; install or upgrade the pgfacts
# schema (`pgfacts migrate`, idempotent) with the server on its Unix socket only; then run
# the server in the foreground on all interfaces (publish the port on the host's loopback
# only, as docker/compose.yaml does). So a client that can connect over TCP finds the schema.
#
#   POSTGRES_PASSWORD   the postgres superuser's password (required)
#   POSTGRES_DB         the database pgfacts is installed in (default postgres)
#   PGFACTS_SCHEMA      its schema (default pgfacts)
#   PGFACTS_MIGRATE     0: do not install or upgrade the schema
#   PGFACTS_PG_CRON     a database name: preload pg_cron for it (jobs in background workers)
#                       and create its extension there; then `pgfacts schedule install`
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD for the postgres superuser}"
db=${POSTGRES_DB:-postgres}
schema=${PGFACTS_SCHEMA:-pgfacts}
cron=${PGFACTS_PG_CRON:-}
socket=/var/run/postgresql
mkdir -p "$PGDATA" "$socket"
chown postgres:postgres "$PGDATA" "$socket"
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    chown postgres "$pwfile"
    runuser -u postgres -- /usr/local/bin/pgfacts-pg init "$PGDATA" "$pwfile" 0.0.0.0/0
    rm -f "$pwfile"
fi
set --
if [ -n "$cron" ]; then
    set -- --pg-cron "$cron"
fi

if [ "${PGFACTS_MIGRATE:-1}" != 0 ] || [ -n "$cron" ]; then
    # The Unix socket only (peer authentication as postgres): no client sees a half-made
    # schema.
    runuser -u postgres -- /usr/local/bin/pgfacts-pg run "$PGDATA" "$@" \
        -c listen_addresses= -c port=5432 &
    pid=$!
    until /usr/lib/postgresql/17/bin/pg_isready -q -h "$socket" -p 5432 -U postgres; do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "pgfacts-entrypoint: the server did not start" >&2
            exit 1
        fi
        sleep 0.1
    done
    if [ "$db" != postgres ]; then
        runuser -u postgres -- /usr/lib/postgresql/17/bin/psql -h "$socket" -d postgres -Atqc \
            "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1 ||
            runuser -u postgres -- /usr/lib/postgresql/17/bin/createdb -h "$socket" "$db"
    fi
    if [ -n "$cron" ]; then
        runuser -u postgres -- /usr/lib/postgresql/17/bin/psql -h "$socket" -d "$cron" -Atqc \
            "CREATE EXTENSION IF NOT EXISTS pg_cron"
    fi
    if [ "${PGFACTS_MIGRATE:-1}" != 0 ]; then
        runuser -u postgres -- /usr/local/bin/pgfacts migrate --schema "$schema" \
            --dsn "host=$socket port=5432 user=postgres dbname=$db"
    fi
    runuser -u postgres -- /usr/lib/postgresql/17/bin/pg_ctl -D "$PGDATA" -m fast -w stop \
        >/dev/null
    wait "$pid" || true
fi

exec runuser -u postgres -- /usr/local/bin/pgfacts-pg run "$PGDATA" "$@" \
    -c listen_addresses='*' -c port=5432
