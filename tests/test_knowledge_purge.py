"""purge_source rewrites the slots a source touched as if it had never been seen;
verify_slot finds nothing to report on a consistent slot."""

from __future__ import annotations

import os
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import Database
from .support.caller import Caller
from .support.example_tenant import fresh_tenant
from .support.knowledge import knowledge_caller, lives, person

DAYS = [f"2026-{m:02}-01" for m in range(1, 13)]


def test_purge_removes_a_source_and_its_claims(k: Caller, db: Database) -> None:
    va = person(k, "va")
    k.ingest("chat-1", [lives(va, "Kyiv", "2026-01-01")], kind="conversation")
    k.ingest("note-1", [lives(va, "Lviv", "2026-03-01")])
    k.ingest(
        "chat-1",
        [lives(va, "Kyiv", "2026-01-01"), lives(va, "Odesa", "2026-06-01")],
        kind="conversation",
        content="v2",
    )
    result = k.one("SELECT pgfacts.purge_source('conversation', 'chat-1')")
    assert result["episodes"] == 2 and result["slots_rebuilt"] == 1
    assert k.as_of(va, "lives_in", "2026-02-01") == []
    assert k.as_of(va, "lives_in", "2026-07-01") == ["Lviv"]
    with db.admin() as admin:
        left = admin.execute(
            "SELECT count(*) FROM pgfacts_internal.episodes WHERE source_ref = 'chat-1'"
        ).fetchone()
        audit = admin.execute(
            "SELECT source_kind, source_ref_sha256 <> 'chat-1' FROM pgfacts_internal.purge_audit"
        ).fetchall()
    assert left == (0,)
    assert audit == [("conversation", True)]
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", va) == []
    with pytest.raises(psycopg.errors.NoDataFound):
        k.one("SELECT pgfacts.purge_source('conversation', 'chat-1')")


def test_verify_slot_reports_a_tampered_slot(k: Caller, db: Database) -> None:
    wu = person(k, "wu")
    k.ingest("a", [lives(wu, "Pisa", "2026-01-01")])
    k.ingest("b", [lives(wu, "Rome", "2026-05-01")])
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", wu) == []
    with db.admin() as admin:  # a hand edit: Pisa's narrowed copy now ends a month early
        admin.execute(
            "UPDATE pgfacts_internal.claims SET valid = '[2026-01-01,2026-04-01)' "
            "WHERE object_value = '\"Pisa\"' AND upper_inf(system_time)"
        )
    differences = k.rows("SELECT difference FROM pgfacts.verify_slot(%s, 'lives_in')", wu)
    assert sorted(d for (d,) in differences) == ["replayed, not stored", "stored, not replayed"]
    # The replay was rolled back: the stored rows are untouched.
    assert k.as_of(wu, "lives_in", "2026-04-15") == []


def test_purge_replays_retractions_at_their_instants(k: Caller) -> None:
    ra = person(k, "ra")
    k.ingest("b-src", [lives(ra, "Bern", "2026-01-01")])
    genf = k.ingest("a-src", [lives(ra, "Genf", "2026-05-01")])["outcomes"][0]["claim_id"]
    k.one("SELECT pgfacts.retract(%s)", genf)  # Bern stays cut at May: a gap, not Bern again
    k.ingest("c-src", [lives(ra, "Chur", "2026-10-01")], kind="conversation")
    k.one("SELECT pgfacts.purge_source('conversation', 'c-src')")
    assert k.as_of(ra, "lives_in", "2026-03-01") == ["Bern"]
    assert k.as_of(ra, "lives_in", "2026-06-01") == []
    assert k.as_of(ra, "lives_in", "2026-11-01") == []
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", ra) == []
    # The retraction is still remembered, and still restorable after the rebuild.
    assert k.ingest("d-src", [lives(ra, "Genf", "2026-05-01")])["counters"]["rejected"] == 1
    retracted = k.one(
        "SELECT max(claim_id) FROM pgfacts.claim_history(%s, 'lives_in') "
        "WHERE retired_reason = 'retracted'",
        ra,
    )
    assert k.one("SELECT pgfacts.restore(%s)", retracted)["restored_as"] != []
    assert k.as_of(ra, "lives_in", "2026-06-01") == ["Genf"]


