#!/bin/sh
# Healthy: the server answers on TCP (it listens there only once the schema is installed)
# and the schema answers schema_version().
set -eu
db=${POSTGRES_DB:-postgres}
bin=/usr/lib/postgresql/17/bin
"$bin/pg_isready" -q -h 127.0.0.1 -p 5432 -d "$db"
runuser -u postgres -- "$bin/psql" -h /var/run/postgresql -d "$db" -Atqc \
    "SELECT ${PGFACTS_SCHEMA:-pgfacts}.schema_version()" >/dev/null
