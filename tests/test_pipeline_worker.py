"""The extraction worker (issue 24): fair across tenants, failures recorded with their
codes, a stop gives the batch back, and a worker killed with SIGKILL loses no event."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pgfacts import Context, FactStore
from pgfacts.pipeline import ExtractionFailed, ScriptedExtractor, drain_extractions
from pgfacts.rows import ExtractionWork

from .conftest import Database
from .support.caller import Caller
from .support.memories import record_many

ROOT = Path(__file__).resolve().parent.parent


def states(db: Database) -> dict[str, int]:
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT state, count(*) FROM pgfacts_internal.extraction_events GROUP BY state"
        ).fetchall()
    return {state: count for state, count in rows}


def events_of(db: Database) -> list[tuple[Any, ...]]:
    with db.admin() as admin:
        return admin.execute(
            "SELECT event_id, state, attempts, error_code, last_error "
            "FROM pgfacts_internal.extraction_events ORDER BY event_id"
        ).fetchall()


@pytest.fixture
def store(db: Database) -> Any:
    with FactStore(db.dsn("app"), context=Context("t1", agent_kind="operator")) as s:
        yield s


def test_a_busy_tenant_does_not_starve_the_others(db: Database, store: FactStore) -> None:
    record_many(db, "busy", 30)
    quiet = set(record_many(db, "quiet", 3))
    seen: list[tuple[int, str]] = []

    def script(work: ExtractionWork) -> list[Any]:
        seen.append((work.event_id, work.lines[0]["text"]))
        return []

    totals = drain_extractions(store, ScriptedExtractor(script), batch_size=5, report=print)
    assert (totals.done, totals.failed, totals.stale) == (33, 0, 0)
    # The first round serves both tenants one batch each: the quiet one is done within it.
    assert {event for event, _ in seen[:10]} >= quiet
    assert states(db) == {"done": 33}


def test_refusals_are_recorded_with_their_codes(db: Database, store: FactStore) -> None:
    Caller(db).one("SELECT pgfacts.set_setting('extraction_max_attempts', '1')")
    limited, broken, refused = record_many(db, "t1", 3)

    def script(work: ExtractionWork) -> list[Any]:
        if work.event_id == limited:
            raise ExtractionFailed(1429, "rate limited by the provider")
        if work.event_id == broken:
            raise KeyError("choices")  # the extractor's own bug
        return [{"subject": 1, "predicate": "never_defined", "object": "x"}]

    totals = drain_extractions(store, ScriptedExtractor(script), report=lambda _: None)
    assert (totals.done, totals.failed) == (0, 3)
    got = {event: (state, code, error) for event, state, _, code, error in events_of(db)}
    assert got[limited] == ("failed", 1429, "rate limited by the provider")
    assert got[broken] == ("failed", 9999, "KeyError('choices')")
    assert got[refused][:2] == ("failed", 1400)  # ingest refused the claims (PF001/PF002)


def test_a_stop_gives_the_rest_of_the_batch_back(db: Database, store: FactStore) -> None:
    record_many(db, "t1", 5)
    stop = threading.Event()

    def script(work: ExtractionWork) -> list[Any]:
        stop.set()  # SIGTERM arrives while the first memory is in hand
        return []

    totals = drain_extractions(store, ScriptedExtractor(script), tenant="t1", stop=stop)
    assert (totals.done, totals.released) == (1, 4)
    assert states(db) == {"done": 1, "ready": 4}
    assert {attempts for _, state, attempts, _, _ in events_of(db) if state == "ready"} == {0}


def worker_process(db: Database, tmp_path: Path, seconds: float) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PGFACTS_TEST_EXTRACTIONS": str(tmp_path),
        "PGFACTS_TEST_EXTRACT_SECONDS": str(seconds),
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "pgfacts", "worker", "--dsn", db.dsn("app")]
    options = ["--extractor", "tests.support.slow_extractor:SlowExtractor", "--batch-size", "4"]
    return subprocess.Popen(
        [*command, *options],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_files(path: Path, count: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while len(list(path.iterdir())) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the worker never started extracting"
        time.sleep(0.02)


def test_a_worker_killed_mid_batch_loses_no_event_and_applies_none_twice(
    db: Database, store: FactStore, tmp_path: Path
) -> None:
    events = record_many(db, "t1", 6)
    process = worker_process(db, tmp_path, seconds=0.5)
    wait_for_files(tmp_path, 2, process)  # one done or nearly, one in hand
    process.send_signal(signal.SIGKILL)
    process.wait(30)
    held = states(db)
    assert held.get("leased", 0) >= 2 and sum(held.values()) == 6
    with db.admin() as admin:  # its leases run out (no waiting in a test)
        admin.execute(
            "UPDATE pgfacts_internal.extraction_events SET due_at = now() WHERE state = 'leased'"
        )
    done_again: list[int] = []

    def script(work: ExtractionWork) -> list[Any]:
        done_again.append(work.event_id)
        return []

    drain_extractions(store, ScriptedExtractor(script), tenant="t1")
    assert states(db) == {"done": 6}
    finished_before = {int(p.name) for p in tmp_path.iterdir()} - set(done_again)
    assert sorted(finished_before | set(done_again)) == sorted(events)
    assert not finished_before & set(done_again)  # what was committed was not redone


def test_sigterm_finishes_the_memory_in_hand_and_releases_the_rest(
    db: Database, tmp_path: Path
) -> None:
    record_many(db, "t1", 4)
    process = worker_process(db, tmp_path, seconds=0.5)
    wait_for_files(tmp_path, 1, process)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert states(db) == {"done": 1, "ready": 3}
    assert "1 done, 0 failed, 0 stale, 3 released" in stderr


PIPELINE_DOC = ROOT / "docs" / "pipeline.md"
PYTHON_FENCE = re.compile(r"```python\n(.*?)```", re.DOTALL)


def test_the_pipeline_doc_python_runs_and_prints_what_it_says(
    db: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    [block] = PYTHON_FENCE.findall(PIPELINE_DOC.read_text())
    monkeypatch.setenv("PGFACTS_DSN", db.dsn("app"))
    exec(compile(block, str(PIPELINE_DOC), "exec"), {})
    assert capsys.readouterr().out.splitlines() == ["1 0", "['Kyiv']"]
