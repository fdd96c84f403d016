"""store_fact: single and batch forms, upserts, revival, and every refused input."""

from __future__ import annotations

import psycopg
import pytest

from .conftest import Database, count_facts
from .support.caller import Caller


def test_single_store_returns_the_contract_shape(call: Caller) -> None:
    result = call("store_fact", {"key": "baseline/tps", "value": 1200}, session="s1")
    assert result == {"key": "baseline/tps", "shared": False, "scope": "session", "stored": True}
    shared = call(
        "store_fact", {"key": "infra/fqdn", "value": "db.x", "shared": True}, session="s1"
    )
    assert shared == {"key": "infra/fqdn", "shared": True, "scope": "shared", "stored": True}


def test_batch_store_returns_per_fact_results_in_order(call: Caller) -> None:
    result = call(
        "store_fact",
        {"facts": [{"key": "b", "value": 2}, {"key": "a", "value": 1, "shared": True}]},
        session="s1",
    )
    assert result == {
        "stored": 2,
        "facts": [
            {"key": "b", "shared": False, "scope": "session", "stored": True},
            {"key": "a", "shared": True, "scope": "shared", "stored": True},
        ],
    }
    assert call("store_fact", {"facts": []}, session="s1") == {"stored": 0, "facts": []}


def test_batch_form_ignores_top_level_key_and_value(call: Caller, db: Database) -> None:
    call(
        "store_fact",
        {"key": "ignored", "value": 0, "facts": [{"key": "kept", "value": 1}]},
        session="s1",
    )
    assert count_facts(db, "key = 'ignored'") == 0
    assert count_facts(db, "key = 'kept'") == 1


def test_store_overwrites_per_scope_key_and_keeps_scopes_apart(call: Caller) -> None:
    call("store_fact", {"key": "k", "value": 1}, session="s1")
    call("store_fact", {"key": "k", "value": 2}, session="s1")
    call("store_fact", {"key": "k", "value": "shared"}, session="s1")  # same scope: overwrite
    call("store_fact", {"key": "k", "value": "other", "shared": True}, session="s1")
    call("store_fact", {"key": "k", "value": "s2"}, session="s2")
    facts = call("read_facts", {"key_pattern": "k"}, session="s1")["facts"]
    assert sorted((f["scopeKey"], f["value"]) for f in facts) == [
        ("session:s1:k", "shared"),
        ("shared:k", "other"),
    ]


def test_value_null_is_a_value_and_tags_are_kept_sorted_and_unique(call: Caller) -> None:
    call("store_fact", {"key": "n", "value": None, "tags": ["z", "a", "z"]}, session="s1")
    [fact] = call("read_facts", {"key_pattern": "n"}, session="s1")["facts"]
    assert fact["value"] is None
    assert fact["tags"] == ["a", "z"]
    assert fact["sessionId"] == "s1"


def test_session_and_agent_come_from_the_caller_context(call: Caller) -> None:
    call("store_fact", {"key": "p", "value": 1, "shared": True}, session="s9", agent="writer")
    [fact] = call("read_facts", {"key_pattern": "p"}, session="s1")["facts"]
    assert (fact["sessionId"], fact["agentId"]) == ("s9", "writer")


def test_storing_over_a_tombstone_revives_it(call: Caller) -> None:
    call("store_fact", {"key": "r", "value": 1}, session="s1")
    assert call("delete_fact", {"key": "r"}, session="s1")["deleted"] is True
    assert call("read_facts", {"key_pattern": "r"}, session="s1")["count"] == 0
    call("store_fact", {"key": "r", "value": 1}, session="s1")
    [fact] = call("read_facts", {"key_pattern": "r"}, session="s1")["facts"]
    assert fact["value"] == 1
    versions = call("fact_history", {"key": "r"}, session="s1")["versions"]
    assert [v["deleted"] for v in versions] == [False, True, False]
    assert versions[0]["etag"] < versions[1]["etag"] < versions[2]["etag"] == fact["etag"]


def test_a_batch_is_all_or_nothing(call: Caller, db: Database) -> None:
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call(
            "store_fact",
            {"facts": [{"key": "good", "value": 1}, {"key": "", "value": 2}]},
            session="s1",
        )
    assert count_facts(db) == 0


