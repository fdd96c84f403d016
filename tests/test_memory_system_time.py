"""Working memory: an answer for a known instant never changes after a later commit.

A transaction's fact writes in a tenant carry the instant of its first fact write, taken
under the tenant's fact-writes lock; `read_facts(known_at => X)` first waits for the
writers in progress, so what it answers for X is what every later reader of X gets.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg

from .conftest import Database
from .interleave import Step, backend_pid, wait_until_blocked
from .support.caller import Caller


def open_writer(db: Database) -> psycopg.Connection[Any]:
    conn = db.connect("agent")
    conn.execute("SELECT pgfacts.set_context(tenant => 't1', session_id => 's')")
    return conn


def read_as_of(db: Database, known_at: datetime, conn: Any = None) -> list[tuple[str, Any]]:
    reader = conn or db.connect("agent", autocommit=True)
    try:
        with reader.transaction():
            reader.execute("SELECT pgfacts.set_context(tenant => 't1', session_id => 's')")
            return reader.execute(  # type: ignore[no-any-return]
                "SELECT key, value FROM pgfacts.read_facts(known_at => %s) ORDER BY key",
                (known_at,),
            ).fetchall()
    finally:
        if conn is None:
            reader.close()


def clock(db: Database) -> datetime:
    with db.admin() as admin:
        row = admin.execute("SELECT clock_timestamp()").fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


def test_an_answer_at_a_known_instant_never_changes_after_a_later_commit(
    call: Caller, db: Database
) -> None:
    call("store_fact", {"key": "state", "value": "v1"}, session="s")
    before_write = clock(db)
    writer = open_writer(db)
    writer.execute("SELECT pgfacts.store_fact('state', '\"v2\"')")  # uncommitted
    after_write = clock(db)
    first = db.connect("agent", autocommit=True)
    second = db.connect("agent", autocommit=True)
    with db.admin() as observer:
        # Both readers wait for the writer in progress, whatever their instant.
        early = Step(lambda: read_as_of(db, before_write, first))
        late = Step(lambda: read_as_of(db, after_write, second))
        wait_until_blocked(observer, backend_pid(first), early)
        wait_until_blocked(observer, backend_pid(second), late)
        writer.commit()
    assert early.result() == [("state", "v1")]  # stamped after this instant
    assert late.result() == [("state", "v2")]  # stamped before it, committed since
    assert read_as_of(db, before_write) == [("state", "v1")]
    assert read_as_of(db, after_write) == [("state", "v2")]
    writer.close()
    first.close()
    second.close()


def test_a_transactions_writes_share_the_instant_of_its_first_write(
    call: Caller, db: Database
) -> None:
    writer = open_writer(db)
    began = writer.execute("SELECT now()").fetchone()[0]  # type: ignore[index]
    before_first = clock(db)
    writer.execute("SELECT pgfacts.store_fact('a', '1')")
    writer.execute("SELECT pgfacts.store_fact('b', '2', shared => true)")
    writer.execute("SELECT pgfacts.delete_fact('a')")
    writer.commit()
    writer.close()
    with db.admin() as admin:
        instants = admin.execute(
            "SELECT DISTINCT lower(system_time) FROM pgfacts_internal.facts"
        ).fetchall()
    assert len(instants) == 1
    assert instants[0][0] >= before_first > began  # not the transaction's start
    assert read_as_of(db, before_first) == []
    history = call("fact_history", {"key": "a"}, session="s")["versions"]
    assert [v["deleted"] for v in history] == [True]  # created and deleted: one version


def test_a_reader_that_is_itself_writing_waits_only_for_others(call: Caller, db: Database) -> None:
    writer = open_writer(db)
    writer.execute("SELECT pgfacts.store_fact('mine', '1')")
    mine = writer.execute(
        "SELECT key FROM pgfacts.read_facts(known_at => clock_timestamp())"
    ).fetchall()
    assert mine == [("mine",)]  # its own write, not yet committed, at an instant after it
    writer.rollback()
    writer.close()
    assert call("read_facts", {}, session="s")["facts"] == []
