"""Batches of one plain import written by two sessions at once (issue 26's import speed):
each session claims its own slice; a batch that commits ahead of an earlier one still being
written waits, with its rejected lines, until the checkpoint reaches it; a batch waits for
an earlier one in progress that writes one of its keys. An interrupted parallel import,
resumed, ends exactly where a serial import of the same file ends: the same facts and
history, the same counts, the same audit and a byte-identical rejects file."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import psycopg

from pgfacts import Context, transfer

from .conftest import Database
from .support.caller import Caller


def operator(tenant: str) -> Context:
    return Context(tenant=tenant, session_id="run-1", agent_id="mover", agent_kind="operator")


def fact(key: str, value: Any) -> dict[str, Any]:
    return {"type": "fact", "key": key, "value": value, "shared": True}


def write_lines(path: Path, records: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def batch(conn: psycopg.Connection, tenant: str, size: int) -> dict[str, Any]:
    """import_batch in the connection's open transaction (not committed)."""
    conn.execute(
        "SELECT pgfacts.set_context(tenant => %s, session_id => 'run-1', agent_id => 'mover', "
        "agent_kind => 'operator')",
        [tenant],
    )
    row = conn.execute("SELECT pgfacts.import_batch(%s)", [size]).fetchone()
    assert row is not None
    return row[0]


def committed_batch(db: Database, tenant: str, size: int) -> dict[str, Any]:
    with psycopg.connect(db.dsn()) as conn:
        answer = batch(conn, tenant, size)
        conn.commit()
    return answer


def in_thread(work: Any) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["answer"] = work()
        except Exception as exc:
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def waits_on(db: Database) -> str | None:
    """The kind of lock a session of this database waits for (polled for a while):
    advisory (an earlier slice in progress), transactionid or tuple (a row another
    transaction holds: the import's, at a checkpoint), or None."""
    with psycopg.connect(db.dsn(), autocommit=True) as conn:
        for _ in range(100):
            row = conn.execute(
                "SELECT l.locktype FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid "
                "WHERE a.datname = current_database() AND NOT l.granted LIMIT 1"
            ).fetchone()
            if row is not None:
                return str(row[0])
            time.sleep(0.1)
    return None


def state(db: Database, tenant: str) -> dict[str, Any]:
    """What an import left in the tenant: current facts, each key's history of values,
    the audit's operations."""
    with db.admin() as admin:
        return {
            name: admin.execute(sql, [tenant]).fetchall()
            for name, sql in (
                ("facts", FACTS), ("history", HISTORY), ("audit", AUDIT), ("counts", COUNTS)
            )
        }  # fmt: skip


FACTS = (
    "SELECT scope_key, value, tags, deleted_at IS NULL FROM pgfacts_internal.facts "
    "WHERE tenant = %s ORDER BY scope_key"
)
HISTORY = (
    "SELECT scope_key, array_agg(value::text ORDER BY lower(system_time)) "
    "FROM pgfacts_internal.fact_versions WHERE tenant = %s GROUP BY 1 ORDER BY 1"
)
AUDIT = (
    "SELECT operation, target, after->'value_sha256', after->'tags' "
    "FROM pgfacts_internal.audit_log WHERE tenant = %s AND operation = 'store' "
    "ORDER BY target, (after->>'etag')::bigint"
)
COUNTS = (
    "SELECT operation, count(*) FROM pgfacts_internal.audit_log WHERE tenant = %s "
    "AND operation <> 'bind_tenant_login' GROUP BY 1 ORDER BY 1"
)


def held_batches(db: Database, tenant: str) -> int:
    with db.admin() as admin:
        row = admin.execute(
            "SELECT count(*) FROM pgfacts_internal.transfer_batches WHERE tenant = %s", [tenant]
        ).fetchone()
    assert row is not None
    return int(row[0])


SUMMARY = ("inserted", "superseded", "duplicate", "rejected", "lines_done", "finished")


def lines() -> list[Any]:
    # Slices of 5 lines. The second and third share no key, so they are written side by
    # side; later slices repeat keys of earlier ones (a later line supersedes, a repeat is
    # a duplicate). Every slice holds a rejected line.
    return [
        fact("a/1", 1), fact("a/2", 2), fact("", 0), fact("a/3", 3), fact("a/4", 4),
        fact("b/1", 1), fact("b/2", 2), fact("skills/x", 0), fact("b/3", 3), "not json",
        fact("c/1", 1), fact("c/2", 2), fact("", 1), fact("c/3", 3), fact("c/4", 4),
        fact("a/1", 10), fact("b/1", 1), fact("", 2), fact("c/1", 11), fact("d/1", 1),
        fact("b/2", 20), fact("d/1", 1), fact("skills/y", 0), fact("a/2", 2), fact("e/1", 1),
        fact("e/1", 2), "[1, 2]",
    ]  # fmt: skip


