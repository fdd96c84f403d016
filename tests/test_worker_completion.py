"""complete_extractions as the worker sends it (issue 24): the batch's held events locked
in one statement, each result through ingest on its own, the done marks in one statement;
every refusal is the one complete_extraction gives, and overlapping batches never deadlock."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller


def record(db: Database, count: int) -> None:
    agent = Caller(db, kind="agent", session="s1")
    for i in range(count):
        agent.one(
            "SELECT pgfacts.record_memory('chat', %s, %s)",
            f"c/{i}",
            Jsonb([{"id": "1", "text": f"turn {i}"}]),
        )
    agent.close()


def claim(worker: Caller, n: int) -> list[dict[str, Any]]:
    rows = worker.rows(
        "SELECT event_id, lease_token::text FROM pgfacts.claim_extraction_work(%s)", n
    )
    return [{"event_id": e, "lease_token": t, "claims": []} for e, t in rows]


def complete(worker: Caller, results: Any, extractor: str = "x@1") -> Any:
    return worker.one("SELECT pgfacts.complete_extractions(%s, %s)", extractor, Jsonb(results))


def test_each_refusal_is_complete_extraction_s(db: Database) -> None:
    record(db, 3)
    worker = Caller(db, kind="operator")
    first, second, third = claim(worker, 3)
    results = [
        first,
        dict(first),  # the same event again
        {**second, "lease_token": second["lease_token"].upper()},  # a uuid is a uuid
        {**third, "lease_token": "not a uuid"},
        {"event_id": 999999, "lease_token": third["lease_token"]},
    ]
    outcomes = complete(worker, results)
    assert [(o.get("state"), o.get("sqlstate")) for o in outcomes] == [
        ("done", None),
        (None, "55000"),
        ("done", None),
        (None, "22P02"),
        (None, "P0002"),
    ]
    assert outcomes[0]["episode_id"] != outcomes[2]["episode_id"]
    states = worker.rows(
        "SELECT e ->> 'state' FROM jsonb_array_elements(pgfacts.extraction_events()) e"
    )
    assert sorted(s for (s,) in states) == ["done", "done", "leased"]
    again = complete(worker, [third])  # the one left still completes
    assert again[0]["state"] == "done"
    with pytest.raises(psycopg.Error) as refused:
        complete(worker, [], extractor="")
    assert refused.value.sqlstate == "22023" and refused.value.diag.message_hint
    worker.close()


def test_overlapping_batches_in_opposite_orders_do_not_deadlock(db: Database) -> None:
    record(db, 40)
    claimer = Caller(db, kind="operator")
    batch = claim(claimer, 40)
    claimer.close()
    outcomes: dict[str, list[Any]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def send(name: str, results: list[dict[str, Any]]) -> None:
        worker = Caller(db, kind="operator", agent=name)
        try:
            start.wait(10)
            outcomes[name] = complete(worker, results)
        except BaseException as exc:  # a deadlock (40P01) would land here
            errors.append(exc)
        finally:
            worker.close()

    threads = [
        threading.Thread(target=send, args=("forward", batch)),
        threading.Thread(target=send, args=("backward", batch[::-1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    done = [o["event_id"] for name in outcomes for o in outcomes[name] if o.get("state") == "done"]
    assert sorted(done) == sorted(r["event_id"] for r in batch)  # each by exactly one of them
    stale = [o for name in outcomes for o in outcomes[name] if o.get("sqlstate")]
    assert len(stale) == 40 and {o["sqlstate"] for o in stale} == {"55000"}
