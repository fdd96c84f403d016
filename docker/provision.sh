#!/bin/sh
# Provision PostgreSQL 17 with btree_gist, pgvector, Apache AGE and pg_cron on Debian 13.
#
# This is the ONE place where the database runtime is defined. docker/Dockerfile runs it
# inside the image and `pgfacts db up` runs it inside a debootstrapped Debian 13 root, so
# what the tests exercise is exactly what the image ships. The local runtime caches its
# root by the sha256 of this file: editing it rebuilds the root on the next `db up`.
set -eu

export DEBIAN_FRONTEND=noninteractive

# Clusters are created by pgfacts-pg below, never by the package's postinst.
mkdir -p /etc/postgresql-common
echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf

# PGFACTS_EXTRA_PACKAGES: more Debian packages in the same apt run (the image adds Python 3
# and psycopg for `pgfacts migrate` and `pgfacts worker`; the runtime adds none).
apt-get update
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends ${PGFACTS_EXTRA_PACKAGES:-} \
    postgresql-17 \
    postgresql-17-pgvector \
    postgresql-17-age \
    postgresql-17-plpgsql-check \
    postgresql-17-cron \
    ca-certificates
apt-get clean
rm -rf /var/lib/apt/lists/*

mkdir -p /etc/pgfacts /var/run/postgresql
chown postgres:postgres /var/run/postgresql

# Server settings every pgfacts cluster runs with.
cat > /etc/pgfacts/postgresql.conf <<'CONF'
# No shared_preload_libraries: AGE 1.5 preloaded server-wide breaks DROP TABLE and CREATE
# EXTENSION in every database without the age extension (apache/age issue 2180). `pgfacts
# migrate` loads it per database instead (ALTER DATABASE ... SET session_preload_libraries).
# pg_cron is installed but preloaded only when asked (`pgfacts-pg run DATADIR --pg-cron DB`,
# the image's PGFACTS_PG_CRON=DB): then `pgfacts schedule` installs the maintenance jobs.
# pgvector 0.8.0 has a bug in parallel HNSW builds: build serially.
max_parallel_maintenance_workers = 0
# Loopback only unless the caller passes listen_addresses (the Docker image does).
listen_addresses = '127.0.0.1'
unix_socket_directories = '/var/run/postgresql'
password_encryption = 'scram-sha-256'
max_connections = 200
shared_buffers = '256MB'
# A batch of a large write (an import's 5,000 facts) makes about 17 MB of WAL: with the
# default 8 MB of WAL buffers its session waited on WALWrite 3 to 6% of the time.
wal_buffers = '64MB'
log_line_prefix = '%m [%p] %q%u@%d '
log_min_messages = warning
CONF

# pgfacts-pg init DATADIR PWFILE [CIDR]: create a cluster if DATADIR has none.
# pgfacts-pg run DATADIR [--pg-cron DBNAME] [postgres options]: run the server in the
# foreground; --pg-cron preloads pg_cron for database DBNAME, its jobs run in background
# workers (no password, no pg_hba line).
cat > /usr/local/bin/pgfacts-pg <<'PGSH'
#!/bin/sh
set -eu
bin=/usr/lib/postgresql/17/bin
cmd=$1; data=$2; shift 2
case "$cmd" in
init)
    pwfile=$1; cidr=${2:-}
    if [ ! -s "$data/PG_VERSION" ]; then
        "$bin/initdb" -D "$data" -U postgres --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
            --auth-local=peer --auth-host=scram-sha-256 >/dev/null
        echo "include '/etc/pgfacts/postgresql.conf'" >> "$data/postgresql.conf"
        if [ -n "$cidr" ]; then
            echo "host all all $cidr scram-sha-256" >> "$data/pg_hba.conf"
        fi
    fi
    ;;
run)
    if [ "${1:-}" = "--pg-cron" ]; then
        cron_db=$2; shift 2
        set -- -c shared_preload_libraries=pg_cron -c "cron.database_name=$cron_db" \
            -c cron.use_background_workers=on "$@"
    fi
    exec "$bin/postgres" -D "$data" "$@"
    ;;
*)
    echo "usage: pgfacts-pg init|run DATADIR ..." >&2
    exit 2
    ;;
esac
PGSH
chmod 755 /usr/local/bin/pgfacts-pg
