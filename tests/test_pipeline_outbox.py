"""The pipeline's outbox (issue 24, first part): a memory is recorded with its extraction
event in one transaction; workers lease events, and only the holder of the current lease
token can complete or fail one; failures back off, then park."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest
from psycopg.types.json import Jsonb

from pgfacts import Context, FactStore, PgfactsError
from pgfacts.rows import ExtractionWork

from .conftest import Database
from .interleave import join_all
from .support.caller import Caller, raises

LINES = [{"id": "t1", "text": "Anna: I moved to Lviv last spring."}]


@pytest.fixture
def agent(db: Database) -> Caller:
    return Caller(db, kind="agent", session="s1", agent="chat-agent")


@pytest.fixture
def worker(db: Database) -> Caller:
    return Caller(db, kind="operator", agent="worker-1")


def record(caller: Caller, ref: str = "conv/1#1", lines: Any = LINES, **kwargs: Any) -> Any:
    args = "".join(f", {k} => %s" for k in kwargs)
    return caller.one(
        f"SELECT pgfacts.record_memory('chat', %s, %s{args})", ref, Jsonb(lines), *kwargs.values()
    )


def claim(caller: Caller, batch: int = 10) -> list[dict[str, Any]]:
    rows = caller.rows("SELECT to_jsonb(w) FROM pgfacts.claim_extraction_work(%s) AS w", batch)
    return [r[0] for r in rows]


def status(caller: Caller, event_id: int) -> dict[str, Any]:
    return caller.one("SELECT pgfacts.extraction_status(%s)", event_id)  # type: ignore[no-any-return]


def complete(caller: Caller, work: dict[str, Any], claims: list[dict[str, Any]]) -> Any:
    return caller.one(
        "SELECT pgfacts.complete_extraction(%s, %s, 'scripted@1', %s)",
        work["event_id"],
        work["lease_token"],
        Jsonb(claims),
    )


def fail(caller: Caller, work: dict[str, Any], code: int = 1429) -> Any:
    return caller.one(
        "SELECT pgfacts.fail_extraction(%s, %s, %s, 'rate limited')",
        work["event_id"],
        work["lease_token"],
        code,
    )


def expire_leases(db: Database) -> None:
    """A lease whose expiry has passed, as after a worker died (no waiting in a test)."""
    with db.admin() as admin:
        admin.execute(
            "UPDATE pgfacts_internal.extraction_events SET due_at = now() - interval '1 second' "
            "WHERE state = 'leased'"
        )


def counts(db: Database) -> tuple[int, int, int]:
    with db.admin() as admin:
        row = admin.execute(
            "SELECT (SELECT count(*) FROM pgfacts_internal.memories), "
            "(SELECT count(*) FROM pgfacts_internal.extraction_events), "
            "(SELECT count(*) FROM pgfacts_internal.episodes)"
        ).fetchone()
    assert row is not None
    return row[0], row[1], row[2]


def lives_in(worker: Caller) -> list[dict[str, Any]]:
    anna = worker.one("SELECT pgfacts.ensure_entity('person', 'Anna')")
    worker.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    return [
        {
            "subject": anna,
            "predicate": "lives_in",
            "object": "Lviv",
            "text": "Anna lives in Lviv",
            "locator": {"line": "t1"},
        }
    ]


def test_a_memory_recorded_with_no_worker_waits_and_is_extracted_later(
    agent: Caller, worker: Caller, db: Database
) -> None:
    recorded = record(agent, occurred_at=datetime(2026, 3, 1, tzinfo=UTC))
    assert recorded["recorded"] is True and recorded["content_hash"].startswith("sha256:")
    event = status(agent, recorded["event_id"])
    assert (event["state"], event["attempts"], event["kind"]) == ("ready", 0, "FACT_EXTRACT")
    assert counts(db) == (1, 1, 0)  # stored, queued, nothing extracted

    [work] = claim(worker)
    assert (work["event_id"], work["attempt"], work["lines"]) == (recorded["event_id"], 1, LINES)
    assert status(agent, recorded["event_id"])["state"] == "leased"
    done = complete(worker, work, lives_in(worker))
    assert done["state"] == "done" and done["episode_id"] is not None
    assert status(agent, recorded["event_id"])["episode_id"] == done["episode_id"]
    with db.admin() as admin:
        episode = admin.execute(
            "SELECT source_kind, source_ref, extractor, occurred_at FROM pgfacts_internal.episodes"
        ).fetchone()
        believed = admin.execute(
            "SELECT object_value FROM pgfacts_internal.claims WHERE upper_inf(system_time)"
        ).fetchall()
    assert episode == ("chat", "conv/1#1", "scripted@1", datetime(2026, 3, 1, tzinfo=UTC))
    assert believed == [("Lviv",)]
    assert claim(worker) == []  # done is done


def test_the_same_memory_twice_is_one_memory_and_one_event(agent: Caller, db: Database) -> None:
    first = record(agent)
    again = record(agent, lines=[{"text": LINES[0]["text"], "id": "t1"}])  # same lines
    assert again == {**first, "recorded": False}
    changed = record(agent, lines=[{"id": "t1", "text": "Anna: I moved to Odesa."}])
    assert changed["recorded"] and changed["memory_id"] != first["memory_id"]
    given = record(agent, ref="doc/7", content_hash="v1")
    assert record(agent, ref="doc/7", content_hash="v1", lines=[{"id": "x", "text": "other"}]) == {
        **given,
        "recorded": False,
    }
    assert counts(db) == (3, 3, 0)


def test_workers_lease_disjoint_batches_and_a_stale_token_is_refused(
    agent: Caller, worker: Caller, db: Database
) -> None:
    events = [record(agent, ref=f"conv/1#{i}")["event_id"] for i in range(5)]
    other = Caller(db, kind="operator", agent="worker-2")
    first, second = claim(worker, 3), claim(other, 10)
    assert sorted(w["event_id"] for w in first + second) == sorted(events)
    assert claim(other) == []  # every event is leased

    # worker-1 stalls past its lease; worker-2 takes the event over and finishes it.
    stalled = first[0]
    expire_leases(db)
    retaken = [w for w in claim(other) if w["event_id"] == stalled["event_id"]]
    assert retaken and retaken[0]["lease_token"] != stalled["lease_token"]
    assert retaken[0]["attempt"] == 2
    claims = lives_in(worker)
    raises("55000", complete, worker, stalled, claims)
    raises("55000", fail, worker, stalled)
    assert counts(db)[2] == 0  # the stale completion wrote nothing
    assert complete(other, retaken[0], claims)["state"] == "done"
    raises("55000", complete, other, retaken[0], claims)  # at most one result an event
    assert counts(db)[2] == 1


def test_failures_back_off_then_park(agent: Caller, worker: Caller, db: Database) -> None:
    worker.one("SELECT pgfacts.set_setting('extraction_max_attempts', '2')")
    worker.one("SELECT pgfacts.set_setting('extraction_backoff_seconds', '60')")
    event_id = record(agent)["event_id"]
    [work] = claim(worker)
    before = datetime.now(UTC)
    retry = fail(worker, work)
    due = datetime.fromisoformat(retry["due_at"])
    assert (retry["state"], retry["error_code"], retry["last_error"]) == (
        "ready",
        1429,
        "rate limited",
    )
    # Equal jitter: between half and all of the first delay.
    assert before + timedelta(seconds=29) <= due <= before + timedelta(seconds=61)
    assert claim(worker) == []  # not due yet
    with db.admin() as admin:
        admin.execute("UPDATE pgfacts_internal.extraction_events SET due_at = now()")
    [work] = claim(worker)
    assert work["attempt"] == 2
    parked = fail(worker, work, 1500)
    assert (parked["state"], parked["error_code"], parked["finished_at"] is not None) == (
        "failed",
        1500,
        True,
    )
    assert claim(worker) == []
    # forced again: a new event, the parked one kept as it was.
    forced = worker.one("SELECT pgfacts.force_extract(%s)", work["memory_id"])
    assert forced != event_id and status(worker, forced)["state"] == "ready"
    assert status(worker, event_id)["state"] == "failed"
    assert worker.one("SELECT pgfacts.force_extract(%s)", work["memory_id"]) == forced


def test_a_lease_that_expires_on_its_last_attempt_is_parked(
    agent: Caller, worker: Caller, db: Database
) -> None:
    worker.one("SELECT pgfacts.set_setting('extraction_max_attempts', '1')")
    event_id = record(agent)["event_id"]
    assert len(claim(worker)) == 1
    expire_leases(db)  # the worker died with it
    assert claim(worker) == []
    parked = status(worker, event_id)
    assert (parked["state"], parked["error_code"]) == ("failed", 9999)


def test_a_released_event_is_ready_again_without_counting_the_attempt(
    agent: Caller, worker: Caller
) -> None:
    event_id = record(agent)["event_id"]
    [work] = claim(worker)
    released = worker.one(
        "SELECT pgfacts.release_extraction(%s, %s)", event_id, work["lease_token"]
    )
    assert (released["state"], released["attempts"]) == ("ready", 0)
    assert claim(worker)[0]["attempt"] == 1


def test_events_list_by_state_and_stay_in_their_tenant(
    agent: Caller, worker: Caller, db: Database
) -> None:
    first = record(agent, ref="a")["event_id"]
    second = record(agent, ref="b")["event_id"]
    claim(worker, 1)
    listed = worker.one("SELECT pgfacts.extraction_events()")
    assert [(e["event_id"], e["state"]) for e in listed] == [(second, "ready"), (first, "leased")]
    assert worker.one("SELECT pgfacts.extraction_events('done')") == []
    assert len(worker.one('SELECT pgfacts.extraction_events("limit" => 1)')) == 1
    stranger = Caller(db, tenant="t2", kind="operator")
    raises("P0002", status, stranger, first)  # as unknown as a missing event
    assert claim(stranger) == []
    assert stranger.one("SELECT pgfacts.extraction_events()") == []
    raises("P0002", stranger.one, "SELECT pgfacts.force_extract(1)")
    backlog = worker.rows("SELECT tenant, due, ready, leased FROM pgfacts.extraction_backlog()")
    assert backlog == [("t1", 1, 1, 1)]


def test_kinds_are_enforced_by_privileges(agent: Caller, db: Database) -> None:
    event_id = record(agent)["event_id"]
    raises("42501", claim, agent)
    raises("42501", agent.one, "SELECT pgfacts.force_extract(1)")
    raises("42501", agent.one, "SELECT pgfacts.extraction_events()")
    assert status(agent, event_id)["state"] == "ready"
    tuner = Caller(db, kind="tuner")
    raises("42501", lambda: record(tuner, ref="x"))
    assert len(tuner.one("SELECT pgfacts.extraction_events()")) == 1
    raises("42501", lambda: record(agent, ref="y", trust="operator"))  # ingest's rule, up front
    assert counts(db) == (1, 1, 0)


@pytest.mark.parametrize(
    ("lines", "fragment"),
    [
        (None, "lines must be an array of 1 to 1000"),
        ([], "lines must be an array of 1 to 1000"),
        ({"id": "a", "text": "b"}, "lines must be an array"),
        ([{"id": "a", "text": "b"}] * 1001, "lines must be an array of 1 to 1000"),
        (["text"], "line 1 is not {id, text}"),
        ([{"id": "a"}], "line 1 is not {id, text}"),
        ([{"id": "a", "text": "b", "x": 1}], "line 1 is not {id, text}"),
        ([{"id": "a", "text": "b"}, {"id": 2, "text": "c"}], "line 2 is not {id, text}"),
        ([{"id": "", "text": "b"}], "line 1 is not"),
        ([{"id": "a\nb", "text": "b"}], "line 1 is not"),
        ([{"id": "a", "text": "x" * 10001}], "line 1 is not"),
        ([{"id": "a", "text": "b"}, {"id": "a", "text": "c"}], "line id 'a' appears twice"),
    ],
)
def test_bad_lines_are_22023_and_nothing_is_written(
    agent: Caller, db: Database, lines: Any, fragment: str
) -> None:
    with pytest.raises(Exception) as info:
        record(agent, lines=lines)
    assert getattr(info.value, "sqlstate", None) == "22023" and fragment in str(info.value)
    assert counts(db) == (0, 0, 0)


def test_bad_arguments_are_22023(agent: Caller, worker: Caller) -> None:
    raises("22023", lambda: record(agent, ref=""))
    raises("22023", lambda: record(agent, ref="x" * 1025))
    raises("22023", lambda: record(agent, trust="gossip"))
    raises("22023", worker.one, "SELECT pgfacts.extraction_events('lost')")
    raises("22023", worker.one, "SELECT pgfacts.extraction_events(NULL, 0)")
    raises("22023", claim, worker, 0)
    raises("P0002", status, worker, 12345)
    record(agent, ref="z")
    [work] = claim(worker)
    raises("22023", fail, worker, work, 42)
    empty_extractor = "SELECT pgfacts.complete_extraction(%s, %s, '', '[]')"
    raises("22023", worker.one, empty_extractor, work["event_id"], work["lease_token"])
    assert status(worker, work["event_id"])["state"] == "leased"


def test_the_python_client_drives_the_outbox_with_typed_rows(db: Database) -> None:
    with FactStore(db.dsn("app"), context=Context("t1", session_id="s1")) as agent:
        recorded = agent.record_memory("chat", "conv/9#1", LINES)
    operator = Context("t1", agent_kind="operator", agent_id="worker-1")
    with FactStore(db.dsn("app"), context=operator) as store:
        [work] = store.claim_extraction_work(batch_size=5)
        assert isinstance(work, ExtractionWork) and isinstance(work.lease_token, UUID)
        assert (work.event_id, work.lines) == (recorded["event_id"], LINES)
        [backlog] = store.extraction_backlog()
        assert (backlog.tenant, backlog.leased) == ("t1", 1)
        done = store.complete_extraction(work.event_id, work.lease_token, "scripted@1", [])
        assert done["state"] == "done"
        with pytest.raises(PgfactsError) as info:
            store.release_extraction(work.event_id, work.lease_token)
        assert info.value.sqlstate == "55000" and "drop this result" in (info.value.hint or "")
        assert store.extraction_events(state="done")[0]["event_id"] == work.event_id


def test_racing_workers_never_hold_or_commit_the_same_event(agent: Caller, db: Database) -> None:
    events = {record(agent, ref=f"race/{i}")["event_id"] for i in range(40)}
    done: dict[str, list[int]] = {}

    def drain(name: str) -> None:
        me = Caller(db, kind="operator", agent=name)
        mine: list[int] = []
        while batch := claim(me, 3):
            for work in batch:
                complete(me, work, [])
                mine.append(work["event_id"])
        done[name] = mine
        me.close()

    threads = [threading.Thread(target=drain, args=(f"w{i}",)) for i in range(3)]
    for thread in threads:
        thread.start()
    join_all(threads)
    finished = [event for mine in done.values() for event in mine]
    assert sorted(finished) == sorted(events)  # each once, by exactly one worker
    with db.admin() as admin:
        row = admin.execute(
            "SELECT count(*) FILTER (WHERE state = 'done'), count(DISTINCT episode_id) "
            "FROM pgfacts_internal.extraction_events"
        ).fetchone()
    assert row == (40, 40)


def test_the_tools_record_and_report_in_camel_case(db: Database) -> None:
    with FactStore(db.dsn("app"), context=Context("t1", session_id="s1")) as agent:
        recorded = agent.tools.record_memory("chat", "conv/3#1", LINES, occurred_at="2026-01-02")
        assert recorded["recorded"] is True and set(recorded) == {
            "memoryId",
            "eventId",
            "recorded",
            "contentHash",
        }
        status = agent.tools.extraction_status(recorded["eventId"])
        assert (status["state"], status["memoryId"]) == ("ready", recorded["memoryId"])
        with pytest.raises(PgfactsError) as info:
            agent.tools.force_extract(recorded["memoryId"])  # not an agent's to force
        assert info.value.sqlstate == "42501"
    manager = Context("t1", agent_kind="facts_manager")
    with FactStore(db.dsn("app"), context=manager) as store:
        assert store.tools.force_extract(recorded["memoryId"]) == {"eventId": recorded["eventId"]}
        listed = store.tools.extraction_events(state="ready")
        assert listed["count"] == 1 and listed["events"][0]["eventId"] == recorded["eventId"]


def test_a_batch_of_results_commits_each_that_holds(
    agent: Caller, worker: Caller, db: Database
) -> None:
    events = [record(agent, ref=f"batch/{i}")["event_id"] for i in range(3)]
    work = claim(worker)
    good, stale, refused = work
    results = [
        {
            "event_id": good["event_id"],
            "lease_token": good["lease_token"],
            "claims": lives_in(worker),
        },
        {"event_id": stale["event_id"], "lease_token": str(uuid4()), "claims": []},
        {
            "event_id": refused["event_id"],
            "lease_token": refused["lease_token"],
            "claims": [{"subject": 1, "predicate": "never_defined", "object": "x"}],
        },
    ]
    outcomes = worker.one("SELECT pgfacts.complete_extractions('scripted@1', %s)", Jsonb(results))
    assert [(o["event_id"], o.get("state"), o.get("sqlstate")) for o in outcomes] == [
        (good["event_id"], "done", None),
        (stale["event_id"], None, "55000"),
        (refused["event_id"], None, "PF002"),
    ]
    assert [status(worker, e)["state"] for e in events] == ["done", "leased", "leased"]
    assert counts(db)[2] == 1  # the refused result's episode was rolled back with it
    for bad in ([{"event_id": "1", "lease_token": "x"}], [{}], {"event_id": 1}):
        raises("22023", worker.one, "SELECT pgfacts.complete_extractions('x', %s)", Jsonb(bad))
