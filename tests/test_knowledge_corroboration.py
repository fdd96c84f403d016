"""Corroboration respects valid ranges, and `replaces` never depends on it.

A claim corroborates the live rows of its own assertion (same subject, predicate and
object) that its extent overlaps: each gets the claim's source line and keeps its extent.
The parts of the claim's extent no such row covers are written as rows of their own, by
the slot's rule. The reproductions use dates in January 2000, one ingest per transaction.
"""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller
from .support.knowledge import lives, person


def works(subject: int, who: str, start: str, end: str | None = None, **extra: Any) -> dict:
    claim = {"subject": subject, "predicate": "works_with", "object": who, "valid_from": start}
    if end:
        claim["valid_to"] = end
    return {**claim, **extra}


def test_replaces_ends_the_named_value_even_when_the_new_value_is_already_live(
    k: Caller,
) -> None:
    p = person(k, "p")
    first = k.ingest("e1", [works(p, "Y", "2000-01-01"), works(p, "Z", "2000-01-01")])
    y = first["outcomes"][0]["claim_id"]
    z = first["outcomes"][1]["claim_id"]
    again = k.ingest("e2", [works(p, "Z", "2000-01-11", replaces=y)])
    outcome = again["outcomes"][0]
    assert outcome["outcome"] == "superseded"
    assert outcome["retired"] == y and outcome["claim_id"] == z
    assert sorted(k.as_of(p, "works_with", "2000-01-21")) == ["Z"]
    assert sorted(k.as_of(p, "works_with", "2000-01-06")) == ["Y", "Z"]


def test_a_one_value_corroborated_with_a_longer_range_keeps_the_longer_range(
    k: Caller,
) -> None:
    p = person(k, "p")
    k.ingest("s1", [lives(p, "A", "2000-01-01", "2000-01-11")])
    second = k.ingest("s2", [lives(p, "A", "2000-01-06")])
    outcome = second["outcomes"][0]
    assert outcome["outcome"] == "inserted"  # it adds valid time: from Jan 11 on
    assert len(outcome["corroborates"]) == 1  # and backs the overlap
    assert k.as_of(p, "lives_in", "2000-01-21") == ["A"]
    assert k.as_of(p, "lives_in", "2000-01-03") == ["A"]
    assert sorted(r for r in k.history(p, "lives_in") if r[3] is None) == [
        ("A", "2000-01-01", "2000-01-11", None),
        ("A", "2000-01-11", None, None),
    ]
    # s2 is a source of the overlap (the Jan 1 row) and of the new row.
    sources = k.rows(
        "SELECT a.valid_from::date::text, s ->> 'source_ref' FROM pgfacts.as_of(%s, 'lives_in', "
        "'2000-01-08') AS a, jsonb_array_elements(pgfacts.explain_claim(a.claim_id) -> 'sources') "
        "AS s ORDER BY 2",
        p,
    )
    assert sources == [("2000-01-01", "s1"), ("2000-01-01", "s2")]


def test_a_many_value_corroborated_with_a_longer_range_keeps_the_longer_range(
    k: Caller,
) -> None:
    p = person(k, "p")
    k.ingest("s1", [works(p, "Y", "2000-01-01", "2000-01-11")])
    k.ingest("s2", [works(p, "Y", "2000-01-06", "2000-01-31")])
    assert k.as_of(p, "works_with", "2000-01-21") == ["Y"]
    assert k.as_of(p, "works_with", "2000-01-31") == []


def test_a_claim_starting_before_its_value_adds_the_time_on_both_sides(
    k: Caller,
) -> None:
    p = person(k, "p")
    k.ingest("s1", [works(p, "Y", "2000-01-06", "2000-01-11")])
    k.ingest("s2", [works(p, "Y", "2000-01-01", "2000-01-21")])
    live = sorted(
        r
        for r in k.rows(
            "SELECT valid_from::date::text, valid_to::date::text FROM "
            "pgfacts.claim_history(%s, 'works_with') WHERE retired_at IS NULL",
            p,
        )
    )
    assert live == [
        ("2000-01-01", "2000-01-06"),
        ("2000-01-06", "2000-01-11"),
        ("2000-01-11", "2000-01-21"),
    ]
    q = person(k, "q")
    k.ingest("s3", [lives(q, "A", "2000-01-06", "2000-01-11")])
    k.ingest("s4", [lives(q, "A", "2000-01-01")])
    assert [k.as_of(q, "lives_in", f"2000-01-{d:02}") for d in (2, 8, 21)] == [["A"]] * 3