def test_an_interrupted_parallel_import_resumes_to_the_serial_result(
    db: Database, tmp_path: Path
) -> None:
    source = write_lines(tmp_path / "facts.jsonl", lines())
    serial_rejects = tmp_path / "serial.rejects.jsonl"
    serial = transfer.import_file(
        source, operator("serial"), db.dsn(), batch_size=5, rejects_path=serial_rejects,
        sessions=1,
    )  # fmt: skip
    assert serial["finished"] and serial["rejected"] == 7

    rejects = tmp_path / "parallel.rejects.jsonl"
    first = transfer.import_file(
        source, operator("parallel"), db.dsn(), batch_size=5, rejects_path=rejects,
        max_batches=1,
    )  # fmt: skip
    assert first["lines_done"] == 5 and rejects.read_text().count("\n") == 1
    # One session claims the second slice and is cut off before it commits; another writes
    # the third meanwhile, without waiting (no key in common), and commits it ahead of
    # the checkpoint, which stays behind the second, with the third's rejected line.
    cut = psycopg.connect(db.dsn())
    try:
        assert batch(cut, "parallel", 5)["written"]
        thread, out = in_thread(lambda: committed_batch(db, "parallel", 5))
        # Written without waiting for the second slice: only its checkpoint waits, for the
        # import's row the second slice's checkpoint holds.
        assert waits_on(db) in ("transactionid", "tuple")
    finally:
        cut.close()  # the interruption: the second slice rolls back
    thread.join(30)
    ahead = out["answer"]
    assert ahead["written"] and ahead["lines_done"] == 5 and ahead["rejects"] == []
    assert ahead["inserted"] == 4 + 4  # the third slice's facts are counted

    assert held_batches(db, "parallel") == 1
    resumed = transfer.import_file(
        source, operator("parallel"), db.dsn(), batch_size=5, rejects_path=rejects, sessions=2
    )
    assert resumed["resumed"]
    assert {k: resumed[k] for k in SUMMARY} == {k: serial[k] for k in SUMMARY}
    assert rejects.read_text() == serial_rejects.read_text()
    assert state(db, "parallel") == state(db, "serial")
    assert held_batches(db, "parallel") == 0


def test_a_batch_waits_for_an_earlier_one_writing_its_key(db: Database, tmp_path: Path) -> None:
    source = write_lines(
        tmp_path / "keys.jsonl",
        [
            fact("k/1", "a"), fact("k/2", "b"),
            fact("k/3", "c"), fact("k/1", "x"),
            fact("k/1", "y"), fact("k/4", "d"),
        ],
    )  # fmt: skip
    transfer.import_file(source, operator("keys"), db.dsn(), batch_size=2, max_batches=1)
    held = psycopg.connect(db.dsn())
    try:
        assert batch(held, "keys", 2)["written"]  # lines 3-4, k/1 = x, not committed
        thread, out = in_thread(lambda: committed_batch(db, "keys", 2))  # lines 5-6
        assert waits_on(db) == "advisory", "the third slice did not wait for the second"
        held.commit()
        thread.join(30)
        assert not thread.is_alive() and out["answer"]["finished"], out
    finally:
        held.close()
    op = Caller(db, tenant="keys", kind="operator", session="run-1")
    assert op.one("SELECT value FROM pgfacts.read_facts('k/1')") == "y"
    history = op.rows("SELECT value FROM pgfacts.fact_history('k/1', true)")
    assert [h[0] for h in history] == ["a", "x", "y"]
    final = out["answer"]
    assert (final["inserted"], final["superseded"], final["duplicate"]) == (4, 2, 0)


def test_a_batch_of_other_lines_waits_for_every_earlier_one(db: Database, tmp_path: Path) -> None:
    # A predicate defined after facts: its slice follows every earlier slice in progress,
    # even one with no key in common (an episode or graph line reads what came before).
    source = write_lines(
        tmp_path / "mixed.jsonl",
        [
            fact("m/1", 1), fact("m/2", 2),
            fact("m/3", 3), fact("m/4", 4),
            {"type": "predicate", "name": "likes", "cardinality": "many"}, fact("m/5", 5),
        ],
    )  # fmt: skip
    transfer.import_file(source, operator("mixed"), db.dsn(), batch_size=2, max_batches=1)
    held = psycopg.connect(db.dsn())
    try:
        assert batch(held, "mixed", 2)["written"]
        thread, out = in_thread(lambda: committed_batch(db, "mixed", 2))
        assert waits_on(db) == "advisory", "the slice with a predicate did not wait"
        held.commit()
        thread.join(30)
        assert not thread.is_alive() and out["answer"]["finished"], out
    finally:
        held.close()
    assert out["answer"]["inserted"] == 6


