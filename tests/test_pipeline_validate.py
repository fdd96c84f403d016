"""validate_extraction (seed 001's validator, in SQL): each rule with a case that passes and
one that fails; rejections carry an index and a code, never source text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller, raises

SECRET = "the vault code is 4711"
CONTEXT: dict[str, Any] = {
    "occurred_at": "2026-03-20T10:00:00Z",
    "lines": [
        {"id": "seg-41", "text": "Anna: I moved to Kyiv last March."},
        {"id": "seg-42", "text": f"Anna: I work at Acme, {SECRET}."},
    ],
    "predicates": [
        {"name": "lives_in", "cardinality": "one"},
        {"name": "works_at", "cardinality": "many"},
        {"name": "met", "cardinality": "event"},
    ],
    "entities": [
        {"ref": "e1", "entity_id": 11, "kind": "person", "name": "Anna"},
        {"ref": "e2", "entity_id": 12, "kind": "org", "name": "Acme"},
    ],
    "facts": [
        {"ref": "f1", "claim_id": 501, "subject": "e1", "predicate": "works_at"},
        {"ref": "f2", "claim_id": 502, "subject": "e1", "predicate": "lives_in"},
    ],
}
GOOD = {
    "subject": "e1",
    "predicate": "lives_in",
    "object": "Kyiv",
    "evidence": ["seg-41"],
    "valid_from": "2025-03-01",
}


@pytest.fixture(scope="module")
def agent(module_db: Database) -> Any:
    caller = Caller(module_db, kind="agent")  # validate_extraction reads and writes nothing
    yield caller
    caller.close()


@pytest.fixture
def v(agent: Caller) -> Any:
    caller = agent

    def validate(*facts: Any, context: dict[str, Any] | None = None) -> dict[str, Any]:
        result: dict[str, Any] = caller.one(
            "SELECT pgfacts.validate_extraction(%s, %s)",
            Jsonb(context or CONTEXT),
            Jsonb({"facts": list(facts)}),
        )
        assert SECRET not in json.dumps(result["rejections"])
        return result

    return validate


def rejected(result: dict[str, Any]) -> list[tuple[int, str]]:
    return [(r["index"], r["reason"]) for r in result["rejections"]]


def test_a_good_fact_becomes_an_ingest_claim(v: Any) -> None:
    result = v(GOOD)
    assert result["claims"] == [
        {
            "subject": 11,
            "predicate": "lives_in",
            "object": "Kyiv",
            "confidence": 1,
            "valid_from": "2025-03-01T00:00:00+00:00",
            "locator": {"evidence": ["seg-41"]},
        }
    ]
    assert result["rejections"] == [] and result["notes"] == []


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"subject": "e9"}, "unknown_subject"),
        ({"evidence": []}, "no_citation"),
        ({"evidence": ["seg-41", "seg-99"]}, "citation_outside_episode"),
        ({"object": None}, "no_object"),
        ({"object": "  "}, "no_object"),
        ({"object_entity": "e9", "object": None}, "no_object"),
        ({"valid_from": "1899-12-31"}, "date_out_of_range"),
        ({"valid_from": "2028-03-20T10:00:01Z"}, "date_out_of_range"),  # occurred + 731 days
        ({"valid_to": "2028-04-01"}, "date_out_of_range"),
        ({"valid_from": "last March"}, "bad_date"),
        ({"valid_from": "now"}, "bad_date"),
        ({"valid_from": "2026-02-30"}, "bad_date"),
        ({"valid_from": "2026-03-01", "valid_to": "2026-03-01"}, "ends_before_start"),
        ({"valid_from": "2026-03-05", "valid_to": "2026-03-01"}, "ends_before_start"),
    ],
)
def test_each_drop_rule_has_its_code(v: Any, change: dict[str, Any], reason: str) -> None:
    result = v(GOOD, {**GOOD, **change})
    assert rejected(result) == [(1, reason)] and len(result["claims"]) == 1


def test_dates_at_the_edges_pass(v: Any) -> None:
    result = v(
        {**GOOD, "valid_from": "1900-01-01"},
        {**GOOD, "object": "Lviv", "valid_from": "2028-03-19"},  # inside occurred + 730 days
        {**GOOD, "object": "Odesa", "valid_from": "2026-03-01", "valid_to": "2026-03-02"},
        {**GOOD, "object": "Rivne", "valid_from": "2026-03-01T12:00:00+02:00"},
    )
    assert result["rejections"] == []
    assert result["claims"][3]["valid_from"] == "2026-03-01T10:00:00+00:00"


def test_a_missing_start_is_the_episode_time_and_says_so(v: Any) -> None:
    fact = {k: val for k, val in GOOD.items() if k != "valid_from"}
    result = v(fact)
    assert result["claims"][0]["valid_from"] == "2026-03-20T10:00:00+00:00"
    assert result["notes"] == [{"index": 0, "claim": 0, "notes": ["start_defaulted"]}]
    event = v({"subject": "e1", "predicate": "met", "object_entity": "e2", "evidence": ["seg-42"]})
    assert event["claims"][0]["valid_at"] == "2026-03-20T10:00:00+00:00"
    assert event["claims"][0]["object_entity"] == 12 and "object" not in event["claims"][0]


def test_a_repeat_is_dropped(v: Any) -> None:
    result = v(GOOD, {**GOOD, "text": "said again", "confidence": 0.5}, {**GOOD, "object": "Lviv"})
    assert rejected(result) == [(1, "duplicate")] and len(result["claims"]) == 2


def test_a_quote_not_in_the_cited_lines_is_dropped_and_the_claim_kept(v: Any) -> None:
    kept = v({**GOOD, "quote": "moved to Kyiv"})
    assert kept["claims"][0]["quote"] == "moved to Kyiv" and kept["notes"] == []
    # In the episode, but not in the line the fact cites: dropped too.
    dropped = v({**GOOD, "quote": "I work at Acme"})
    assert "quote" not in dropped["claims"][0]
    assert dropped["notes"][0]["notes"] == ["quote_dropped"]


def test_replaces_holds_only_for_a_live_fact_of_the_subject_on_a_many_predicate(v: Any) -> None:
    works = {
        "subject": "e1",
        "predicate": "works_at",
        "object_entity": "e2",
        "evidence": ["seg-42"],
    }
    assert v({**works, "replaces": "f1"})["claims"][0]["replaces"] == 501
    for replaces in ("f2", "f9"):  # f2 is lives_in; f9 is unknown
        result = v({**works, "replaces": replaces})
        assert "replaces" not in result["claims"][0]
        assert result["notes"][0]["notes"] == ["start_defaulted", "replaces_dropped"]
    one = v({**GOOD, "replaces": "f2"})  # lives_in is a one predicate: nothing to replace
    assert "replaces" not in one["claims"][0]


def test_an_unknown_predicate_is_an_open_statement_unless_the_options_reject_it(v: Any) -> None:
    fact = {"subject": "Anna", "predicate": "enjoys", "object": "hiking", "evidence": ["seg-41"]}
    result = v(fact)
    assert result["claims"][0]["predicate"] == "statement"
    assert result["claims"][0]["object"] == "enjoys hiking"
    assert result["claims"][0]["subject"] == 11  # an exact name resolves like its ref
    assert result["notes"][0]["notes"] == ["open_statement", "start_defaulted"]
    strict = {**CONTEXT, "options": {"unknown_predicates": "reject"}}
    assert rejected(v(fact, context=strict)) == [(0, "unknown_predicate")]


def test_what_is_not_a_fact_is_rejected_by_index(v: Any) -> None:
    assert rejected(v("Anna lives in Kyiv", 7, None, GOOD)) == [
        (0, "not_an_object"),
        (1, "not_an_object"),
        (2, "not_an_object"),
    ]


@pytest.mark.parametrize(
    ("context", "output", "fragment"),
    [
        ({**CONTEXT, "occurred_at": "soon"}, {"facts": []}, "context must be an object"),
        ({**CONTEXT, "lines": []}, {"facts": []}, "lines must be an array"),
        ({**CONTEXT, "entities": {}}, {"facts": []}, "context entities must be an array"),
        ({**CONTEXT, "options": {"unknown_predicates": "maybe"}}, {"facts": []}, "options."),
        (CONTEXT, [GOOD], "output must be an object"),
        (CONTEXT, {"facts": [GOOD] * 1001}, "output must be an object"),
        ("[]", {"facts": []}, "context must be an object"),
        ({**CONTEXT, "entities": [{"ref": "e1", "entity_id": "11"}]}, {"facts": []}, "entity_id"),
        ({**CONTEXT, "entities": [{"ref": "e1", "entity_id": 1.5}]}, {"facts": []}, "entity_id"),
        ({**CONTEXT, "facts": [{"ref": "f1", "claim_id": 1e30}]}, {"facts": []}, "claim_id"),
        ({**CONTEXT, "facts": [{"claim_id": 1}]}, {"facts": []}, "claim_id"),
    ],
)
def test_a_bad_context_or_output_is_22023(
    agent: Caller, context: Any, output: Any, fragment: str
) -> None:
    caller = agent
    with pytest.raises(Exception) as info:
        caller.one("SELECT pgfacts.validate_extraction(%s, %s)", Jsonb(context), Jsonb(output))
    assert getattr(info.value, "sqlstate", None) == "22023" and fragment in str(info.value)
    raises("22023", caller.one, "SELECT pgfacts.validate_extraction(NULL, NULL)")
