"""Caller: bi-temporal claims written through ingest, read with as_of and history."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .interleave import Step, backend_pid, join_all, wait_until_blocked
from .support.caller import Caller
from .support.knowledge import knowledge_caller, lives, person


def test_a_correction_supersedes_without_erasing(k: Caller) -> None:
    anna = person(k, "anna")
    first = k.ingest("note-1", [lives(anna, "Kyiv", "2026-01-01")])
    assert first["counters"]["inserted"] == 1
    before_correction = k.now()
    second = k.ingest("note-2", [lives(anna, "Lviv", "2026-03-01")])
    assert second["counters"]["superseded"] == 1
    assert k.as_of(anna, "lives_in", "2026-04-01") == ["Lviv"]
    assert k.as_of(anna, "lives_in", "2026-02-01") == ["Kyiv"]
    # As believed before the correction: Kyiv, even for April.
    assert k.as_of(anna, "lives_in", "2026-04-01", before_correction) == ["Kyiv"]
    assert k.history(anna, "lives_in") == [
        ("Kyiv", "2026-01-01", None, "superseded"),
        ("Kyiv", "2026-01-01", "2026-03-01", None),
        ("Lviv", "2026-03-01", None, None),
    ]


def test_a_value_learned_late_ends_where_the_next_begins(k: Caller) -> None:
    bo = person(k, "bo")
    k.ingest("a", [lives(bo, "Oslo", "2026-05-01")])
    late = k.ingest("b", [lives(bo, "Rome", "2026-01-01")])
    assert late["counters"] == {**late["counters"], "inserted": 1, "superseded": 0}
    assert k.history(bo, "lives_in") == [
        ("Oslo", "2026-05-01", None, None),
        ("Rome", "2026-01-01", "2026-05-01", None),
    ]


def test_a_closed_range_resumes_the_earlier_value(k: Caller) -> None:
    cy = person(k, "cy")
    k.ingest("a", [lives(cy, "Paris", "2026-01-01")])
    k.ingest("b", [lives(cy, "Nice", "2026-06-01", "2026-07-01")])
    assert k.as_of(cy, "lives_in", "2026-06-15") == ["Nice"]
    assert k.as_of(cy, "lives_in", "2026-08-01") == ["Paris"]
    assert k.as_of(cy, "lives_in", "2026-02-01") == ["Paris"]


def test_many_values_coexist_and_replaces_ends_one(k: Caller) -> None:
    di = person(k, "di")
    first = k.ingest(
        "a",
        [
            {"subject": di, "predicate": "works_with", "object": "Ed", "valid_from": "2026-01-01"},
            {"subject": di, "predicate": "works_with", "object": "Flo", "valid_from": "2026-01-01"},
        ],
    )
    assert first["counters"]["inserted"] == 2
    assert sorted(k.as_of(di, "works_with", "2026-02-01")) == ["Ed", "Flo"]
    ed = first["outcomes"][0]["claim_id"]
    k.ingest(
        "b",
        [
            {
                "subject": di,
                "predicate": "works_with",
                "object": "Gus",
                "valid_from": "2026-03-01",
                "replaces": ed,
            }
        ],
    )
    assert sorted(k.as_of(di, "works_with", "2026-04-01")) == ["Flo", "Gus"]
    assert sorted(k.as_of(di, "works_with", "2026-02-01")) == ["Ed", "Flo"]


def test_an_event_is_a_point_in_time(k: Caller) -> None:
    ed = person(k, "ed")
    k.ingest(
        "a",
        [
            {
                "subject": ed,
                "predicate": "visited",
                "object": "Louvre",
                "valid_at": "2026-02-02T10:00:00Z",
            }
        ],
    )
    assert k.as_of(ed, "visited", "2026-02-02T10:00:00Z") == ["Louvre"]
    assert k.as_of(ed, "visited", "2026-02-02T10:00:01Z") == []


def test_the_same_assertion_from_another_source_adds_a_source(k: Caller, db: Database) -> None:
    fi = person(k, "fi")
    k.ingest("a", [lives(fi, "Bern", "2026-01-01")])
    again = k.ingest("b", [lives(fi, "Bern", "2026-01-01", quote="I live in Bern")])
    assert again["counters"]["corroborated"] == 1
    assert len(k.history(fi, "lives_in")) == 1
    with db.admin() as admin:
        sources = admin.execute("SELECT count(*) FROM pgfacts_internal.claim_sources").fetchone()
    assert sources == (2,)


def test_the_same_episode_again_is_a_no_op(k: Caller) -> None:
    gi = person(k, "gi")
    k.ingest("a", [lives(gi, "Rome", "2026-01-01")])
    again = k.ingest("a", [lives(gi, "Milan", "2026-02-01")])
    assert again["duplicate"] is True and again["counters"]["duplicate"] == 1
    assert k.history(gi, "lives_in") == [("Rome", "2026-01-01", None, None)]


def test_lower_trust_cannot_retire_higher_trust(k: Caller) -> None:
    hu = person(k, "hu")
    k.ingest("profile", [lives(hu, "Graz", "2026-01-01")], trust="owner")
    web = k.ingest("page-9", [lives(hu, "Linz", "2026-02-01")], kind="web", trust="third_party")
    assert web["counters"]["outranked"] == 1
    assert k.as_of(hu, "lives_in", "2026-03-01") == ["Graz"]
    assert [row[0] for row in k.history(hu, "lives_in")] == ["Graz", "Linz"]
    assert k.history(hu, "lives_in")[1][3] == "outranked"


def test_a_new_version_of_a_source_retires_what_only_the_old_text_said(k: Caller) -> None:
    io = person(k, "io")
    k.ingest("note-1", [lives(io, "Bonn", "2026-01-01")], content="v1")
    changed = k.ingest("note-1", [], content="v2")
    assert changed["counters"]["source_changed"] == 1
    assert k.as_of(io, "lives_in", "2026-02-01") == []
    back = k.ingest("note-1", [lives(io, "Bonn", "2026-01-01")], content="v1")
    assert back["duplicate"] is True  # returning to an older hash does nothing


def test_claims_below_the_confidence_floor_are_counted_not_stored(k: Caller) -> None:
    jo = person(k, "jo")
    result = k.ingest(
        "a",
        [
            lives(jo, "Turin", "2026-01-01", confidence=0.4),
            {
                "subject": jo,
                "predicate": "works_with",
                "object": "Al",
                "valid_from": "2026-01-01",
                "confidence": 0.9,
            },
        ],
    )
    assert result["counters"]["below_floor"] == 1 and result["counters"]["inserted"] == 1
    assert k.history(jo, "lives_in") == []


@pytest.mark.parametrize(
    ("claim", "fragment"),
    [
        ({"predicate": "no_such", "object": "x", "valid_from": "2026-01-01"}, "unknown predicate"),
        (
            {
                "predicate": "lives_in",
                "object": "x",
                "valid_from": "2026-02-01",
                "valid_to": "2026-01-01",
            },
            "is not after valid_from",
        ),
        ({"predicate": "lives_in", "object": "x", "valid_from": "not a date"}, "ISO 8601"),
        ({"predicate": "lives_in", "valid_from": "2026-01-01"}, "needs an object"),
        ({"predicate": "lives_in", "object": "x"}, "needs valid_from"),
        (
            {
                "predicate": "lives_in",
                "object": "x",
                "valid_from": "2026-01-01",
                "text": "y" * 10001,
            },
            "longer than 10000",
        ),
        (
            {"predicate": "lives_in", "object": "x", "valid_from": "2026-01-01", "confidence": 1.5},
            "between 0 and 1",
        ),
    ],
)
def test_bad_claims_refuse_the_episode_and_write_nothing(
    k: Caller, db: Database, claim: dict[str, Any], fragment: str
) -> None:
    ka = person(k, "ka")
    with pytest.raises(psycopg.Error) as info:
        k.ingest("bad", [lives(ka, "Ok", "2025-01-01"), {"subject": ka, **claim}])
    assert fragment in str(info.value)
    # An unknown predicate has its own SQLSTATE; any other bad claim is a bad parameter.
    assert info.value.sqlstate == ("PF002" if fragment == "unknown predicate" else "22023")
    with db.admin() as admin:
        counts = admin.execute(
            "SELECT (SELECT count(*) FROM pgfacts_internal.claims), "
            "(SELECT count(*) FROM pgfacts_internal.episodes)"
        ).fetchone()
    assert counts == (0, 0)


def test_an_entity_of_another_tenant_is_unknown(k: Caller, db: Database) -> None:
    other = knowledge_caller(db, tenant="k2")
    stranger = person(other, "stranger")
    with pytest.raises(psycopg.Error) as info:
        k.ingest("x", [lives(stranger, "Bern", "2026-01-01")])
    assert "unknown entity" in str(info.value)
    assert info.value.sqlstate == "PF001"  # UnknownEntity


def test_known_at_in_the_future_is_refused(k: Caller) -> None:
    lu = person(k, "lu")
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        k.as_of(lu, "lives_in", "2026-01-01", "2999-01-01")


def test_vocabulary_rules(k: Caller) -> None:
    assert person(k, "mo") == person(k, "mo")  # the same ref never makes a second entity
    with pytest.raises(psycopg.Error) as info:
        k.one("SELECT pgfacts.define_predicate('lives_in', 'many')")
    assert info.value.sqlstate == "PF003"  # a predicate's cardinality never changes
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        k.one("SELECT pgfacts.define_predicate('Bad Name', 'one')")


def test_the_exclusion_constraint_holds_even_for_raw_sql(k: Caller, db: Database) -> None:
    ny = person(k, "ny")
    k.ingest("a", [lives(ny, "Riga", "2026-01-01")])
    with db.admin() as admin, pytest.raises(psycopg.errors.ExclusionViolation):
        admin.execute(
            "INSERT INTO pgfacts_internal.claims (tenant, subject_id, predicate, cardinality, "
            "object_value, confidence, assertion, valid, system_time) VALUES "
            "('k1', %s, 'lives_in', 'one', '\"Tallinn\"', 1, 'x', '[2026-02-01,)', "
            "'[2026-01-01,)')",
            (ny,),
        )


def test_the_tuner_cannot_ingest(db: Database, k: Caller) -> None:
    tuner = knowledge_caller(db, login="tuner", kind="tuner")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        tuner.ingest("a", [])


def test_eight_racing_episodes_never_fail_and_keep_one_live_value(db: Database, k: Caller) -> None:
    ox = person(k, "ox")
    barrier = threading.Barrier(8)
    errors: list[BaseException] = []

    def race(n: int) -> None:
        writer = knowledge_caller(db)
        try:
            barrier.wait()
            for r in range(5):
                writer.ingest(f"w{n}-{r}", [lives(ox, f"city-{n}-{r}", f"2026-0{1 + r % 5}-01")])
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            writer.conn.close()

    threads = [threading.Thread(target=race, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    join_all(threads)
    assert errors == []
    with db.admin() as admin:
        overlaps = admin.execute(
            "SELECT count(*) FROM pgfacts_internal.claims a JOIN pgfacts_internal.claims b "
            "ON a.subject_id = b.subject_id AND a.predicate = b.predicate "
            "AND a.claim_id < b.claim_id AND a.valid && b.valid "
            "WHERE upper_inf(a.system_time) AND upper_inf(b.system_time)"
        ).fetchone()
    assert overlaps == (0,)
    assert len(k.as_of(ox, "lives_in", "2026-06-01")) == 1


@pytest.mark.parametrize("isolation", ["REPEATABLE READ", "SERIALIZABLE"])
def test_knowledge_writes_need_read_committed(k: Caller, isolation: str) -> None:
    """A snapshot taken before a slot's lock was granted cannot see what the writer it
    waited for committed, so knowledge writes refuse other isolation levels (reads do not),
    and nothing is written."""
    py = person(k, "py")
    genf = k.ingest("a", [lives(py, "Genf", "2026-01-01")])["outcomes"][0]["claim_id"]
    episode = {"source_kind": "note", "source_ref": "rr", "content_hash": "h"}
    writes = [
        (
            "SELECT pgfacts.ingest(%s, %s)",
            (Jsonb(episode), Jsonb([lives(py, "Kyiv", "2026-02-01")])),
        ),
        ("SELECT pgfacts.retract(%s)", (genf,)),
        ("SELECT pgfacts.purge_source('note', 'a')", ()),
    ]
    for sql, params in writes:
        with pytest.raises(psycopg.errors.FeatureNotSupported) as refused, k.conn.transaction():
            k.conn.execute(f"SET TRANSACTION ISOLATION LEVEL {isolation}")
            k.set_context()
            reads = "SELECT count(*) FROM pgfacts.claim_history(%s, 'lives_in')"
            assert k.conn.execute(reads, (py,))
            k.conn.execute(sql, params)
        assert "READ COMMITTED" in (refused.value.diag.message_hint or "")
    assert k.as_of(py, "lives_in", "2026-03-01") == ["Genf"]
    assert k.rows("SELECT 1 FROM pgfacts_internal.episodes WHERE source_ref = 'rr'") == []


def test_a_new_version_waits_for_writers_of_the_slots_it_retires_in(
    db: Database, k: Caller
) -> None:
    """The old version's claim is being superseded by another transaction (which narrows it
    to a copy) while a new version of the source arrives with nothing about that slot: the
    new version waits for the slot, then retires the copy too."""
    ka = person(k, "ka")
    k.ingest("src", [lives(ka, "Kyiv", "2026-01-01")], content="v1")
    other = knowledge_caller(db)
    with other.conn.transaction():
        other.set_context()
        other.conn.execute(
            *(
                "SELECT pgfacts.ingest(%s, %s)",
                (
                    Jsonb({"source_kind": "note", "source_ref": "other", "content_hash": "h"}),
                    Jsonb([lives(ka, "Lviv", "2026-03-01")]),
                ),
            )
        )
        newer = Step(lambda: k.ingest("src", [], content="v2"))
        with db.admin() as observer:  # waiting for the slot the other transaction holds
            wait_until_blocked(observer, backend_pid(k.conn), newer)
    newer.result()
    other.conn.close()
    assert k.as_of(ka, "lives_in", "2026-02-01") == []  # the narrowed Kyiv retired as well
    assert k.as_of(ka, "lives_in", "2026-04-01") == ["Lviv"]
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", ka) == []


def test_a_claim_that_became_stale_in_a_busy_slot_asks_for_a_retry(db: Database, k: Caller) -> None:
    """A new version of a source locks the slots of what it will retire before it waits
    for its own. If, while it waits, a restore makes an old claim of the source live again
    in a slot another transaction is writing, it cannot wait for that slot out of order:
    it fails with 40001, and its retry retires the claim."""
    ma = person(k, "ma")
    x = k.ingest("src", [lives(ma, "Kyiv", "2026-01-01")], content="v1")["outcomes"][0]["claim_id"]
    k.one("SELECT pgfacts.retract(%s)", x)
    version_2 = [
        {"subject": ma, "predicate": "works_with", "object": "Ed", "valid_from": "2026-01-01"}
    ]
    k2 = knowledge_caller(db)
    writer = knowledge_caller(db)
    with db.admin() as holder, holder.transaction():
        holder.execute(  # another writer of the slot version 2 writes in
            "SELECT pg_advisory_xact_lock(pgfacts_internal.slot_lock_key('k1', %s, 'works_with'))",
            (str(ma),),
        )
        newer = Step(lambda: k2.ingest("src", version_2, content="v2"))
        wait_until_blocked(holder, backend_pid(k2.conn), newer)
        k.one("SELECT pgfacts.restore(%s)", x)  # Kyiv live again, only v1 says it
        writer.conn.execute("BEGIN")
        writer.set_context()
        writer.conn.execute(  # holds the Kyiv slot, uncommitted
            "SELECT pgfacts.ingest(%s, %s)",
            (
                Jsonb({"source_kind": "note", "source_ref": "w", "content_hash": "h"}),
                Jsonb([lives(ma, "Lviv", "2026-06-01")]),
            ),
        )
    with pytest.raises(psycopg.errors.SerializationFailure):
        newer.result()
    writer.conn.commit()
    writer.conn.close()
    retried = k.ingest("src", version_2, content="v2")
    assert retried["counters"]["source_changed"] == 1  # the narrowed Kyiv
    assert k.as_of(ma, "lives_in", "2026-02-01") == []
    assert k.as_of(ma, "lives_in", "2026-07-01") == ["Lviv"]
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", ma) == []


def test_a_write_is_recorded_after_a_retirement_that_committed_first(
    db: Database, k: Caller
) -> None:
    """A transaction that began before a retraction but writes the slot after it records
    its rows after the retraction, so no instant of system time believes both."""
    la = person(k, "la")
    genf = k.ingest("a", [lives(la, "Genf", "2026-01-01")])["outcomes"][0]["claim_id"]
    early = knowledge_caller(db)
    with early.conn.transaction():
        early.set_context()  # this transaction's clock starts here
        k.one("SELECT pgfacts.retract(%s)", genf)
        early.conn.execute(
            "SELECT pgfacts.ingest(%s, %s)",
            (
                Jsonb({"source_kind": "note", "source_ref": "b", "content_hash": "h"}),
                Jsonb([lives(la, "Bern", "2026-01-01")]),
            ),
        )
    early.conn.close()
    rows = k.rows(
        "SELECT object_value, recorded_at, retired_at FROM pgfacts.claim_history(%s, 'lives_in') "
        "ORDER BY recorded_at",
        la,
    )
    assert [r[0] for r in rows] == ["Genf", "Bern"]
    assert rows[1][1] >= rows[0][2]  # Bern recorded no earlier than Genf was retracted


def test_a_backend_killed_mid_ingest_leaves_nothing(k: Caller, db: Database) -> None:

    subjects = [person(k, f"crash-{i}") for i in range(50)]
    claims = [lives(s, f"city-{r}", f"2026-{1 + r:02}-01") for r in range(12) for s in subjects]
    victim = knowledge_caller(db)
    pid = backend_pid(victim.conn)

    # The interleaving is explicit, not timed: the source lines are the write path's last
    # insert, so with their table share-locked the ingest has written its episode and claim
    # rows and waits there; it is killed while it waits.
    with db.admin() as admin, admin.transaction():
        admin.execute("LOCK TABLE pgfacts_internal.claim_sources IN SHARE MODE")
        ingest = Step(lambda: victim.ingest("big", claims[:600]))
        wait_until_blocked(admin, pid, ingest)
        with db.admin() as killer:
            killer.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(psycopg.OperationalError):
        ingest.result()
    with db.admin() as admin:
        counts = admin.execute(
            "SELECT (SELECT count(*) FROM pgfacts_internal.claims), "
            "(SELECT count(*) FROM pgfacts_internal.claim_sources), "
            "(SELECT count(*) FROM pgfacts_internal.episodes)"
        ).fetchone()
    assert counts == (0, 0, 0)


def test_two_ingests_in_one_transaction_on_one_slot(k: Caller) -> None:
    """The second ingest corroborates a row the first wrote, then supersedes it; the two
    writes of the slot get distinct instants, so the row is retired, not lost."""
    ty = person(k, "ty")
    episode = {"source_kind": "note", "content_hash": "h"}
    with k.conn.transaction():
        k.set_context()
        k.conn.execute(
            "SELECT pgfacts.ingest(%s, %s)",
            (Jsonb({**episode, "source_ref": "t1"}), Jsonb([lives(ty, "Gent", "2026-01-01")])),
        )
        second = k.conn.execute(
            "SELECT pgfacts.ingest(%s, %s)",
            (
                Jsonb({**episode, "source_ref": "t2"}),
                Jsonb([lives(ty, "Gent", "2026-02-01"), lives(ty, "Mons", "2026-03-01")]),
            ),
        ).fetchone()[0]
    assert [o["outcome"] for o in second["outcomes"]] == ["corroborated", "superseded"]
    assert k.as_of(ty, "lives_in", "2026-01-15") == ["Gent"]
    assert k.as_of(ty, "lives_in", "2026-03-15") == ["Mons"]
    sources = k.rows(
        "SELECT jsonb_array_length(pgfacts.explain_claim(claim_id) -> 'sources') "
        "FROM pgfacts.as_of(%s, 'lives_in', '2026-01-15')",
        ty,
    )
    assert sources == [(2,)]  # the narrowed Gent keeps both sources


def test_two_claims_of_one_value_in_an_episode_keep_both_ranges_on_the_source(
    k: Caller,
) -> None:
    """An episode asserting one value twice, over overlapping ranges that corroborate one
    row: the source line holds both ranges, so a later version of the source retires only
    what the new text no longer says."""
    pd = person(k, "pd")
    k.ingest("d1", [lives(pd, "Ath", "2000-01-01")], kind="doc", content="h1")
    k.ingest(
        "d1",
        [lives(pd, "Ath", "2000-01-21"), lives(pd, "Ath", "2000-01-11", "2000-01-31")],
        kind="doc",
        content="h2",
    )
    assert k.as_of(pd, "lives_in", "2000-01-05") == []  # only version 1 said that
    assert k.as_of(pd, "lives_in", "2000-01-15") == ["Ath"]  # version 2's second claim
    assert k.as_of(pd, "lives_in", "2000-03-01") == ["Ath"]
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", pd) == []


def test_every_reader_refuses_a_future_known_at_alike_and_takes_any_past_one(
    k: Caller,
) -> None:
    """One rule for known_at in every layer: past the clock is 22023 with one message; any
    instant the clock has passed is answered, even one after the transaction began."""
    lu = person(k, "lu2")
    k.ingest("n1", [lives(lu, "Oslo", "2026-01-01")])
    future = "2999-01-01T00:00:00+00"
    readers = [
        "SELECT * FROM pgfacts.as_of(%s, 'lives_in', '2026-02-01', %s::timestamptz)",
        "SELECT * FROM pgfacts.read_facts(known_at => %s::timestamptz) WHERE %s IS NOT NULL",
        "SELECT * FROM pgfacts.search('Oslo', known_at => %s::timestamptz) WHERE %s IS NOT NULL",
    ]
    for sql in readers:
        params = (lu, future) if "as_of" in sql else (future, lu)
        with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
            k.rows(sql, *params)
        assert "is in the future" in str(info.value), sql
    with k.conn.transaction():
        k.set_context()
        k.conn.execute("SELECT pg_sleep(0.01)")
        answer = k.conn.execute(
            "SELECT object_value FROM pgfacts.as_of(%s, 'lives_in', '2026-02-01', "
            "clock_timestamp())",
            (lu,),
        ).fetchall()
    assert answer == [("Oslo",)]  # an instant after now() but before the clock
