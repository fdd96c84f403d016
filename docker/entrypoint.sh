#!/bin/sh
# Container entrypoint: create the cluster on first start, then run the server in the
# foreground. Inside a container the server listens on all interfaces; publish the port
# on the host's loopback only (docker/compose.yaml does).
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD for the postgres superuser}"
mkdir -p "$PGDATA"
chown postgres:postgres "$PGDATA"
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    chown postgres "$pwfile"
    runuser -u postgres -- /usr/local/bin/pgfacts-pg init "$PGDATA" "$pwfile" 0.0.0.0/0
    rm -f "$pwfile"
fi
exec runuser -u postgres -- /usr/local/bin/pgfacts-pg run "$PGDATA" \
    -c listen_addresses='*' -c port=5432
