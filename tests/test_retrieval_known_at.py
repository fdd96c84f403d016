"""search as of a known instant: claims as the database believed them then, the same
answer for that instant after later commits, and a future instant refused. (With known_at,
search waits for knowledge commits being stamped, through the same inlined lock key as
as_of.)"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

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
