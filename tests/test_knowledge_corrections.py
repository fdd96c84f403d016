"""Caller corrections and reads: retract/restore, override, explain, search, changes."""

from __future__ import annotations

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller
from .support.knowledge import knowledge_caller, lives, person


def test_retraction_is_remembered_and_restore_lifts_it(k: Caller) -> None:
    pa = person(k, "pa")
    claim = k.ingest("a", [lives(pa, "Oslo", "2026-01-01")])["outcomes"][0]["claim_id"]
    assert k.one("SELECT pgfacts.retract(%s)", claim) == {
        "claim_id": claim,
        "retracted": True,
        "rows": 1,
    }
    assert k.as_of(pa, "lives_in", "2026-02-01") == []  # a gap, not the clipped value
    again = k.ingest("b", [lives(pa, "Oslo", "2026-01-01")])
    assert again["counters"]["rejected"] == 1
    assert again["outcomes"][0]["reason"] == "retracted"
    restored = k.one("SELECT pgfacts.restore(%s)", claim)
    assert restored["claim_id"] == claim
    assert k.as_of(pa, "lives_in", "2026-02-01") == ["Oslo"]
    with pytest.raises(psycopg.Error) as info:
        k.one("SELECT pgfacts.restore(%s)", claim)
    assert info.value.sqlstate == "PF005"  # not retracted


def test_restore_refuses_when_a_newer_claim_took_the_interval(k: Caller) -> None:
    qi = person(k, "qi")
    claim = k.ingest("a", [lives(qi, "Pisa", "2026-01-01")])["outcomes"][0]["claim_id"]
    k.one("SELECT pgfacts.retract(%s)", claim)
    k.ingest("b", [lives(qi, "Lucca", "2026-01-01")])
    with pytest.raises(psycopg.Error) as info:
        k.one("SELECT pgfacts.restore(%s)", claim)
    assert info.value.sqlstate == "PF006"  # a newer claim holds the interval
    assert k.as_of(qi, "lives_in", "2026-02-01") == ["Lucca"]


def test_override_is_idempotent_per_key(k: Caller, db: Database) -> None:
    ra = person(k, "ra")
    k.ingest("profile", [lives(ra, "Gent", "2026-01-01")], trust="owner")
    claim = lives(ra, "Brugge", "2026-03-01", confidence=0.1)  # the floor is off for overrides
    first = k.one("SELECT pgfacts.override('fix-1', %s)", Jsonb(claim))
    assert first["replayed"] is False and first["counters"]["superseded"] == 1
    retry = k.one("SELECT pgfacts.override('fix-1', %s)", Jsonb(claim))
    assert retry["replayed"] is True and retry["outcomes"] == first["outcomes"]
    assert k.as_of(ra, "lives_in", "2026-04-01") == ["Brugge"]
    assert len(k.history(ra, "lives_in")) == 3  # no second write on retry
    with pytest.raises(psycopg.Error) as reused:
        k.one("SELECT pgfacts.override('fix-1', %s)", Jsonb(lives(ra, "Ypres", "2026-05-01")))
    assert reused.value.sqlstate == "PF007"  # a code of its own, not a constraint's 23505
    agent = knowledge_caller(db, login="agent", kind="agent")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        agent.one("SELECT pgfacts.override('fix-2', %s)", Jsonb(claim))


def test_explain_in_one_call(k: Caller, db: Database) -> None:
    sa = person(k, "sa")
    k.ingest("note-1", [lives(sa, "Kyiv", "2026-01-01", quote="moved to Kyiv")])
    second = k.ingest("note-2", [lives(sa, "Lviv", "2026-03-01")], trust="owner")
    lviv = second["outcomes"][0]["claim_id"]
    kyiv = second["outcomes"][0]["retired"]
    old = k.one("SELECT pgfacts.explain_claim(%s)", kyiv)
    assert old["version"]["retired_reason"] == "superseded"
    assert old["sources"][0]["source_ref"] == "note-1"
    assert old["sources"][0]["quote"] == "moved to Kyiv"
    assert old["trust"] == "agent"
    assert lviv in old["successors"] and len(old["successors"]) == 2  # successor + narrowed copy
    new = k.one("SELECT pgfacts.explain_claim(%s)", lviv)
    assert new["predecessors"] == [kyiv] and new["trust"] == "owner"
    other_tenant = knowledge_caller(db, tenant="k2")
    assert other_tenant.one("SELECT pgfacts.explain_claim(%s)", lviv) is None
    # The names of the previous release answer the same, for one more release.
    assert k.one("SELECT pgfacts.explain(%s)", lviv) == new
    assert k.rows("SELECT * FROM pgfacts.history(%s, 'lives_in')", sa) == k.rows(
        "SELECT * FROM pgfacts.claim_history(%s, 'lives_in')", sa
    )


def test_search_with_history_and_confidence_floor(k: Caller) -> None:
    tu = person(k, "tu")
    k.ingest("a", [lives(tu, "net-30 terms", "2026-01-01", text="payment terms net-30")])
    k.ingest("b", [lives(tu, "net-45 terms", "2026-04-01", text="payment terms net-45")])
    current = k.rows("SELECT object_value, current FROM pgfacts.search_claims('payment terms')")
    assert ("net-45 terms", True) in current
    assert all(is_current for _, is_current in current)
    history = k.rows(
        "SELECT object_value, current, stopped_believed_at IS NOT NULL "
        "FROM pgfacts.search_claims('\"net-30\"', include_history => true)"
    )
    assert ("net-30 terms", False, True) in history
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        k.rows("SELECT * FROM pgfacts.search_claims('x', \"limit\" => 101)")


def test_changes_lists_recorded_and_retired(k: Caller) -> None:
    start = k.now()
    ul = person(k, "ul")
    k.ingest("a", [lives(ul, "Ulm", "2026-01-01")])
    k.ingest("b", [lives(ul, "Bonn", "2026-02-01")])
    kinds = [r[0] for r in k.rows("SELECT change FROM pgfacts.changes(%s)", start)]
    assert kinds.count("recorded") == 3 and kinds.count("retired") == 1