def test_a_one_value_corroborated_late_still_ends_where_the_next_value_starts(
    k: Caller,
) -> None:
    p = person(k, "p")
    k.ingest("s1", [lives(p, "A", "2000-01-01", "2000-01-11")])
    k.ingest("s2", [lives(p, "B", "2000-01-16")])
    again = k.ingest("s3", [lives(p, "A", "2000-01-06")])
    assert again["outcomes"][0]["outcome"] == "inserted"
    assert [k.as_of(p, "lives_in", f"2000-01-{d:02}") for d in (8, 13, 21)] == [
        ["A"],
        ["A"],
        ["B"],
    ]


def test_a_new_version_narrowing_a_value_retires_what_only_the_old_text_said(
    k: Caller,
) -> None:
    p = person(k, "p")
    k.ingest("doc/r4", [lives(p, "A", "2000-01-01")], kind="doc", content="h1")
    narrowed = k.ingest("doc/r4", [lives(p, "A", "2000-01-11")], kind="doc", content="h2")
    assert narrowed["counters"]["source_changed"] == 1
    assert k.as_of(p, "lives_in", "2000-01-06") == []
    assert k.as_of(p, "lives_in", "2000-01-21") == ["A"]
    assert [r for r in k.history(p, "lives_in") if r[3] is None] == [
        ("A", "2000-01-11", None, None)
    ]
    # What another source says of the same value stays.
    q = person(k, "q")
    k.ingest("doc/r5", [lives(q, "A", "2000-01-01")], kind="doc", content="h1")
    k.ingest("other", [lives(q, "A", "2000-01-03", "2000-01-05")])
    k.ingest("doc/r5", [lives(q, "A", "2000-01-11")], kind="doc", content="h2")
    assert [k.as_of(q, "lives_in", f"2000-01-{d:02}") for d in (2, 4, 8, 21)] == [
        [],
        ["A"],
        [],
        ["A"],
    ]


def test_trust_is_held_per_row_not_per_valid_time(k: Caller) -> None:
    # A deliberate simplification (docs/sql-api.md, ingest): a row is as trusted as its most
    # trusted source, over its whole valid range, even where that source said nothing.
    p = person(k, "p")
    k.ingest("agent-1", [lives(p, "A", "2000-01-01")])
    k.ingest("owner-1", [lives(p, "A", "2000-02-20", "2000-03-01")], trust="owner")
    late = k.ingest("agent-2", [lives(p, "B", "2000-01-11")])
    assert late["outcomes"][0]["outcome"] == "outranked"
    assert k.as_of(p, "lives_in", "2000-01-21") == ["A"]


def test_purging_either_side_of_a_longer_corroboration_leaves_the_other_side(
    k: Caller,
    db: Database,
) -> None:
    p = person(k, "p")
    k.ingest("s1", [lives(p, "A", "2000-01-01", "2000-01-11")])
    k.ingest("s2", [lives(p, "A", "2000-01-06")])
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", p) == []
    k.one("SELECT pgfacts.purge_source('note', 's1')")
    assert [k.as_of(p, "lives_in", f"2000-01-{d:02}") for d in (3, 8, 21)] == [[], ["A"], ["A"]]
    q = person(k, "q")
    k.ingest("s3", [lives(q, "A", "2000-01-01", "2000-01-11")])
    k.ingest("s4", [lives(q, "A", "2000-01-06")])
    k.one("SELECT pgfacts.purge_source('note', 's4')")
    assert [k.as_of(q, "lives_in", f"2000-01-{d:02}") for d in (3, 8, 21)] == [["A"], ["A"], []]
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", q) == []


def test_a_transaction_reads_its_own_knowledge_writes(k: Caller) -> None:
    p = person(k, "p")
    with k.conn.transaction():
        k.set_context()
        for ref, city in (("kyiv", "Kyiv"), ("lviv", "Lviv")):
            episode = {"source_kind": "note", "source_ref": ref, "content_hash": ref}
            k.conn.execute(
                "SELECT pgfacts.ingest(%s, %s)",
                (Jsonb(episode), Jsonb([lives(p, city, "2000-01-01")])),
            )
        current = k.conn.execute(
            "SELECT object_value FROM pgfacts.as_of(%s, 'lives_in', '2000-02-01')", (p,)
        ).fetchall()
    assert current == [("Lviv",)]
    assert k.as_of(p, "lives_in", "2000-02-01") == ["Lviv"]