def test_retract_retires_every_live_row_of_the_assertion(k: Caller) -> None:
    sa = person(k, "sa")
    k.ingest("a", [lives(sa, "Rome", "2026-01-01")])
    k.ingest("b", [lives(sa, "Bari", "2026-03-01", "2026-04-01")])  # Rome resumes in April
    rome = k.one("SELECT claim_id FROM pgfacts.as_of(%s, 'lives_in', '2026-02-01')", sa)
    assert k.one("SELECT pgfacts.retract(%s)", rome)["rows"] == 2
    assert k.as_of(sa, "lives_in", "2026-02-01") == []
    assert k.as_of(sa, "lives_in", "2026-03-15") == ["Bari"]
    assert k.as_of(sa, "lives_in", "2026-06-01") == []
    restored = k.one(
        "SELECT pgfacts.restore(claim_id) FROM pgfacts.claim_history(%s, 'lives_in') "
        "WHERE retired_reason = 'retracted' ORDER BY claim_id LIMIT 1",
        sa,
    )
    assert len(restored["restored_as"]) == 2
    assert k.as_of(sa, "lives_in", "2026-02-01") == ["Rome"]
    assert k.as_of(sa, "lives_in", "2026-06-01") == ["Rome"]


def test_purge_keeps_none_of_the_purged_sources_words(k: Caller) -> None:
    ua = person(k, "ua")
    secret = lives(ua, "Linz", "2026-01-01", text="SECRET: told in confidence")
    k.ingest("k1", [secret], kind="conversation")
    k.ingest("k2", [lives(ua, "Linz", "2026-01-01", text="public profile", confidence=0.8)])
    k.one("SELECT pgfacts.purge_source('conversation', 'k1')")
    rows = k.rows(
        "SELECT claim_text, confidence FROM pgfacts.as_of(%s, 'lives_in', '2026-02-01')", ua
    )
    assert rows == [("public profile", 0.8)]
    assert (
        k.one(
            "SELECT count(*) FROM pgfacts.claim_history(%s, 'lives_in') "
            "WHERE claim_text LIKE 'SECRET%%'",
            ua,
        )
        == 0
    )


def test_purge_keeps_nulls_inside_an_object(k: Caller) -> None:
    va = person(k, "va2")
    where = {"city": "Kyiv", "district": None}
    claim = {"subject": va, "predicate": "lives_in", "object": where, "valid_from": "2026-01-01"}
    k.ingest("f1", [claim])
    k.ingest("f2", [claim])  # corroborates
    live = k.one("SELECT claim_id FROM pgfacts.as_of(%s, 'lives_in', '2026-02-01')", va)
    k.one("SELECT pgfacts.retract(%s)", live)
    k.one("SELECT pgfacts.purge_source('note', 'f1')")
    assert k.as_of(va, "lives_in", "2026-02-01") == []  # still retracted: the same assertion


# An episode: its source and one or two claims (start month, length in months or open,
# value), so that what one claim of an episode does to the other is replayed too.
episode = st.tuples(
    st.sampled_from(["s1", "s2", "s3"]),
    st.lists(
        st.tuples(
            st.integers(0, 11),
            st.one_of(st.none(), st.integers(1, 4)),
            st.sampled_from(["x", "y", "z"]),
        ),
        min_size=1,
        max_size=2,
    ),
)
# A retraction of a value and a restore of it (applied to both databases only where it
# succeeds in both, so that "the same stream without s1" is defined).
correction = st.tuples(st.sampled_from(["retract", "restore"]), st.sampled_from(["x", "y", "z"]))


def live_claim(kn: Caller, who: int, value: str, reason: str | None) -> int | None:
    return kn.one(  # type: ignore[no-any-return]
        "SELECT max(claim_id) FROM pgfacts.claim_history(%s, 'lives_in') "
        "WHERE object_value = to_jsonb(%s::text) AND retired_reason IS NOT DISTINCT FROM %s",
        who,
        value,
        reason,
    )


