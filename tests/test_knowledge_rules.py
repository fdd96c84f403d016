"""The knowledge write path's named rules, called one by one.

Each rule of ``write_claims`` is a function of its own: the input check returns a problem
code per claim, the refusal picks the SQLSTATE from that code, and the decisions
(corroboration, decide_one, decide_many, decide_event, decide_claim) are pure functions of
a small in-memory picture of a slot. These tests build such pictures by hand; the internal
schema is not granted to the test logins, so they run as the inspecting superuser.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts.errors import (
    CardinalityMismatch,
    ClaimNotLive,
    ClaimNotRetracted,
    IntervalTaken,
    InvalidParameter,
    NotFound,
    UnknownEntity,
    UnknownPredicate,
    translate,
)

from .conftest import Database
from .support.caller import Caller
from .support.knowledge import lives, person

INTERNAL = "pgfacts_internal"


def row(
    claim_id: int,
    value: str,
    start: str,
    end: str | None = None,
    *,
    state: str = "live",
    trust: int = 2,
    cardinality: str = "one",
    assertion: str | None = None,
) -> str:
    """A slot_row literal: one live row of person 1's slot, as read_slots would give it."""
    claim = {
        "claim_id": claim_id,
        "tenant": "k1",
        "subject_id": 1,
        "predicate": "lives_in",
        "cardinality": cardinality,
        "object_value": value,
        "confidence": 1,
        "assertion": assertion or value,
        "valid": f"[{start},{end or ''})",
        "system_time": "[2026-06-01,)",
    }
    literal = json.dumps(claim).replace("'", "''")
    return (
        f"ROW(jsonb_populate_record(NULL::{INTERNAL}.claims, '{literal}'), '{state}', {trust}, "
        f"'{{}}')::{INTERNAL}.slot_row"
    )


def picture(*rows: str) -> str:
    inner = ", ".join(rows)
    array = f"ARRAY[{inner}]::{INTERNAL}.slot_row[]" if rows else f"'{{}}'::{INTERNAL}.slot_row[]"
    return f"ROW(1, 'lives_in', {array})::{INTERNAL}.slot_picture"


def claim(value: str, start: str, end: str | None = None, **extra: Any) -> str:
    """A checked claim_input literal (cardinality one unless told, assertion = value)."""
    fields = {
        "position": 0,
        "subject": 1,
        "predicate": "lives_in",
        "cardinality": "one",
        "object": value,
        "confidence": 1,
        "valid_from": start,
        "valid_to": end,
        "assertion": value,
        "retracted": False,
        "slot": 1,
        **extra,
    }
    literal = json.dumps(fields).replace("'", "''")
    return f"jsonb_populate_record(NULL::{INTERNAL}.claim_input, '{literal}')"


def decide(db: Database, expression: str) -> dict[str, Any]:
    with db.admin() as admin:
        found = admin.execute(
            f"SELECT d.outcome, d.reason, d.target, d.retire_reason, d.valid::text, "
            f"d.copies::text[], d.corroborates, d.pieces::text[] "
            f"FROM (SELECT ({expression}).*) AS d"
        ).fetchone()
    assert found is not None
    keys = ("outcome", "reason", "target", "retire_reason", "valid", "copies")
    keys += ("corroborates", "pieces")
    return dict(zip(keys, found, strict=True))


def day(text: str) -> str:
    return f'"{text} 00:00:00+00"'


def test_the_input_check_returns_a_problem_code_per_claim(k: Caller, db: Database) -> None:
    ka = person(k, "ka")
    claims = [
        lives(ka, "Ok", "2026-01-01"),
        lives(ka, "Backwards", "2026-02-01", "2026-01-01"),
        {"subject": ka, "predicate": "no_such", "object": "x", "valid_from": "2026-01-01"},
        lives(999_999, "Nowhere", "2026-01-01"),
        lives(ka, "Soon", "not a date"),
        lives(ka, "Sure", "2026-01-01", confidence=1.5),
        {"subject": ka, "predicate": "lives_in", "valid_from": "2026-01-01"},
        "not an object",
    ]
    with db.admin() as admin:
        problems = admin.execute(
            f"SELECT u.position, u.problem FROM unnest({INTERNAL}.check_claims('k1', %s, NULL))"
            " AS u ORDER BY u.position",
            (Jsonb(claims),),
        ).fetchall()
    assert problems == [
        (0, None),
        (1, "empty_range"),
        (2, "unknown_predicate"),
        (3, "unknown_entity"),
        (4, "bad_timestamp"),
        (5, "confidence_out_of_range"),
        (6, "no_object"),
        (7, "not_an_object"),
    ]


