"""The purge replay follows the order the slot was written in, not the clock: several writes
in one transaction, an episode's own claim order, a `replaces`, a transaction that started
early and wrote late. Each test makes a slot, purges an unrelated source that touched it (so
the slot is rebuilt), and checks the slot answers as before and verify_slot is empty."""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller
from .support.knowledge import knowledge_caller, lives, person


def rebuild_by_purge(kn: Caller, who: int, predicate: str = "lives_in") -> None:
    """Add a source whose only claim touches nothing else in the slot, then purge it."""
    if predicate == "lives_in":
        claim = lives(who, "Nowhere", "2020-01-01", "2020-02-01")
    else:
        claim = {
            "subject": who,
            "predicate": predicate,
            "object": "Nobody",
            "valid_from": "2020-01-01",
        }
    kn.ingest("noise", [claim], kind="conversation")
    assert kn.one("SELECT pgfacts.purge_source('conversation', 'noise')")["slots_rebuilt"] == 1
    assert kn.rows("SELECT * FROM pgfacts.verify_slot(%s, %s)", who, predicate) == []


def in_one_transaction(kn: Caller, *calls: tuple[str, tuple[Any, ...]]) -> list[Any]:
    results = []
    with kn.conn.transaction():
        kn.set_context()
        for sql, params in calls:
            results.append(kn.conn.execute(sql, params).fetchone()[0])  # type: ignore[index]
    return results


def ingest_call(ref: str, claims: list[dict[str, Any]]) -> tuple[str, tuple[Any, ...]]:
    episode = {"source_kind": "note", "source_ref": ref, "content_hash": "h"}
    return "SELECT pgfacts.ingest(%s, %s)", (Jsonb(episode), Jsonb(claims))


def test_retract_then_restore_in_one_transaction_replays_in_that_order(k: Caller) -> None:
    ge = person(k, "ge")
    genf = k.ingest("a", [lives(ge, "Genf", "2026-05-01")])["outcomes"][0]["claim_id"]
    in_one_transaction(
        k, ("SELECT pgfacts.retract(%s)", (genf,)), ("SELECT pgfacts.restore(%s)", (genf,))
    )
    assert k.as_of(ge, "lives_in", "2026-06-01") == ["Genf"]
    rebuild_by_purge(k, ge)
    assert k.as_of(ge, "lives_in", "2026-06-01") == ["Genf"]


def test_a_value_retracted_in_the_transaction_that_wrote_it_can_be_restored(
    k: Caller,
) -> None:
    """A row recorded and retracted by one transaction was never believed: it is kept as
    [commit, commit] (no known instant answers it), so the retraction has something to
    restore, before and after a rebuild."""
    ha = person(k, "ha")
    k.ingest("a", [lives(ha, "Bern", "2026-01-01")])
    with k.conn.transaction():
        k.set_context()
        written = k.conn.execute(*ingest_call("b", [lives(ha, "Genf", "2026-05-01")])).fetchone()
        genf = written[0]["outcomes"][0]["claim_id"]  # type: ignore[index]
        retracted = k.conn.execute("SELECT pgfacts.retract(%s)", (genf,)).fetchone()
    assert retracted is not None and retracted[0]["rows"] == 1
    assert k.as_of(ha, "lives_in", "2026-06-01") == []  # a gap: Bern stays cut at May
    history = k.rows(
        "SELECT retired_reason, retired_at = recorded_at "
        "FROM pgfacts.claim_history(%s, 'lives_in') WHERE claim_id = %s",
        ha,
        genf,
    )
    assert history == [("retracted", True)]
    rebuild_by_purge(k, ha)
    assert k.as_of(ha, "lives_in", "2026-06-01") == []
    k.one("SELECT pgfacts.restore(%s)", genf)  # the id from before the rebuild
    assert k.as_of(ha, "lives_in", "2026-06-01") == ["Genf"]
    assert k.as_of(ha, "lives_in", "2026-02-01") == ["Bern"]


def test_an_episodes_own_claim_order_is_replayed(k: Caller) -> None:
    """Bern from March, then Aarau for April only: Bern resumes in May. (The other order
    would end Bern where Aarau begins, with no Bern after May.)"""
    ia = person(k, "ia")
    k.ingest("a", [lives(ia, "Bern", "2026-03-01"), lives(ia, "Aarau", "2026-04-01", "2026-05-01")])
    assert k.as_of(ia, "lives_in", "2026-06-01") == ["Bern"]
    rebuild_by_purge(k, ia)
    assert k.as_of(ia, "lives_in", "2026-06-01") == ["Bern"]
    assert k.as_of(ia, "lives_in", "2026-04-15") == ["Aarau"]


def test_a_replaced_value_stays_replaced(k: Caller) -> None:
    jo = person(k, "jo")
    ed = k.ingest(
        "a",
        [{"subject": jo, "predicate": "works_with", "object": "Ed", "valid_from": "2026-01-01"}],
    )["outcomes"][0]["claim_id"]
    gus = {
        "subject": jo,
        "predicate": "works_with",
        "object": "Gus",
        "valid_from": "2026-03-01",
        "replaces": ed,
    }
    k.ingest("b", [gus])
    assert k.as_of(jo, "works_with", "2026-04-01") == ["Gus"]
    rebuild_by_purge(k, jo, "works_with")
    assert k.as_of(jo, "works_with", "2026-04-01") == ["Gus"]
    assert k.as_of(jo, "works_with", "2026-02-01") == ["Ed"]


def test_a_replaces_whose_value_was_purged_just_adds(k: Caller) -> None:
    ko = person(k, "ko")
    ed = k.ingest(
        "chat",
        [{"subject": ko, "predicate": "works_with", "object": "Ed", "valid_from": "2026-01-01"}],
        kind="conversation",
    )["outcomes"][0]["claim_id"]
    gus = {"subject": ko, "predicate": "works_with", "object": "Gus", "valid_from": "2026-03-01"}
    k.ingest("b", [{**gus, "replaces": ed}])
    k.one("SELECT pgfacts.purge_source('conversation', 'chat')")
    assert k.as_of(ko, "works_with", "2026-04-01") == ["Gus"]
    assert k.as_of(ko, "works_with", "2026-02-01") == []
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'works_with')", ko) == []


def test_a_transaction_that_began_first_but_wrote_last_is_replayed_last(
    k: Caller,
    db: Database,
) -> None:
    lo = person(k, "lo")
    early = knowledge_caller(db)
    with early.conn.transaction():
        early.set_context()  # this transaction's clock starts here
        k.ingest("b", [lives(lo, "Lviv", "2026-01-01")])  # another transaction commits first
        early.conn.execute(*ingest_call("a", [lives(lo, "Kyiv", "2026-01-01")]))
    early.conn.close()
    assert k.as_of(lo, "lives_in", "2026-02-01") == ["Kyiv"]
    rebuild_by_purge(k, lo)
    assert k.as_of(lo, "lives_in", "2026-02-01") == ["Kyiv"]