def test_many_small_slices_in_three_sessions_end_as_a_serial_import(
    db: Database, tmp_path: Path
) -> None:
    # One-line slices claimed by three sessions as fast as they can: a slice that another
    # session committed between a claimer's first look and its lock must not be written
    # again (asked in one expression, it was: duplicates counted twice, and a slice written
    # after the import had finished raised 55000).
    records = [fact(f"s/{i % 40}", i // 40) for i in range(160)] + [fact("", 0), "x"]
    source = write_lines(tmp_path / "small.jsonl", records)
    serial_rejects = tmp_path / "serial.rejects.jsonl"
    serial = transfer.import_file(
        source, operator("small-serial"), db.dsn(), batch_size=1, rejects_path=serial_rejects,
        sessions=1,
    )  # fmt: skip
    rejects = tmp_path / "parallel.rejects.jsonl"
    parallel = transfer.import_file(
        source, operator("small-parallel"), db.dsn(), batch_size=1, rejects_path=rejects,
        sessions=3,
    )  # fmt: skip
    assert serial["finished"] and (serial["inserted"], serial["superseded"]) == (40, 120)
    assert {k: parallel[k] for k in SUMMARY} == {k: serial[k] for k in SUMMARY}
    assert rejects.read_text() == serial_rejects.read_text()
    assert state(db, "small-parallel") == state(db, "small-serial")


def test_import_batch_refuses_a_transaction_that_cannot_see_other_sessions(
    db: Database, tmp_path: Path
) -> None:
    source = write_lines(tmp_path / "iso.jsonl", [fact("i/1", 1), fact("i/2", 2)])
    transfer.import_file(source, operator("iso"), db.dsn(), batch_size=1, max_batches=1)
    with psycopg.connect(db.dsn()) as conn:
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        try:
            batch(conn, "iso", 1)
        except psycopg.errors.FeatureNotSupported as exc:
            assert "import_batch needs a READ COMMITTED transaction" in str(exc)
            assert exc.diag.message_hint
        else:
            raise AssertionError("import_batch ran under repeatable read")
    op = Caller(db, tenant="iso", kind="operator", session="run-1")
    assert op.rows("SELECT key FROM pgfacts.read_facts('i/*')") == [("i/1",)]


def test_sessions_that_wait_for_every_earlier_slice_do_not_deadlock(
    db: Database, tmp_path: Path
) -> None:
    # Every slice holds a line other than a fact, so each waits for every earlier one in
    # progress: four sessions queue on the same slices. Waits hold the slice's lock
    # exclusively no more (a session granted an earlier slice's lock kept it, and one
    # waiting on it for its own slice deadlocked with it: 40P01).
    records: list[Any] = []
    for i in range(24):
        records += [
            {"type": "predicate", "name": f"p{i}", "cardinality": "many"},
            fact(f"w/{i}", i),
        ]
    source = write_lines(tmp_path / "waits.jsonl", records)
    answer = transfer.import_file(source, operator("waits"), db.dsn(), batch_size=2, sessions=4)
    assert answer["finished"] and answer["inserted"] == 48 and answer["rejected"] == 0
    op = Caller(db, tenant="waits", kind="operator", session="run-1")
    assert op.one("SELECT count(*) FROM pgfacts.read_facts('w/*', \"limit\" => 100)") == 24


def test_an_import_runs_to_its_end_when_another_process_held_a_slice(
    db: Database, tmp_path: Path
) -> None:
    # Another backend (a killed run's, still finishing its statement) holds the second
    # slice's lock and lets it go unwritten while this import waits for it, every other
    # slice being done: import_batch answers written false, and import_file goes on to write
    # the slice rather than returning the import unfinished.
    source = write_lines(tmp_path / "held.jsonl", [fact(f"h/{i}", i) for i in range(6)])
    transfer.import_file(source, operator("held"), db.dsn(), batch_size=2, max_batches=1)
    with psycopg.connect(db.admin_dsn_of_database()) as admin:  # a transaction of its own
        row = admin.execute(
            "SELECT import_id FROM pgfacts_internal.transfer_imports WHERE tenant = 'held'"
        ).fetchone()
        assert row is not None
        admin.execute(
            "SELECT pg_advisory_xact_lock(pgfacts_internal.transfer_batch_key('held', %s, 3))",
            [row[0]],
        )
        thread, out = in_thread(
            lambda: transfer.import_file(
                source, operator("held"), db.dsn(), batch_size=2, sessions=1
            )
        )
        assert waits_on(db) == "advisory", "the import did not wait for the held slice"
        admin.rollback()
    thread.join(30)
    assert not thread.is_alive() and "error" not in out, out
    assert out["answer"]["finished"] and out["answer"]["inserted"] == 6