@pytest.mark.parametrize(
    ("bad", "sqlstate", "problem"),
    [
        ({"predicate": "no_such"}, "PF002", "unknown_predicate"),
        ({"subject": 999_999}, "PF001", "unknown_entity"),
        ({"object_entity": 999_999}, "PF001", "unknown_object_entity"),
        ({"valid_to": "2025-01-01"}, "22023", "empty_range"),
        ({"replaces": "x"}, "22023", "replaces_not_an_id"),
    ],
)
def test_the_refusal_is_chosen_by_problem_code(
    k: Caller,
    db: Database,
    bad: dict[str, Any],
    sqlstate: str,
    problem: str,
) -> None:
    ka = person(k, "kb")
    claims = [{**lives(ka, "Oslo", "2026-01-01"), **bad}]
    with db.admin() as admin, pytest.raises(psycopg.Error) as info:
        admin.execute(
            f"SELECT {INTERNAL}.raise_claim_problem(u, %s -> u.position) "
            f"FROM unnest({INTERNAL}.check_claims('k1', %s, NULL)) AS u"
            " WHERE u.problem IS NOT NULL",
            (Jsonb(claims), Jsonb(claims)),
        )
    assert info.value.sqlstate == sqlstate
    assert info.value.diag.message_detail == f"claim 0: {problem}"


def test_decide_one_supersedes_the_row_holding_its_start(db: Database) -> None:
    slot = picture(row(10, "Kyiv", "2026-01-01"))
    assert decide(db, f"{INTERNAL}.decide_one({slot}, {claim('Lviv', '2026-03-01')}, 2)") == {
        "outcome": "superseded",
        "reason": None,
        "target": 1,
        "retire_reason": "superseded",
        "valid": f"[{day('2026-03-01')},)",
        "copies": [f"[{day('2026-01-01')},{day('2026-03-01')})"],
        "corroborates": None,  # (decide_claim adds corroboration within the extent)
        "pieces": None,
    }
    # A closed new range resumes the old value after it.
    closed = decide(
        db, f"{INTERNAL}.decide_one({slot}, {claim('Lviv', '2026-03-01', '2026-04-01')}, 2)"
    )
    assert closed["valid"] == f"[{day('2026-03-01')},{day('2026-04-01')})"
    assert closed["copies"] == [
        f"[{day('2026-01-01')},{day('2026-03-01')})",
        f"[{day('2026-04-01')},)",
    ]


def test_decide_one_ends_a_late_value_at_the_next_start_and_respects_trust(db: Database) -> None:
    slot = picture(row(10, "Kyiv", "2026-03-01"))
    late = decide(db, f"{INTERNAL}.decide_one({slot}, {claim('Odesa', '2026-01-01')}, 2)")
    assert late["outcome"] == "inserted" and late["target"] is None
    assert late["valid"] == f"[{day('2026-01-01')},{day('2026-03-01')})"
    # Its own value does not end it: the extent runs on, for corroboration to split.
    own = picture(row(10, "Kyiv", "2026-03-01", "2026-04-01"))
    extent = decide(db, f"{INTERNAL}.decide_one({own}, {claim('Kyiv', '2026-01-01')}, 2)")
    assert extent["valid"] == f"[{day('2026-01-01')},)"
    trusted = picture(row(10, "Kyiv", "2026-01-01", trust=3))
    outranked = decide(db, f"{INTERNAL}.decide_one({trusted}, {claim('Lviv', '2026-02-01')}, 2)")
    assert outranked["outcome"] == "outranked" and outranked["target"] == 1
    # A row this write already replaced (dropped) or retired no longer holds anything.
    gone = picture(row(10, "Kyiv", "2026-01-01", state="retire"))
    assert decide(db, f"{INTERNAL}.decide_one({gone}, {claim('Lviv', '2026-02-01')}, 2)")[
        "outcome"
    ] == ("inserted")


def test_corroboration_finds_the_rows_of_the_assertion_an_extent_overlaps(db: Database) -> None:
    slot = picture(row(10, "Kyiv", "2026-01-01"), row(11, "Kyiv", "2025-01-01", "2025-06-01"))

    def corroboration(value: str, extent: str) -> tuple[Any, ...]:
        with db.admin() as admin:
            found = admin.execute(
                f"SELECT c.corroborated, c.pieces::text[] FROM {INTERNAL}.corroboration("
                f"{slot}, {claim(value, '2025-03-01')}, '{extent}') AS c"
            ).fetchone()
        assert found is not None
        return tuple(found)

    # Rows in valid-time order; the pieces of the extent neither covers are new rows.
    assert corroboration("Kyiv", "[2025-03-01,)") == (
        [2, 1],
        [f"[{day('2025-06-01')},{day('2026-01-01')})"],
    )
    assert corroboration("Kyiv", "[2026-02-01,2026-03-01)") == ([1], [])
    assert corroboration("Kyiv", "[2025-07-01,2025-08-01)") == (
        [],
        [f"[{day('2025-07-01')},{day('2025-08-01')})"],
    )
    assert corroboration("Lviv", "[2026-02-01,)") == ([], [f"[{day('2026-02-01')},)"])


