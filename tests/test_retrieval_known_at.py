"""search as of a known instant: claims as the database believed them then, the same
answer for that instant after later commits, and a future instant refused. (With known_at,
search waits for knowledge commits being stamped, through the same inlined lock key as
as_of.)"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller, raises

QUESTION = "where does Anna live"


def lives_in(subject: int, city: str) -> dict[str, Any]:
    return {
        "subject": subject,
        "predicate": "lives_in",
        "object": city,
        "valid_from": "2000-01-01",
        "text": f"Anna lives in {city}",
    }


@pytest.fixture
def m(db: Database) -> Caller:
    caller = Caller(db)
    caller.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    return caller


def cities(hits: list[dict[str, Any]]) -> set[str]:
    return {h["content"].rsplit(" ", 1)[-1] for h in hits if h["item_kind"] == "claim"}


def test_search_known_at_answers_what_was_believed_then(m: Caller) -> None:
    anna = m.entity("Anna")
    m.ingest("doc/1", [lives_in(anna, "Kyiv")])
    believed_kyiv: datetime = m.one("SELECT clock_timestamp()")
    before = m.search(QUESTION, known_at=believed_kyiv, item_kinds=["claim"])
    m.ingest("doc/2", [lives_in(anna, "Lviv")])

    assert cities(m.search(QUESTION, item_kinds=["claim"])) == {"Lviv"}
    after = m.search(QUESTION, known_at=believed_kyiv, item_kinds=["claim"])
    assert cities(after) == {"Kyiv"}
    # The answer for that instant did not change when Lviv was committed; `current` says
    # what holds now (believed now and valid now), so Kyiv's claim is no longer current.
    assert [h["ref"] for h in after] == [h["ref"] for h in before]
    assert [h["current"] for h in before] == [True]
    assert [h["current"] for h in after] == [False]


def test_search_known_at_before_anything_was_known_finds_no_claim(m: Caller) -> None:
    anna = m.entity("Anna")
    nothing_yet: datetime = m.one("SELECT clock_timestamp()")
    m.ingest("doc/1", [lives_in(anna, "Kyiv")])
    assert cities(m.search(QUESTION, item_kinds=["claim"])) == {"Kyiv"}
    assert cities(m.search(QUESTION, known_at=nothing_yet, item_kinds=["claim"])) == set()


def test_search_refuses_a_future_known_at_and_writes_nothing(m: Caller) -> None:
    anna = m.entity("Anna")
    m.ingest("doc/1", [lives_in(anna, "Kyiv")])
    future: datetime = m.one("SELECT clock_timestamp()") + timedelta(hours=1)
    queued = m.one("SELECT count(*) FROM pgfacts_internal.embedding_queue")
    raises("22023", lambda: m.search(QUESTION, known_at=future))
    assert m.one("SELECT count(*) FROM pgfacts_internal.embedding_queue") == queued


def _embed(op: Caller, vector: list[int]) -> None:
    """Embed every queued row with one vector, as a worker would."""
    work = op.rows("SELECT item_kind, item_id, content_hash FROM pgfacts.claim_embedding_work(100)")
    rows = [
        {"item_kind": k, "item_id": i, "content_hash": h, "embedding": vector} for k, i, h in work
    ]
    assert op.one("SELECT pgfacts.set_embeddings('toy-4', %s)", Jsonb(rows))["written"] == len(work)


def _nearest(op: Caller, known_at: datetime | None = None) -> list[tuple[Any, ...]]:
    return op.rows(
        "SELECT content, similarity FROM pgfacts.nearest('toy-4', '[1,0,0,0]', "
        "item_kinds => '{fact}', known_at => %s)",
        known_at,
    )


def test_nearest_known_at_ranks_a_replaced_version_by_the_vector_of_its_content(
    m: Caller,
) -> None:
    m.one("SELECT pgfacts.register_embedding_model('toy-4', 4)")
    m.fact("plan", "zeta one")
    _embed(m, [1, 0, 0, 0])
    first: datetime = m.one("SELECT clock_timestamp()")
    m.fact("plan", "zeta two")
    second_unembedded: datetime = m.one("SELECT clock_timestamp()")
    _embed(m, [0, 1, 0, 0])  # the overwrite's own vector replaces the first one's
    second: datetime = m.one("SELECT clock_timestamp()")
    m.one("SELECT pgfacts.delete_fact('plan', shared => true)")

    assert _nearest(m) == []  # deleted
    assert _nearest(m, first) == [("plan: zeta one", 1.0)]  # its vector, kept at the re-embed
    assert _nearest(m, second) == [("plan: zeta two", 0.0)]  # kept at the delete
    # Written but not embedded by then: the version of then is ranked once it has a vector.
    assert _nearest(m, second_unembedded) == [("plan: zeta two", 0.0)]
    hits = m.search("zeta", query_vector="[1,0,0,0]", model="toy-4", known_at=first)
    assert [(h["content"], h["vector_rank"], h["current"]) for h in hits] == [
        ("plan: zeta one", 1, False)
    ]
    # A model's vectors go with it, the replaced ones too (a DBA's removal).
    kept = "SELECT count(*) FROM pgfacts_internal.replaced_fact_embeddings"
    with m.db.admin() as admin:
        assert admin.execute(kept).fetchone() == (2,)
        admin.execute("DELETE FROM pgfacts_internal.embedding_models")
        assert admin.execute(kept).fetchone() == (0,)