def test_a_batch_repeating_a_scope_key_is_refused_naming_it(call: Caller, db: Database) -> None:
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call(
            "store_fact",
            {
                "facts": [
                    {"key": "d", "value": 1},
                    {"key": "e", "value": 1},
                    {"key": "d", "value": 2},
                    {"key": "d", "value": 3, "shared": True},
                ]
            },
            session="s1",
        )
    assert info.value.diag.message_detail == "repeated: 'session:d'"
    assert count_facts(db) == 0


BAD_STORES = [
    ({"key": "", "value": 1}, "key must be a non-empty string"),
    ({"key": "x" * 513, "value": 1}, "longer than 512"),
    ({"key": "a\nb", "value": 1}, "control character"),
    ({"key": 5, "value": 1}, "key must be a string"),
    ({"key": "k"}, "store_fact needs {key, value}"),
    ({"value": 1}, "store_fact needs {key, value}"),
    ({"key": "k", "value": 1, "shared": "yes"}, "must be true or false"),
    ({"key": "k", "value": 1, "tags": "a"}, "must be an array of strings"),
    ({"key": "k", "value": 1, "tags": [""]}, "tags must be an array"),
    ({"key": "k", "value": 1, "colour": "red"}, "does not take argument(s) 'colour'"),
    ({"facts": [{"key": "k"}]}, "value is missing"),
    ({"facts": [{"key": "k", "value": 1, "extra": 1}]}, "unknown field"),
    ({"facts": ["k"]}, "fact 1: not a JSON object"),
    ({"facts": {"key": "k"}}, "must be a JSON array"),
]


@pytest.mark.parametrize(("args", "fragment"), BAD_STORES)
def test_bad_input_is_refused_and_nothing_is_written(
    call: Caller, db: Database, args: dict[str, object], fragment: str
) -> None:
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("store_fact", args, session="s1")
    assert fragment in str(info.value)
    assert count_facts(db) == 0


def test_a_session_fact_needs_a_session(call: Caller, db: Database) -> None:
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("store_fact", {"key": "k", "value": 1})
    assert "needs a session" in str(info.value)
    assert info.value.diag.message_hint and "shared" in info.value.diag.message_hint
    assert call("store_fact", {"key": "k", "value": 1, "shared": True})["stored"] is True


def test_the_value_size_cap_is_configurable(call: Caller, db: Database) -> None:
    big = "x" * (1024 * 1024)  # its JSON text is two bytes longer than 1 MiB
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("store_fact", {"key": "big", "value": big}, session="s1")
    assert "over the cap of 1048576 bytes" in str(info.value)
    with db.connect("operator") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'operator')")
        conn.execute("SELECT pgfacts.set_setting('value_max_bytes', '100')")
        conn.commit()
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call("store_fact", {"key": "mid", "value": "y" * 200}, session="s1")
    assert call("store_fact", {"key": "small", "value": "y" * 50}, session="s1")["stored"]
    # Another tenant keeps the default.
    assert call("store_fact", {"key": "mid", "value": "y" * 200}, session="s1", tenant="t2")
    assert count_facts(db, "key = 'big'") == 0


def test_json_text_with_a_nul_character_is_refused(db: Database) -> None:
    with db.connect("app", autocommit=True) as conn:
        with pytest.raises(psycopg.errors.UntranslatableCharacter):
            conn.execute(
                "SELECT pgfacts.call_tool('store_fact', %s::text::jsonb, "
                '\'{"tenant": "t1", "session_id": "s1"}\')',
                ('{"key": "k", "value": "a\\u0000b"}',),
            )
        with pytest.raises(psycopg.errors.InvalidTextRepresentation):
            conn.execute(
                "SELECT pgfacts.call_tool('store_fact', %s::text::jsonb, "
                '\'{"tenant": "t1", "session_id": "s1"}\')',
                ('{"key": "k", "value": not json}',),
            )
    assert count_facts(db) == 0


def test_unknown_tool_and_bad_context_are_refused(call: Caller) -> None:
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("store_everything", {})
    assert "unknown tool" in str(info.value)
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call("read_facts", {}, tenant="")
