"""System time is the commit instant, and an answer for a known instant never changes.

A knowledge write becomes known when its transaction commits: every row, source line,
episode and retraction it wrote carries the commit instant. A row a transaction recorded
and retired itself was never visible to anyone else: it is kept as [commit, commit], the
shape of a row never believed, and answers no known instant. A reader
asking about an instant waits for a commit that is being stamped, so what it answers is
what every later reader of that instant gets.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from psycopg.types.json import Jsonb

from .conftest import Database
from .interleave import Step, backend_pid, wait_until_blocked
from .support.caller import Caller
from .support.knowledge import knowledge_caller, lives, person


def episode(ref: str) -> Jsonb:
    return Jsonb({"source_kind": "note", "source_ref": ref, "content_hash": ref})


def begin_ingest(writer: Caller, ref: str, claims: list[dict[str, Any]]) -> None:
    """Open a transaction on ``writer`` and ingest in it, leaving it uncommitted."""
    writer.conn.execute("BEGIN")
    writer.set_context()
    writer.conn.execute("SELECT pgfacts.ingest(%s, %s)", (episode(ref), Jsonb(claims)))


@contextmanager
def commit_held_after_its_stamp(db: Database, writer: Caller) -> Iterator[Any]:
    """Commit ``writer`` in the background and hold it after it has read its commit instant
    and while it still holds the commit lock; yields an observer connection. The stamp
    moves the episode's instant after reading the clock, so hold_stamps_here's trigger on
    that update (installed before the writer began: creating it needs the table), waiting
    for an advisory lock the admin holds here, holds it there."""
    with db.admin() as admin, db.admin() as observer:
        admin.execute("BEGIN")
        admin.execute(f"SELECT pg_advisory_xact_lock({STAMP_HOLD})")
        committing = Step(writer.conn.commit)
        wait_until_blocked(observer, backend_pid(writer.conn), committing)
        yield observer
        admin.execute("COMMIT")
    committing.result()
    writer.conn.close()


STAMP_HOLD = 20211  # the advisory lock the trigger below waits for, in this test database


def hold_stamps_here(db: Database) -> None:
    """A trigger of this test's database on the stamp's update of an episode's instant,
    waiting for the advisory lock STAMP_HOLD (at once unless commit_held_after_its_stamp
    holds it)."""
    with db.admin() as admin:
        admin.execute(
            "CREATE FUNCTION public.hold_the_stamp() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$BEGIN PERFORM pg_advisory_xact_lock({STAMP_HOLD}); RETURN NULL; END$$"
        )
        admin.execute(
            "CREATE TRIGGER hold_the_stamp AFTER UPDATE OF written_at "
            "ON pgfacts_internal.episodes FOR EACH ROW EXECUTE FUNCTION public.hold_the_stamp()"
        )


def test_a_value_recorded_and_retired_in_one_transaction_answers_no_known_instant(
    k: Caller,
) -> None:
    p = person(k, "p")
    with k.conn.transaction():
        k.set_context()
        began = k.conn.execute("SELECT now()").fetchone()[0]  # type: ignore[index]
        for ref, city in (("kyiv", "Kyiv"), ("lviv", "Lviv")):
            k.conn.execute(
                "SELECT pgfacts.ingest(%s, %s)",
                (episode(ref), Jsonb([lives(p, city, "2000-01-01")])),
            )
        before_commit = k.conn.execute("SELECT clock_timestamp()").fetchone()[0]  # type: ignore[index]
    after = k.now()
    # Nobody outside the transaction ever saw Kyiv: no instant answers it.
    assert k.as_of(p, "lives_in", "2000-02-01", began) == []
    assert k.as_of(p, "lives_in", "2000-02-01", before_commit) == []
    assert k.as_of(p, "lives_in", "2000-02-01", after) == ["Lviv"]
    history = k.rows(
        "SELECT object_value, recorded_at, retired_at, retired_reason "
        "FROM pgfacts.claim_history(%s, 'lives_in') ORDER BY claim_id",
        p,
    )
    assert [(h[0], h[3]) for h in history] == [("Kyiv", "superseded"), ("Lviv", None)]
    # Kyiv was never believed: recorded and retired at the commit instant, [c, c].
    assert history[0][1] == history[0][2] == history[1][1]
    assert before_commit < history[1][1] <= after
    # The purge replay rebuilds the same story, the never-visible row included.
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", p) == []


def test_an_answer_at_a_known_instant_never_changes_after_a_later_commit(
    db: Database,
    k: Caller,
) -> None:
    p = person(k, "p")
    k.ingest("kyiv", [lives(p, "Kyiv", "2000-01-01")])
    writer = knowledge_caller(db)
    begin_ingest(writer, "lviv", [lives(p, "Lviv", "2000-01-01")])  # began before x
    x = k.now()
    assert k.as_of(p, "lives_in", "2000-02-01", x) == ["Kyiv"]
    assert k.as_of(p, "lives_in", "2000-02-01") == ["Kyiv"]
    writer.conn.commit()
    assert k.as_of(p, "lives_in", "2000-02-01", x) == ["Kyiv"]  # the same answer
    assert k.as_of(p, "lives_in", "2000-02-01") == ["Lviv"]
    recorded = k.one("SELECT recorded_at FROM pgfacts.as_of(%s, 'lives_in', '2000-02-01')", p)
    assert recorded > x
    writer.conn.close()


def test_a_reader_of_an_instant_waits_for_a_commit_stamped_before_it(
    db: Database,
    k: Caller,
) -> None:
    """The writer has taken its commit instant and is still committing when the reader
    asks about a later instant: the reader waits and answers what was committed."""
    p = person(k, "p")
    k.ingest("kyiv", [lives(p, "Kyiv", "2000-01-01")])
    writer = knowledge_caller(db)
    reader = knowledge_caller(db)
    hold_stamps_here(db)
    begin_ingest(writer, "lviv", [lives(p, "Lviv", "2000-01-01")])
    with commit_held_after_its_stamp(db, writer) as observer:
        x = k.now()  # later than the writer's commit instant
        answer = Step(lambda: reader.as_of(p, "lives_in", "2000-02-01", x))
        wait_until_blocked(observer, backend_pid(reader.conn), answer)
    assert answer.result() == ["Lviv"]
    assert k.as_of(p, "lives_in", "2000-02-01", x) == ["Lviv"]
    reader.conn.close()


def test_every_instant_a_transaction_writes_is_its_commit_instant(
    db: Database,
    k: Caller,
) -> None:
    p = person(k, "p")
    q = person(k, "q")
    kept = k.ingest("kept", [lives(q, "Oslo", "2000-01-01")])["outcomes"][0]["claim_id"]
    with k.conn.transaction():
        k.set_context()
        k.conn.execute(
            "SELECT pgfacts.ingest(%s, %s)",
            (episode("one"), Jsonb([lives(p, "Rome", "2000-01-01")])),
        )
        k.conn.execute("SELECT pgfacts.retract(%s)", (kept,))
        before_commit = k.conn.execute("SELECT clock_timestamp()").fetchone()[0]  # type: ignore[index]
    with db.admin() as admin:
        instants = admin.execute(
            "SELECT (SELECT written_at FROM pgfacts_internal.episodes WHERE source_ref = 'one'), "
            "(SELECT lower(system_time) FROM pgfacts_internal.claims "
            "   WHERE object_value = '\"Rome\"'), "
            "(SELECT e.written_at FROM pgfacts_internal.claim_sources s "
            "   JOIN pgfacts_internal.claims c USING (tenant, claim_id) "
            "   JOIN pgfacts_internal.episodes e USING (tenant, episode_id) "
            "   WHERE c.object_value = '\"Rome\"'), "
            "(SELECT upper(system_time) FROM pgfacts_internal.claims WHERE claim_id = %s), "
            "(SELECT retracted_at FROM pgfacts_internal.retractions WHERE claim_id = %s), "
            "(SELECT count(*) FROM pgfacts_internal.knowledge_pending_writes)",
            (kept, kept),
        ).fetchone()
    assert instants is not None
    assert instants[5] == 0  # the notes are gone with the commit
    assert len(set(instants[:5])) == 1  # one instant for everything the transaction wrote
    assert instants[0] > before_commit
    # A restore in its own transaction: recorded at its own commit, after the retraction.
    k.one("SELECT pgfacts.restore(%s)", kept)
    restored = k.rows(
        "SELECT recorded_at FROM pgfacts.claim_history(%s, 'lives_in') WHERE retired_at IS NULL",
        q,
    )
    assert restored[0][0] > instants[4]
    assert k.as_of(q, "lives_in", "2000-02-01", instants[4]) == []
    assert k.as_of(q, "lives_in", "2000-02-01") == ["Oslo"]


def test_a_rolled_back_write_leaves_no_note(db: Database, k: Caller) -> None:
    p = person(k, "p")
    writer = knowledge_caller(db)
    begin_ingest(writer, "gone", [lives(p, "Gone", "2000-01-01")])
    writer.conn.rollback()
    writer.conn.close()
    with db.admin() as admin:
        pending = admin.execute("SELECT count(*) FROM pgfacts_internal.knowledge_pending_writes")
        assert pending.fetchone() == (0,)
    assert k.as_of(p, "lives_in", "2000-02-01") == []


def test_polling_changes_up_to_now_loses_no_commit_being_stamped(
    db: Database,
    k: Caller,
) -> None:
    p = person(k, "p")
    since = k.now()
    writer = knowledge_caller(db)
    poller = knowledge_caller(db)
    hold_stamps_here(db)
    begin_ingest(writer, "rome", [lives(p, "Rome", "2000-01-01")])
    with commit_held_after_its_stamp(db, writer) as observer:
        poll = Step(
            lambda: poller.rows(
                "SELECT object_value, change FROM pgfacts.changes(%s) ORDER BY changed_at", since
            )
        )
        wait_until_blocked(observer, backend_pid(poller.conn), poll)
    assert poll.result() == [("Rome", "recorded")]
    poller.conn.close()


def test_search_for_a_known_instant_waits_for_a_commit_being_stamped(
    db: Database,
    k: Caller,
) -> None:
    p = person(k, "p")
    writer = knowledge_caller(db)
    searcher = knowledge_caller(db)
    hold_stamps_here(db)
    begin_ingest(writer, "rome", [lives(p, "Rome", "2000-01-01")])
    with commit_held_after_its_stamp(db, writer) as observer:
        x = k.now()  # later than the writer's commit instant
        found = Step(
            lambda: searcher.rows(
                "SELECT value FROM pgfacts.search('Rome', item_kinds => '{claim}', "
                "valid_at => '2000-02-01', known_at => %s)",
                x,
            )
        )
        wait_until_blocked(observer, backend_pid(searcher.conn), found)
    assert found.result() == [("Rome",)]
    searcher.conn.close()
