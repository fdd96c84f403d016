"""Scheduled maintenance (issue 26): the jobs `pgfacts worker` runs, installed in pg_cron by
`pgfacts schedule` instead. pg_cron needs shared_preload_libraries, so these run on a private
cluster of the local runtime's binaries (docker/provision.sh installs postgresql-17-cron)
started with pg_cron preloaded, never on the shared test server; and on that server a
database without AGE still creates and drops tables and extensions (AGE stays per database:
preloading pg_cron does not bring back the server-wide breakage of apache/age issue 2180).
Without pg_cron (the shared server) the functions say what to do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import FactStore, migrate
from pgfacts.errors import PgfactsError
from pgfacts.runtime import LocalRuntime, _mounted

from .conftest import Database, with_db
from .test_worker_restart import free_port, with_login

ROOT = Path(__file__).resolve().parent.parent
CRON_DB = "postgres"

pytestmark = pytest.mark.xdist_group("pg_cron")


@pytest.fixture(scope="module")
def cron_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRuntime]:
    """A private cluster in the runtime's root, pg_cron preloaded for database postgres."""
    runtime = LocalRuntime(free_port())
    runtime.instance_dir = tmp_path_factory.mktemp("cron") / "instance"
    runtime.password_file = runtime.instance_dir / "password"
    runtime.server_options = (
        "-c shared_preload_libraries=pg_cron",
        f"-c cron.database_name={CRON_DB}",
        "-c cron.use_background_workers=on",
        "-c max_worker_processes=16",
    )
    runtime.up()
    try:
        yield runtime
    finally:
        runtime.down()
        root = runtime._current_root()
        mount_point = root / runtime.mount_name.lstrip("/") if root else None
        deadline = time.monotonic() + 10
        while mount_point is not None and _mounted(mount_point):
            lazy = ["-l"] if time.monotonic() > deadline else []
            subprocess.run(["umount", *lazy, str(mount_point)], capture_output=True)
            time.sleep(0.2)


