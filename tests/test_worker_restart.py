"""The server restarted with events in flight (issue 24's Done-when): a private cluster of
its own, on a free port, from the local runtime's binaries (the shared test server is never
touched). A worker holds a batch of leased events; the server stops in immediate mode (a
crash: no shutdown checkpoint, every connection cut) and starts again; the worker
reconnects and goes on, and every event is applied exactly once."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import migrate
from pgfacts.runtime import PG_BIN, LocalRuntime, _mounted

ROOT = Path(__file__).resolve().parent.parent
EXTRACTOR = "tests.test_worker_one_process:AppendingExtractor"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def private_server(tmp_path: Path) -> Iterator[LocalRuntime]:
    """A cluster in tmp_path, in the runtime's cached root (built by `pgfacts db up`)."""
    runtime = LocalRuntime(free_port())
    runtime.instance_dir = tmp_path / "instance"
    runtime.password_file = runtime.instance_dir / "password"
    runtime.up()
    try:
        yield runtime
    finally:
        runtime.down()
        # The server's last processes may still hold the data directory's mount for a
        # moment after pg_ctl returns: unmount it once they are gone (lazily at the end).
        root = runtime._current_root()
        mount_point = root / runtime.mount_name.lstrip("/") if root else None
        deadline = time.monotonic() + 10
        while mount_point is not None and _mounted(mount_point):
            lazy = ["-l"] if time.monotonic() > deadline else []
            subprocess.run(["umount", *lazy, str(mount_point)], capture_output=True)
            time.sleep(0.2)


def stop_immediately(runtime: LocalRuntime) -> None:
    root = runtime._current_root()
    assert root is not None
    stopped = runtime._in_root(
        root, f"{PG_BIN}/pg_ctl", "-D", runtime._data(), "-m", "immediate", "-w", "stop"
    )
    assert stopped.returncode == 0, stopped.stderr


def with_login(dsn: str, user: str, password: str) -> str:
    params = psycopg.conninfo.conninfo_to_dict(dsn)
    params.update(user=user, password=password)
    return psycopg.conninfo.make_conninfo(**params)


def test_a_restarted_server_loses_no_event_in_flight_and_applies_none_twice(
    private_server: LocalRuntime, tmp_path: Path
) -> None:
    started = time.monotonic()
    admin_dsn = private_server.dsn
    migrate(admin_dsn, "pgfacts")
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        admin.execute("CREATE ROLE restart_worker LOGIN PASSWORD 'restart'")
        admin.execute(
            "GRANT pgfacts_agent, pgfacts_operator, pgfacts_all_tenants TO restart_worker"
        )
    dsn = with_login(admin_dsn, "restart_worker", "restart")
    with psycopg.connect(dsn, autocommit=True) as conn:
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'operator')")
            # Short leases: were a claim's answer lost, its events would come back soon.
            conn.execute("SELECT pgfacts.set_setting('extraction_lease_seconds', '10')")
        with conn.transaction():
            conn.execute(
                "SELECT pgfacts.set_context(tenant => 't1', session_id => 's1', "
                "agent_kind => 'agent')"
            )
            events = [
                conn.execute(
                    "SELECT (pgfacts.record_memory('chat', %s, %s) ->> 'event_id')::bigint",
                    (f"m/{i}", Jsonb([{"id": "1", "text": f"turn {i}"}])),
                ).fetchone()[0]  # type: ignore[index]
                for i in range(8)
            ]
    log = tmp_path / "extracted"
    env = {
        **os.environ,
        "PGFACTS_TEST_EXTRACTIONS": str(log),
        "PGFACTS_TEST_EXTRACT_SECONDS": "0.4",
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "pgfacts", "worker", "--dsn", dsn, "--extractor", EXTRACTOR]
    options = ["--only", "extraction", "--batch-size", "4", "--poll", "0.1", "--interval", "1"]
    worker = subprocess.Popen(
        [*command, *options], env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 30
        while not log.exists() or not log.read_text():
            assert worker.poll() is None, worker.communicate()
            assert time.monotonic() < deadline, "the worker never started extracting"
            time.sleep(0.02)
        with psycopg.connect(admin_dsn, autocommit=True) as admin:
            in_flight = admin.execute(
                "SELECT count(*) FROM pgfacts_internal.extraction_events WHERE state = 'leased'"
            ).fetchone()
        assert in_flight == (4,)  # the batch is leased and being extracted
        stop_immediately(private_server)
        time.sleep(0.5)  # the worker finds the server gone (its batch's completion fails)
        private_server.up()
        deadline = time.monotonic() + 60
        while True:
            with psycopg.connect(admin_dsn, autocommit=True) as admin:
                states = dict(
                    admin.execute(
                        "SELECT state, count(*) FROM pgfacts_internal.extraction_events "
                        "GROUP BY state"
                    ).fetchall()
                )
            if states == {"done": 8}:
                break
            assert worker.poll() is None, worker.communicate()
            assert time.monotonic() < deadline, states
            time.sleep(0.1)
        worker.send_signal(signal.SIGTERM)
        _, stderr = worker.communicate(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(10)
    assert worker.returncode == 0, stderr
    assert "connection lost" in stderr
    extracted = [int(line) for line in log.read_text().split()]
    assert sorted(extracted) == sorted(events)  # none lost, none extracted twice
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        row = admin.execute(
            "SELECT count(*), count(DISTINCT e.episode_id), "
            "(SELECT count(*) FROM pgfacts_internal.episodes) "
            "FROM pgfacts_internal.extraction_events AS e WHERE e.state = 'done'"
        ).fetchone()
    assert row == (8, 8, 8)  # one episode each: no result committed twice
    assert time.monotonic() - started < 60
