#!/bin/sh
# A container engine for the image and its test, set up by the project itself.
#
#   sh docker/engine.sh env     make sure an engine answers; print ENGINE=, DOCKER_HOST=,
#                               COMPOSE= (the command that runs docker/compose.yaml)
#   sh docker/engine.sh build   the same, then build docker/Dockerfile; print IMAGE= too
#
# Docker where an engine answers (`docker info`): the Dockerfile builds FROM its default base,
# with none of the workarounds below. Otherwise Debian's podman (installed here when missing,
# as root) with its Docker-compatible API, which testcontainers talks to:
# * /etc/containers/containers.conf: runc (crun cannot set up this kernel's hybrid cgroups),
#   cgroupfs, and ulimits within the machine's hard limits (podman's defaults exceed them);
# * `podman system service` on unix:///run/podman/podman.sock, started when not answering;
# * no image registry: the base image is the local runtime's cached Debian 13 root (built by
#   `pgfacts db up`, keyed by the sha256 of provision.sh), imported once per digest as
#   localhost/pgfacts-base:<digest> and passed as the Dockerfile's BASE, so provision.sh
#   finds its packages installed and the build takes seconds.
# Every step is idempotent; concurrent callers queue on a lock.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
image=${PGFACTS_IMAGE:-localhost/pgfacts/postgres:17}
py=${PGFACTS_PYTHON:-$top/.venv/bin/python}
socket=/run/podman/podman.sock

say() { echo "engine.sh: $*" >&2; }

# A Docker engine answers, and it is not this script's podman service (PGFACTS_ENGINE=podman
# chooses podman even where Docker runs).
docker_engine() {
    [ "${PGFACTS_ENGINE:-}" != podman ] || return 1
    [ "${DOCKER_HOST:-}" != "unix://$socket" ] || return 1
    command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1
}

podman_setup() {
    if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1 \
        || ! command -v podman-compose >/dev/null 2>&1; then
        say "installing podman, runc and podman-compose (Debian's packages)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc podman-compose >/dev/null
    fi
    conf=/etc/containers/containers.conf
    if ! grep -q 'pgfacts' "$conf" 2>/dev/null; then
        mkdir -p /etc/containers
        if [ -s "$conf" ]; then cp "$conf" "$conf.before-pgfacts"; fi
        cat > "$conf" <<'CONF'
# Written by pgfacts' docker/engine.sh: runc (crun cannot set up this kernel's hybrid
# cgroups), cgroupfs, and ulimits within the machine's hard limits.
[containers]
default_ulimits = ["nofile=1024:20000", "nproc=1024:1024"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
    fi
    if ! curl_ping; then
        say "starting podman system service on $socket"
        mkdir -p /run/podman
        rm -f "$socket"
        # 9>&-: the service must not hold the lock of this script.
        nohup podman system service --time=0 "unix://$socket" >/tmp/pgfacts-podman-service.log 2>&1 9>&- &
        i=0
        until curl_ping; do
            i=$((i + 1))
            if [ $i -gt 100 ]; then
                say "podman system service did not answer; see /tmp/pgfacts-podman-service.log"
                exit 1
            fi
            sleep 0.1
        done
    fi
}

# The API answers _ping with OK (python, not curl: curl is not always installed).
curl_ping() {
    [ -S "$socket" ] || return 1
    "$py" - "$socket" <<'PY' 2>/dev/null
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(2)
s.connect(sys.argv[1])
s.sendall(b"GET /_ping HTTP/1.0\r\n\r\n")
sys.exit(0 if b"OK" in s.recv(4096) else 1)
PY
}

podman_base() {
    root=$("$py" -c 'from pgfacts.runtime import LocalRuntime; print(LocalRuntime().ensure_root())')
    base="localhost/pgfacts-base:$(basename "$root")"
    if ! podman image exists "$base"; then
        say "importing the runtime's root $root as $base"
        tar -C "$root" --exclude=./proc/* --exclude=./dev/* --exclude=./var/lib/pgfacts/* \
            --exclude=./.pgfacts-ready -cf - . | podman import -q - "$base" >/dev/null
    fi
    echo "$base"
}

lock=/run/lock/pgfacts-engine.lock
mkdir -p /run/lock
exec 9>"$lock"
flock 9

case "${1:-env}" in
env | build) ;;
*)
    echo "usage: sh docker/engine.sh env|build" >&2
    exit 2
    ;;
esac

if docker_engine; then
    engine=docker
    host=${DOCKER_HOST:-}
else
    engine=podman
    podman_setup
    host="unix://$socket"
fi

if [ "${1:-env}" = build ]; then
    if [ $engine = docker ]; then
        docker build -q -t "$image" -f "$top/docker/Dockerfile" "$top" >/dev/null
    else
        base=$(podman_base)
        podman build -q --format docker --network host --build-arg "BASE=$base" -t "$image" \
            -f "$top/docker/Dockerfile" "$top" >/dev/null
    fi
    echo "IMAGE=$image"
fi
echo "ENGINE=$engine"
echo "DOCKER_HOST=$host"
# What runs docker/compose.yaml on this engine.
if [ $engine = docker ]; then echo "COMPOSE=docker compose"; else echo "COMPOSE=podman-compose"; fi
