"""`pgfacts worker` as one process (issue 24): every tenant's extraction events, embedding
queues and graph projections and the maintenance in one loop, fair across tenants, narrowed
by --tenant, with a health line per interval; several such workers at once complete each
event exactly once."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pgfacts import Context, FactStore
from pgfacts.errors import PgfactsError
from pgfacts.pipeline import ScriptedExtractor
from pgfacts.retrieval import HashEmbedder
from pgfacts.rows import ExtractionWork
from pgfacts.worker import run_worker

from .conftest import Database
from .support.caller import Caller
from .support.memories import record_many

ROOT = Path(__file__).resolve().parent.parent
HEALTH = re.compile(
    r"health: extraction (\d+) done, (\d+) failed, (\d+) stale, (\d+) released; "
    r"backlog (\d+) due, (\d+) leased, (\d+) parked, lag ([\d.]+) s"
)


class AppendingExtractor:
    """For worker processes: appends each event it extracts to $PGFACTS_TEST_EXTRACTIONS (a
    file; appends of one short line are atomic), so a test can count the calls."""

    name = "appending@1"

    def extract(self, work: ExtractionWork) -> list[Any]:
        with open(os.environ["PGFACTS_TEST_EXTRACTIONS"], "a") as log:
            log.write(f"{work.event_id}\n")
        time.sleep(float(os.environ.get("PGFACTS_TEST_EXTRACT_SECONDS", "0")))
        return []


class RecordingEmbedder(HashEmbedder):
    """The offline embedder, noting the texts of each batch."""

    def __init__(self) -> None:
        super().__init__(384)
        self.batches: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        return super().embed(texts)


def queue_facts(db: Database, tenant: str, count: int) -> None:
    """A tenant embedding with the offline model, with ``count`` facts queued."""
    caller = Caller(db, tenant=tenant, kind="facts_manager", session="s1")
    caller.one("SELECT pgfacts.register_embedding_model('hash-384', 384)")
    caller.one(
        "SELECT pgfacts.store_facts((SELECT jsonb_agg(jsonb_build_object("
        "'key', 'notes/' || i, 'value', to_jsonb(%s || ' note ' || i), 'shared', true)) "
        "FROM generate_series(1, %s) AS i))",
        tenant,
        count,
    )
    caller.close()


def upsert_node(db: Database, tenant: str, name: str) -> None:
    caller = Caller(db, tenant=tenant, kind="crawler", session="c1")
    caller("graph_upsert_node", {"kind": "person", "name": name})
    caller.close()


def admin_one(db: Database, sql: str, *params: Any) -> Any:
    with db.admin() as admin:
        row = admin.execute(sql, params).fetchone()
    return row[0] if row else None


def event_states(db: Database) -> dict[tuple[str, str], int]:
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT tenant, state, count(*) FROM pgfacts_internal.extraction_events "
            "GROUP BY tenant, state"
        ).fetchall()
    return {(tenant, state): n for tenant, state, n in rows}


def queued(db: Database, tenant: str) -> int:
    return int(
        admin_one(
            db, "SELECT count(*) FROM pgfacts_internal.embedding_queue WHERE tenant = %s", tenant
        )
    )


def pending_projection(db: Database, tenant: str) -> int:
    with FactStore(db.dsn("app"), context=Context(tenant, agent_kind="operator")) as store:
        return sum(p.pending for p in store.graph_projection_backlog() if p.tenant == tenant)


def worker_env(log: Path, seconds: float = 0.0) -> dict[str, str]:
    return {
        **os.environ,
        "PGFACTS_TEST_EXTRACTIONS": str(log),
        "PGFACTS_TEST_EXTRACT_SECONDS": str(seconds),
        "PYTHONPATH": str(ROOT),
    }


def worker_command(db: Database, *options: str) -> list[str]:
    return [sys.executable, "-m", "pgfacts", "worker", "--dsn", db.dsn("app"), *options]


EXTRACTOR = "tests.test_worker_one_process:AppendingExtractor"


def test_one_process_serves_every_tenant_s_events_queues_projections_and_maintenance(
    db: Database, tmp_path: Path
) -> None:
    for tenant in ("acme", "globex"):
        record_many(db, tenant, 5)
        queue_facts(db, tenant, 7)
        upsert_node(db, tenant, f"Anna of {tenant}")
    assert queued(db, "acme") == 7 and pending_projection(db, "acme") > 0
    log = tmp_path / "extracted"
    result = subprocess.run(
        worker_command(db, "--once", "--extractor", EXTRACTOR, "--embedder", "offline"),
        env=worker_env(log),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert event_states(db) == {("acme", "done"): 5, ("globex", "done"): 5}
    assert len(log.read_text().split()) == 10
    for tenant in ("acme", "globex"):
        assert queued(db, tenant) == 0
        assert pending_projection(db, tenant) == 0
    stderr = " ".join(result.stderr.split())  # rich may wrap a long line
    assert '"purged_tombstones": 0' in stderr  # maintenance ran, once
    [last] = HEALTH.findall(stderr)[-1:]
    assert last[:4] == ("10", "0", "0", "0") and last[4:7] == ("0", "0", "0")
    assert "embeddings 14 embedded, 0 failed; backlog 0" in stderr
    assert "maintenance 1 runs" in stderr
    applied = re.search(r"projection (\d+) changes applied", stderr)
    assert applied and int(applied.group(1)) > 0


def test_a_busy_tenant_s_embedding_queue_does_not_starve_the_others(db: Database) -> None:
    queue_facts(db, "busy", 40)
    queue_facts(db, "quiet", 2)
    embedder = RecordingEmbedder()
    totals = run_worker(
        db.dsn("app"),
        "pgfacts",
        embedder=embedder,
        parts={"embeddings"},
        once=True,
        embedding_batch_size=5,
        report=lambda _: None,
    )
    assert totals.embedded == 42 and totals.embedding_failed == 0
    # The first round serves both queues one batch each: the quiet one is done within it.
    first_round = [text for batch in embedder.batches[:2] for text in batch]
    assert sum("quiet note" in text for text in first_round) == 2
    assert queued(db, "busy") == queued(db, "quiet") == 0


def test_tenant_narrows_every_part(db: Database) -> None:
    for tenant in ("mine", "theirs"):
        record_many(db, tenant, 3)
        queue_facts(db, tenant, 3)
        upsert_node(db, tenant, "Bob")
    lines: list[str] = []
    totals = run_worker(
        db.dsn("app"),
        "pgfacts",
        extractor=ScriptedExtractor(lambda _: []),
        embedder=HashEmbedder(384),
        tenant="mine",
        once=True,
        report=lines.append,
    )
    assert (totals.extraction.done, totals.embedded, totals.maintenance_runs) == (3, 3, 0)
    assert event_states(db) == {("mine", "done"): 3, ("theirs", "ready"): 3}
    assert queued(db, "mine") == 0 and queued(db, "theirs") == 3
    assert pending_projection(db, "mine") == 0 and pending_projection(db, "theirs") > 0
    assert not any(line.startswith("maintenance") for line in lines)


def test_a_health_line_per_interval_with_the_lag_from_sql(db: Database) -> None:
    events = record_many(db, "t1", 4)
    with db.admin() as admin:  # one event has waited an hour already
        admin.execute(
            "UPDATE pgfacts_internal.extraction_events SET due_at = now() - interval '1 hour' "
            "WHERE event_id = %s",
            (events[0],),
        )
    with FactStore(db.dsn("app"), context=Context("t1", agent_kind="operator")) as store:
        health = store.extraction_health()
        assert (health["due"], health["ready"], health["leased"], health["failed"]) == (4, 4, 0, 0)
        assert 3600 <= float(health["lag_seconds"]) < 3700
        assert store.extraction_health(tenant="nobody")["lag_seconds"] == 0
        with pytest.raises(PgfactsError) as refused:
            store.extraction_health(tenant=" ")
        assert refused.value.sqlstate == "22023" and refused.value.hint
    stop = threading.Event()
    lines: list[str] = []

    def slow(work: ExtractionWork) -> list[Any]:
        time.sleep(0.15)
        return []

    worker = threading.Thread(
        target=run_worker,
        args=(db.dsn("app"), "pgfacts"),
        kwargs={
            "extractor": ScriptedExtractor(slow),
            "parts": {"extraction"},
            "interval": 0.1,
            "poll": 0.05,
            "batch_size": 1,
            "stop": stop,
            "report": lines.append,
        },
    )
    worker.start()
    deadline = time.monotonic() + 30
    while event_states(db).get(("t1", "done"), 0) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    stop.set()
    worker.join(30)
    health = [HEALTH.search(line) for line in lines if line.startswith("health:")]
    assert len(health) >= 3 and all(health)  # one per interval, each in this shape
    first, last = health[0], health[-1]
    assert first and last
    assert float(first.group(8)) > 0  # events still waiting while the first line was due
    assert last.groups()[:8] == ("4", "0", "0", "0", "0", "0", "0", "0.0")


def test_embedding_backlog_by_tenant_lists_the_queues_of_a_model(db: Database) -> None:
    queue_facts(db, "a", 3)
    queue_facts(db, "b", 1)
    caller = Caller(db, tenant="c", kind="facts_manager")
    caller.one("SELECT pgfacts.register_embedding_model('other-8', 8)")
    caller.close()
    with FactStore(db.dsn("app"), context=Context("a", agent_kind="operator")) as store:
        rows = store.embedding_backlog_by_tenant(model="hash-384")
        assert [(r.tenant, r.queued, r.retry, r.failed) for r in rows] == [
            ("a", 3, 0, 0),
            ("b", 1, 0, 0),
        ]
        assert all(r.oldest_enqueued is not None for r in rows)
        assert store.embedding_backlog_by_tenant(model="other-8") == []
        assert [r.tenant for r in store.embedding_backlog_by_tenant()] == ["a", "b"]
        with pytest.raises(PgfactsError) as refused:
            store.embedding_backlog_by_tenant(model="")
        assert refused.value.sqlstate == "22023" and refused.value.hint


def test_sigterm_stops_an_idle_worker_with_exit_0_and_a_last_health_line(
    db: Database, tmp_path: Path
) -> None:
    options = ("--extractor", EXTRACTOR, "--embedder", "offline", "--poll", "0.1")
    process = subprocess.Popen(
        worker_command(db, *options, "--interval", "0.2"),
        env=worker_env(tmp_path / "log"),
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    # Idle (nothing to do) and in its loop, so its SIGTERM handler is in place: a fixed
    # sleep was not enough on a loaded machine, where the signal came before the handler.
    seen = ""
    while "health:" not in seen:
        line = process.stderr.readline()
        assert line, f"the worker ended before its first health line: {seen}"
        seen += line
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, seen + stderr
    assert HEALTH.search(" ".join(stderr.split()))


def test_two_worker_processes_complete_every_event_exactly_once(
    db: Database, tmp_path: Path
) -> None:
    events = record_many(db, "t1", 30) + record_many(db, "t2", 30)
    log = tmp_path / "extracted"
    options = ("--extractor", EXTRACTOR, "--batch-size", "3", "--poll", "0.05")
    workers = [
        subprocess.Popen(
            worker_command(db, *options),
            env=worker_env(log, 0.05),
            cwd=ROOT,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    deadline = time.monotonic() + 60
    while sum(n for (_, state), n in event_states(db).items() if state == "done") < 60:
        assert time.monotonic() < deadline, event_states(db)
        time.sleep(0.1)
    for process in workers:
        process.send_signal(signal.SIGTERM)
    done = []
    for process in workers:
        _, stderr = process.communicate(timeout=30)
        assert process.returncode == 0, stderr
        [last] = HEALTH.findall(" ".join(stderr.split()))[-1:]
        done.append(int(last[0]))
    extracted = [int(line) for line in log.read_text().split()]
    assert sorted(extracted) == sorted(events)  # each extracted once, by one of them
    assert sum(done) == 60  # what the two health lines count, together
    assert (
        admin_one(db, "SELECT count(DISTINCT episode_id) FROM pgfacts_internal.extraction_events")
        == 60
    )


PIPELINE_DOC = ROOT / "docs" / "pipeline.md"


def test_the_documented_worker_commands_run(db: Database, tmp_path: Path) -> None:
    """docs/pipeline.md's worker commands, with the test extractor for the doc's
    placeholder and --once: each is a valid command that finishes its work."""
    section = PIPELINE_DOC.read_text().split("## The worker process", 1)[1]
    commands = [
        line.split("#", 1)[0].split()
        for line in section.splitlines()
        if line.startswith("pgfacts worker ")
    ]
    assert len(commands) == 3
    record_many(db, "acme", 2)
    for command in commands:
        args = [EXTRACTOR if a == "mypackage.extract:make_extractor" else a for a in command[2:]]
        if "--once" not in args:
            args.append("--once")
        result = subprocess.run(
            worker_command(db, *args),
            env=worker_env(tmp_path / "log"),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, (command, result.stderr)
        assert "health: " in result.stderr
    assert event_states(db) == {("acme", "done"): 2}


class ZeroForBad(HashEmbedder):
    """The offline embedder, but a zero vector (which set_embeddings refuses) for "bad"."""

    def __init__(self) -> None:
        super().__init__(384)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = super().embed(texts)
        return [[0.0] * 384 if "bad" in t else v for t, v in zip(texts, vectors, strict=True)]


def test_one_tenant_s_refused_batch_leaves_the_others_served(db: Database) -> None:
    queue_facts(db, "bad", 3)
    queue_facts(db, "good", 3)
    lines: list[str] = []
    totals = run_worker(
        db.dsn("app"),
        "pgfacts",
        embedder=ZeroForBad(),
        parts={"embeddings"},
        once=True,
        report=lines.append,
    )
    assert totals.embedded == 3 and queued(db, "good") == 0
    assert queued(db, "bad") == 3  # its batch rolled back, still queued
    assert any(line.startswith("embeddings of 'bad' failed") and "22023" in line for line in lines)
