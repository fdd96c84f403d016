"""The image, tested (issue 26): docker/Dockerfile built and started through testcontainers,
with Docker where an engine answers and otherwise with Debian's podman and its
Docker-compatible API (docker/engine.sh installs and starts it; without a registry it builds
FROM the local runtime's cached root). Against the container: the migrations its entrypoint
ran, `pgfacts doctor`, and a smoke subset through the suite's client (a fact stored and read,
an ingest, a search, a Cypher read through the graph projection). Every test first makes
sure the server it talks to is the container's, never the shared test server.

One xdist group of its own, started first (conftest.STARTED_FIRST): the build and the start
run beside the rest of the suite."""

from __future__ import annotations

import functools
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from pgfacts import Context, FactStore, resources

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.xdist_group("image")


@dataclass(frozen=True)
class Container:
    engine: str
    image: str
    id: str
    port: int
    admin_dsn: str  # superuser: setup and inspection only
    app_dsn: str  # a login holding every kind, as the suite's "app"

    def exec(self, *command: str) -> subprocess.CompletedProcess[str]:
        engine = "podman" if self.engine == "podman" else "docker"
        return subprocess.run(
            [engine, "exec", self.id, *command], capture_output=True, text=True, timeout=60
        )


@functools.cache
def engine_and_image() -> dict[str, str]:
    """docker/engine.sh build: an engine (installed and started when missing) and the image."""
    done = subprocess.run(
        ["sh", str(ROOT / "docker" / "engine.sh"), "build"],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PGFACTS_PYTHON": sys.executable},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    assert {"ENGINE", "IMAGE", "DOCKER_HOST", "COMPOSE"} <= set(found), done.stdout
    return found


def connectable(dsn: str) -> bool:
    try:
        with psycopg.connect(dsn, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
    except psycopg.OperationalError:
        return False
    return True


@pytest.fixture(scope="module")
def container() -> Iterator[Container]:
    found = engine_and_image()
    engine = found["ENGINE"]
    saved = {k: os.environ.get(k) for k in ("DOCKER_HOST", "TESTCONTAINERS_RYUK_DISABLED")}
    if found["DOCKER_HOST"]:
        os.environ["DOCKER_HOST"] = found["DOCKER_HOST"]
    options: dict[str, object] = {}
    if engine == "podman":
        # The Ryuk reaper's image cannot be pulled without a registry (the fixture removes
        # the container itself), and podman's default ulimits exceed the machine's hard ones.
        os.environ["TESTCONTAINERS_RYUK_DISABLED"] = "true"
        from docker.types import Ulimit

        options["ulimits"] = [
            Ulimit(name="nofile", soft=1024, hard=20000),
            Ulimit(name="nproc", soft=1024, hard=1024),
        ]
    from testcontainers.core.container import DockerContainer

    password = secrets.token_urlsafe(12)
    started = DockerContainer(found["IMAGE"], **options).with_env("POSTGRES_PASSWORD", password)
    # Published on the host's loopback only, on a port the engine picks (docker-py's form;
    # with_bind_ports takes a port, not an address).
    started.ports["5432/tcp"] = ("127.0.0.1", None)  # type: ignore[assignment]
    try:
        started.start()
        # 127.0.0.1, not get_container_host_ip(): podman 4.3's API lacks what it reads.
        port = int(started.get_exposed_port(5432))
        admin_dsn = make_conninfo(
            host="127.0.0.1", port=port, user="postgres", password=password, dbname="postgres"
        )
        # The entrypoint opens TCP only once the schema is installed.
        deadline = time.monotonic() + 120
        while not connectable(admin_dsn):
            wrapped = started.get_wrapped_container()
            wrapped.reload()
            assert wrapped.status == "running", wrapped.logs().decode()[-3000:]
            assert time.monotonic() < deadline, wrapped.logs().decode()[-3000:]
            time.sleep(0.2)
        with psycopg.connect(admin_dsn, autocommit=True) as admin:
            admin.execute(f"CREATE ROLE smoke_app LOGIN PASSWORD '{password}'")
            kinds = ", ".join(
                f"pgfacts_{k}" for k in ("agent", "facts_manager", "crawler", "tuner", "operator")
            )
            admin.execute(f"GRANT {kinds}, pgfacts_all_tenants TO smoke_app")
        app_dsn = make_conninfo(admin_dsn, user="smoke_app")
        yield Container(
            engine=engine,
            image=found["IMAGE"],
            id=started.get_wrapped_container().id,
            port=port,
            admin_dsn=admin_dsn,
            app_dsn=app_dsn,
        )
    finally:
        started.stop()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def assert_is_the_container(container: Container, dsn: str) -> None:
    """The server behind dsn is the container's: its hostname is the container's id (as
    read by the server itself), it listens on every interface inside on 5432, published on
    the container's port, and it is PostgreSQL 17."""
    assert container.port != 54317
    with psycopg.connect(container.admin_dsn) as admin:
        hostname = admin.execute("SELECT pg_read_file('/etc/hostname')").fetchone()
        settings = admin.execute(
            "SELECT current_setting('listen_addresses'), current_setting('port'), "
            "current_setting('server_version_num')::int, version()"
        ).fetchone()
    assert hostname is not None and container.id.startswith(hostname[0].strip())
    assert settings is not None
    assert settings[:2] == ("*", "5432")
    assert 170000 <= settings[2] < 180000 and "PostgreSQL 17" in settings[3]
    with psycopg.connect(dsn) as conn:
        info = conn.info
        assert (info.host, info.port) == ("127.0.0.1", container.port)


def pgfacts(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pgfacts", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_the_entrypoint_installed_every_migration_and_the_health_check_passes(
    container: Container,
) -> None:
    assert_is_the_container(container, container.admin_dsn)
    migrations = sorted(p.name for p in resources.migrations_dir().glob("*.sql"))
    with psycopg.connect(container.admin_dsn) as admin:
        ledger = admin.execute(
            "SELECT name FROM pgfacts_internal.schema_ledger WHERE kind = 'migration' ORDER BY 1"
        ).fetchall()
        extensions = dict(
            admin.execute(
                "SELECT name, installed_version IS NOT NULL FROM pg_available_extensions "
                "WHERE name IN ('age', 'vector', 'btree_gist', 'pg_cron')"
            ).fetchall()
        )
        preload = admin.execute("SHOW shared_preload_libraries").fetchone()
    assert [row[0] for row in ledger] == migrations
    # pg_cron ships in the image, installed nowhere and not preloaded unless asked.
    assert extensions == {"age": True, "vector": True, "btree_gist": True, "pg_cron": False}
    assert preload == ("",)
    # Migrating again from the host's package finds nothing to do.
    again = pgfacts("migrate", "--dsn", container.admin_dsn)
    assert again.returncode == 0 and "is up to date" in again.stderr, again.stderr
    health = container.exec("/usr/local/bin/pgfacts-healthcheck")
    assert health.returncode == 0, health.stderr


def test_pgfacts_doctor_passes_against_the_container(container: Container) -> None:
    assert_is_the_container(container, container.admin_dsn)
    done = pgfacts("doctor", "--dsn", container.admin_dsn, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert "17." in str(report["postgresql"])


def test_a_fact_an_ingest_a_search_and_a_cypher_read_in_the_container(
    container: Container,
) -> None:
    assert_is_the_container(container, container.app_dsn)
    context = Context(tenant="image", session_id="smoke", agent_kind="facts_manager")
    with FactStore(container.app_dsn, context=context) as store:
        store.store_fact("deploy/how", "deploy the API with helm", shared=True)
        [fact] = store.read_facts(key_pattern="deploy/*")
        assert fact.value == "deploy the API with helm"
        store.define_predicate("lives_in", "one")
        anna = store.ensure_entity("person", "anna")
        result = store.ingest(
            {"source_kind": "chat", "source_ref": "smoke/1", "content_hash": "sha256:1"},
            [
                {
                    "subject": anna,
                    "predicate": "lives_in",
                    "object": "Kyiv",
                    "valid_from": "2026-01-01",
                }
            ],
        )
        assert result["counters"]["inserted"] == 1, result
        hits = store.search("how do I deploy?", item_kinds=["fact"])
        assert [hit.key for hit in hits][:1] == ["deploy/how"]
        store.graph_upsert_node("team", "payments")
        store.graph_upsert_node("service", "billing")
        store.graph_upsert_edge("team:payments", "service:billing", "owns")
        operator = store.with_context(tenant="image", agent_kind="operator")
        synced = operator.sync_graph_projections()
        assert list(synced["synced"]) == ["image"] and synced["failed"] == {}, synced
        rows = store.graph_cypher("subgraph_by_predicate", {"predicate": "own"})
        assert [(r["from"], r["to"]) for r in rows] == [("team:payments", "service:billing")]
    with psycopg.connect(container.admin_dsn) as admin:
        counted = admin.execute(
            "SELECT (SELECT count(*) FROM pgfacts_internal.facts WHERE tenant = 'image'), "
            "(SELECT count(*) FROM pgfacts_internal.claims WHERE tenant = 'image')"
        ).fetchone()
    assert counted == (1, 1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_compose_up_runs_the_database_and_a_worker_as_the_readme_says() -> None:
    """docker/compose.yaml as a newcomer runs it (README, "The alternative: docker compose
    up"): the database with its schema, reachable on the published port, `pgfacts doctor`
    passing, a fact stored and read, and the worker's maintenance running against it. With
    `docker compose` where Docker runs, else podman-compose (docker/engine.sh installs it)."""
    found = engine_and_image()
    port = free_port()
    project = f"pgfacts-compose-{secrets.token_hex(4)}"
    compose = [*found["COMPOSE"].split(), "-p", project, "-f", str(ROOT / "docker/compose.yaml")]
    env = {**os.environ, "PGFACTS_IMAGE": found["IMAGE"], "PGFACTS_PORT": str(port)}
    dsn = f"postgresql://postgres:pgfacts@127.0.0.1:{port}/postgres"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*compose, *args], capture_output=True, text=True, env=env, timeout=180, cwd=ROOT
        )

    try:
        up = run("up", "-d")
        assert up.returncode == 0, up.stdout[-2000:] + up.stderr[-2000:]
        deadline = time.monotonic() + 120
        while not connectable(dsn):  # TCP opens once the entrypoint installed the schema
            assert time.monotonic() < deadline, run("logs", "postgres").stdout[-3000:]
            time.sleep(0.5)
        doctor = pgfacts("doctor", "--dsn", dsn)
        assert doctor.returncode == 0, doctor.stdout + doctor.stderr
        with FactStore(dsn, context=Context(tenant="compose", session_id="s1")) as store:
            store.store_fact("style/tone", "plain", shared=True)
            assert [fact.value for fact in store.read_facts(key_pattern="style/*")] == ["plain"]
        # The worker: its first maintenance pass, once the database answers.
        while "maintenance: " not in (said := run("logs", "worker")).stdout + said.stderr:
            assert time.monotonic() < deadline, said.stdout[-3000:] + said.stderr[-3000:]
            time.sleep(0.5)
    finally:
        down = run("down", "-v")
        if found["ENGINE"] == "podman":  # podman-compose 1.0 leaves the project's network
            subprocess.run(["podman", "network", "rm", "-f", f"{project}_default"], check=False)
        assert down.returncode == 0, down.stderr[-2000:]