def test_decide_many_and_event(db: Database) -> None:
    many = picture(row(20, "tea", "2026-01-01", cardinality="many"))
    replaces = claim("coffee", "2026-02-01", cardinality="many", replaces=20)
    replaced = decide(db, f"{INTERNAL}.decide_many({many}, {replaces})")
    assert (replaced["outcome"], replaced["target"], replaced["retire_reason"]) == (
        "superseded",
        1,
        "replaced",
    )
    assert replaced["copies"] == [f"[{day('2026-01-01')},{day('2026-02-01')})"]
    unknown = claim("coffee", "2026-02-01", cardinality="many", replaces=99)
    assert decide(db, f"{INTERNAL}.decide_many({many}, {unknown})")["reason"] == "replaces_unknown"
    plain = decide(
        db, f"{INTERNAL}.decide_many({many}, {claim('milk', '2026-02-01', cardinality='many')})"
    )
    assert plain["outcome"] == "inserted"
    event = decide(
        db, f"{INTERNAL}.decide_event({claim('Rome', '2026-05-01', cardinality='event')})"
    )
    assert event["outcome"] == "inserted"
    assert event["valid"] == f"[{day('2026-05-01')},{day('2026-05-01')}]"


def test_decide_claim_applies_floor_retraction_then_corroboration(db: Database) -> None:
    slot = picture(row(10, "Kyiv", "2026-01-01"))
    weak = claim("Lviv", "2026-03-01", confidence=0.2)
    assert decide(db, f"{INTERNAL}.decide_claim({slot}, {weak}, 2, 0.55, false)")["outcome"] == (
        "below_floor"
    )
    blocked = claim("Lviv", "2026-03-01", retracted=True)
    assert decide(db, f"{INTERNAL}.decide_claim({slot}, {blocked}, 2, 0.55, false)")["reason"] == (
        "retracted"
    )
    # A replay applies each retraction at its own place, not through the negative memory.
    assert decide(db, f"{INTERNAL}.decide_claim({slot}, {blocked}, 2, 0.55, true)")["outcome"] == (
        "superseded"
    )
    same = claim("Kyiv", "2026-03-01")
    assert decide(db, f"{INTERNAL}.decide_claim({slot}, {same}, 1, 0.55, false)") == {
        "outcome": "corroborated",
        "reason": None,
        "target": 1,
        "retire_reason": None,
        "valid": None,
        "copies": [],
        "corroborates": [1],
        "pieces": [],
    }


def test_knowledge_refusals_map_to_their_own_exception_classes(
    k: Caller,
    db: Database,
) -> None:
    ka = person(k, "kc")
    refusals: list[tuple[str, tuple[Any, ...]]] = [
        ("SELECT pgfacts.ingest(%s, %s)", ("x", [lives(999_999, "Bern", "2026-01-01")])),
        (
            "SELECT pgfacts.ingest(%s, %s)",
            ("y", [{**lives(ka, "Bern", "2026-01-01"), "predicate": "nope"}]),
        ),
        ("SELECT pgfacts.define_predicate('lives_in', 'event')", ()),
    ]
    caught: list[type] = []
    for sql, params in refusals:
        with pytest.raises(psycopg.Error) as info:
            if params:
                episode = {"source_kind": "note", "source_ref": params[0], "content_hash": "h"}
                k.one(sql, Jsonb(episode), Jsonb(params[1]))
            else:
                k.one(sql)
        caught.append(type(translate(info.value)))
    assert caught == [UnknownEntity, UnknownPredicate, CardinalityMismatch]
    claim_id = k.ingest("z", [lives(ka, "Oslo", "2026-01-01")])["outcomes"][0]["claim_id"]
    k.ingest("w", [lives(ka, "Rome", "2026-01-01")])  # retires the Oslo row
    with pytest.raises(psycopg.Error) as info:
        k.one("SELECT pgfacts.retract(%s)", claim_id)
    assert isinstance(translate(info.value), ClaimNotLive)
    with pytest.raises(psycopg.Error) as info:
        k.one("SELECT pgfacts.restore(%s)", claim_id)
    assert isinstance(translate(info.value), ClaimNotRetracted)
    # Existing handlers keep catching what they caught before the codes.
    assert issubclass(UnknownEntity, InvalidParameter) and issubclass(UnknownEntity, NotFound)
    assert issubclass(ClaimNotRetracted, NotFound) and issubclass(IntervalTaken, Exception)