def pgfacts_cli(*args: str) -> dict:  # type: ignore[type-arg]
    done = subprocess.run(
        [sys.executable, "-m", "pgfacts", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python")},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def wait_for(what: str, check: object, seconds: float = 45) -> object:
    deadline = time.monotonic() + seconds
    while True:
        found = check()  # type: ignore[operator]
        if found:
            return found
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.5)


def test_pgfacts_schedule_installs_the_jobs_in_pg_cron_and_they_run(
    cron_server: LocalRuntime,
) -> None:
    admin_dsn = cron_server.dsn
    migrate(admin_dsn, "pgfacts")
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        preload = admin.execute("SHOW shared_preload_libraries").fetchone()
        assert preload == ("pg_cron",)
        admin.execute("CREATE ROLE cron_operator LOGIN PASSWORD 'cron'")
        admin.execute("GRANT pgfacts_operator, pgfacts_all_tenants TO cron_operator")
    operator = with_login(admin_dsn, "cron_operator", "cron")

    # Preloaded, but the extension is not installed yet: the function says so.
    with FactStore(operator) as store, pytest.raises(PgfactsError) as missing:
        store.schedule_maintenance()
    assert missing.value.sqlstate == "55000", missing.value.as_dict()
    assert "not installed" in missing.value.message
    assert "CREATE EXTENSION pg_cron" in (missing.value.hint or "")

    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        admin.execute("CREATE EXTENSION pg_cron")
        admin.execute("GRANT USAGE ON SCHEMA cron TO cron_operator")
        # Work for the graph job: an edge whose projection no one has synced.
        with admin.transaction():
            admin.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'agent')")
            admin.execute("SELECT pgfacts.graph_upsert_node('team', 'payments')")
            admin.execute("SELECT pgfacts.graph_upsert_node('service', 'billing')")
            admin.execute(
                "SELECT pgfacts.graph_upsert_edge('team:payments', 'service:billing', 'owns')"
            )

    every = ["--every", "graph_projection=2 seconds", "--every", "maintenance=3 seconds"]
    every += ["--every", "retention=3 seconds"]
    installed = pgfacts_cli("schedule", "install", "--dsn", operator, *every)
    assert installed["runs_in"] == "pg_cron"
    jobs = {job["job"]: job for job in installed["jobs"]}
    assert set(jobs) == {"maintenance", "graph_projection", "retention"}
    assert jobs["graph_projection"]["scheduled"]["schedule"] == "2 seconds"
    assert jobs["maintenance"]["scheduled"]["command"] == "SELECT pgfacts.run_maintenance()"
    # Idempotent: installing again keeps the same pg_cron jobs.
    again = pgfacts_cli("schedule", "install", "--dsn", operator, *every)
    ids = {job["job"]: job["scheduled"]["jobid"] for job in again["jobs"]}
    assert ids == {name: job["scheduled"]["jobid"] for name, job in jobs.items()}

    with psycopg.connect(admin_dsn, autocommit=True) as admin:

        def runs() -> dict[str, str]:
            rows = admin.execute(
                "SELECT j.jobname, d.status, d.return_message FROM cron.job_run_details d "
                "JOIN cron.job j USING (jobid) WHERE d.status IN ('succeeded', 'failed')"
            ).fetchall()
            failed = [row for row in rows if row[1] == "failed"]
            assert failed == [], failed
            done = {row[0] for row in rows}
            return (
                {"ok": "yes"}
                if done >= {"pgfacts_maintenance", "pgfacts_graph_projection", "pgfacts_retention"}
                else {}
            )

        wait_for("the jobs to run in pg_cron", runs)
        with admin.transaction():
            admin.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'agent')")
            row = admin.execute(
                "SELECT pgfacts.graph_cypher('subgraph_by_predicate', %s)",
                (Jsonb({"predicate": "own"}),),
            ).fetchone()
        assert row is not None
        assert [(r["from"], r["to"]) for r in row[0]] == [("team:payments", "service:billing")]
        backlog = admin.execute(
            "SELECT state, pending FROM pgfacts.graph_projection_backlog() WHERE tenant = 't1'"
        ).fetchall()
        assert backlog == [("ok", 0)]

    listed = pgfacts_cli("schedule", "list", "--dsn", operator)
    last_runs = {job["job"]: job["scheduled"]["last_run"]["status"] for job in listed["jobs"]}
    # Each has succeeded (above); a job every 2 or 3 seconds may be on its next run by now.
    in_flight = {"starting", "connecting", "sending", "running"}
    assert set(last_runs) == {"maintenance", "graph_projection", "retention"}
    assert all(status in {"succeeded"} | in_flight for status in last_runs.values()), last_runs

    # The worker leaves the scheduled parts to pg_cron, and runs them again once removed.
    worker = [sys.executable, "-m", "pgfacts", "worker", "--dsn", operator, "--once"]
    ran = subprocess.run(worker, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert "maintenance: runs in pg_cron (job 'pgfacts_maintenance')" in ran.stderr
    assert "graph: runs in pg_cron" in ran.stderr
    assert "maintenance: {" not in ran.stderr

    removed = pgfacts_cli("schedule", "remove", "--dsn", operator)
    assert removed["removed"] == 3 and removed["runs_in"] == "pgfacts worker"
    assert pgfacts_cli("schedule", "remove", "--dsn", operator)["removed"] == 0
    ran = subprocess.run(worker, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert ran.returncode == 0 and "maintenance: {" in ran.stderr, ran.stderr
    assert "runs in pg_cron" not in ran.stderr
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        assert admin.execute("SELECT count(*) FROM cron.job").fetchone() == (0,)


def test_preloading_pg_cron_keeps_age_out_of_a_database_without_it(
    cron_server: LocalRuntime,
) -> None:
    """apache/age issue 2180: AGE preloaded server-wide broke DROP TABLE and CREATE EXTENSION
    in every database without it. With pg_cron preloaded, AGE is still loaded per database."""
    admin_dsn = cron_server.dsn
    migrate(admin_dsn, "pgfacts")  # AGE in database postgres (its session_preload_libraries)
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        assert admin.execute("SHOW shared_preload_libraries").fetchone() == ("pg_cron",)
        admin.execute("DROP DATABASE IF EXISTS plain")
        admin.execute("CREATE DATABASE plain")
    with psycopg.connect(with_db(admin_dsn, "plain"), autocommit=True) as plain:
        loaded = plain.execute("SHOW session_preload_libraries").fetchone()
        assert loaded == ("",)
        plain.execute("CREATE TABLE t (id int)")
        plain.execute("DROP TABLE t")
        plain.execute("CREATE EXTENSION btree_gist")
        plain.execute("CREATE EXTENSION vector")
        plain.execute("DROP EXTENSION vector")
        plain.execute("DROP EXTENSION btree_gist")
        assert plain.execute(
            "SELECT count(*) FROM pg_extension WHERE extname IN ('age', 'vector')"
        ).fetchone() == (0,)
    # And the database with AGE still runs Cypher through its projection.
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        with admin.transaction():
            admin.execute("SELECT pgfacts.set_context(tenant => 't2', agent_kind => 'agent')")
            admin.execute("SELECT pgfacts.graph_upsert_node('team', 'search')")
            admin.execute("SELECT pgfacts.graph_upsert_node('service', 'index')")
            admin.execute(
                "SELECT pgfacts.graph_upsert_edge('team:search', 'service:index', 'runs')"
            )
        with admin.transaction():
            admin.execute("SELECT pgfacts.set_context(tenant => 't2', agent_kind => 'operator')")
            admin.execute("SELECT pgfacts.sync_graph_projection()")
            admin.execute("SELECT pgfacts.set_context(tenant => 't2', agent_kind => 'agent')")
            row = admin.execute(
                "SELECT pgfacts.graph_cypher('subgraph_by_predicate', %s)",
                (Jsonb({"predicate": "run"}),),
            ).fetchone()
        assert row is not None
        assert [(r["from"], r["to"]) for r in row[0]] == [("team:search", "service:index")]


def test_without_pg_cron_the_jobs_are_listed_and_scheduling_says_what_to_do(
    db: Database,
) -> None:
    with FactStore(db.dsn("operator")) as store:
        listed = store.maintenance_jobs()
        assert listed["runs_in"] == "pgfacts worker"
        assert listed["pg_cron"]["preloaded"] is False
        assert [job["job"] for job in listed["jobs"]] == [
            "graph_projection",
            "maintenance",
            "retention",
        ]
        assert all(job["scheduled"] is None for job in listed["jobs"])
        with pytest.raises(PgfactsError) as refused:
            store.schedule_maintenance()
        assert refused.value.sqlstate == "55000"
        assert "not preloaded" in refused.value.message
        assert "shared_preload_libraries" in (refused.value.hint or "")
        assert "pgfacts worker" in (refused.value.hint or "")
        for bad in ({"nightly": "0 3 * * *"}, {"maintenance": 5}):
            with pytest.raises(PgfactsError) as wrong:
                store.schedule_maintenance(schedules=bad)  # type: ignore[arg-type]
            assert wrong.value.sqlstate == "22023"
            assert "graph_projection, maintenance" in (wrong.value.hint or "")
        # Nothing scheduled: removing is not an error.
        assert store.unschedule_maintenance()["removed"] == 0
    with FactStore(db.dsn("agent")) as agent, pytest.raises(PgfactsError) as denied:
        agent.maintenance_jobs()
    assert denied.value.sqlstate == "42501"


def test_sync_graph_projections_syncs_every_tenant_and_restores_the_context(
    db: Database,
) -> None:
    with db.admin() as admin:
        for tenant in ("t1", "t2"):
            with admin.transaction():
                admin.execute(
                    "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'agent')", (tenant,)
                )
                admin.execute("SELECT pgfacts.graph_upsert_node('team', %s)", (f"{tenant}-a",))
    with db.connect("operator", autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'operator')")
        row = conn.execute("SELECT pgfacts.sync_graph_projections(100)").fetchone()
        assert row is not None
        assert sorted(row[0]["synced"]) == ["t1", "t2"] and row[0]["failed"] == {}
        context = conn.execute("SELECT pgfacts.current_context() ->> 'tenant'").fetchone()
        assert context == ("t1",)
        pending = conn.execute(
            "SELECT sum(pending) FROM pgfacts.graph_projection_backlog()"
        ).fetchone()
        assert pending == (0,)