@settings(
    max_examples=int(os.environ.get("PGFACTS_EXAMPLES", "20")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(stream=st.lists(st.one_of(episode, correction), min_size=1, max_size=8))
def test_purge_equals_a_rebuild_without_that_source(
    db: Database, second_db: Database, stream: list[tuple[Any, ...]]
) -> None:
    # Two databases for every example, a tenant of its own in both for each (tests/support/
    # example_tenant.py says why that is as clean as two databases per example). Each
    # example makes one entity in each database, so their entity ids stay equal.
    tenant = fresh_tenant()

    def setup(database: Database) -> tuple[Caller, int]:
        kn = knowledge_caller(database, tenant=tenant)
        kn.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
        return kn, kn.one("SELECT pgfacts.ensure_entity('person', 'p', external_ref => 'p')")

    def replay(full: Caller, clean: Caller, who: int) -> None:
        for step, item in enumerate(stream):
            if item[0] in ("retract", "restore"):
                reason = None if item[0] == "retract" else "retracted"
                targets = [live_claim(kn, who, item[1], reason) for kn in (full, clean)]
                if None in targets:
                    continue
                # Kept only where it succeeds in both: a refused correction leaves no trace
                # for a purge to replay.
                succeeded = []
                for kn, target in zip((full, clean), targets, strict=True):
                    kn.set_context()
                    try:
                        kn.conn.execute(f"SELECT pgfacts.{item[0]}(%s)", (target,))
                        succeeded.append(True)
                    except psycopg.Error as refused:
                        # no such claim, not live, not retracted, the interval is taken
                        if refused.sqlstate not in ("P0002", "PF004", "PF005", "PF006"):
                            raise
                        succeeded.append(False)
                for kn in (full, clean):
                    kn.conn.commit() if all(succeeded) else kn.conn.rollback()
                continue
            source, parts = item
            claims = []
            for start, length, value in parts:
                end = None if length is None else DAYS[min(start + length, 11)]
                claims.append(lives(who, value, DAYS[start], None if end == DAYS[start] else end))
            for kn in (full, clean) if source != "s1" else (full,):
                kn.ingest(source, claims, content=f"v{step}")

    purged, who = setup(db)
    clean, clean_who = setup(second_db)
    try:
        assert who == clean_who
        replay(purged, clean, who)
        if any(item[0] == "s1" for item in stream):
            purged.one("SELECT pgfacts.purge_source('note', 's1')")
        for t in [f"2026-{m:02}-15" for m in range(1, 13)]:
            assert purged.as_of(who, "lives_in", t) == clean.as_of(who, "lives_in", t), t
        assert purged.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", who) == []
    finally:
        purged.conn.close()
        clean.conn.close()


def test_restore_after_a_purge_removed_every_retracted_row_lifts_the_block(
    k: Caller,
) -> None:
    """A purge removed the only source of a retracted value: restore has no row to write
    again, lifts the retraction all the same, and the value can be learned again."""
    pa = person(k, "pa")
    claim = k.ingest("r1", [lives(pa, "Athens", "2000-01-01")], kind="s1")["outcomes"][0]
    k.one("SELECT pgfacts.retract(%s)", claim["claim_id"])
    k.one("SELECT pgfacts.purge_source('s1', 'r1')")
    restored = k.one("SELECT pgfacts.restore(%s)", claim["claim_id"])
    assert restored == {"claim_id": claim["claim_id"], "restored_as": []}
    with pytest.raises(psycopg.Error) as info:
        k.one("SELECT pgfacts.restore(%s)", claim["claim_id"])
    assert info.value.sqlstate == "PF005"  # lifted: nothing is retracted any more
    again = k.ingest("r2", [lives(pa, "Athens", "2000-01-01")])
    assert again["counters"]["inserted"] == 1
    assert k.as_of(pa, "lives_in", "2000-06-01") == ["Athens"]
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", pa) == []
