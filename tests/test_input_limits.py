"""Bad input is a clean 22023 naming the limit, with nothing written (issue 11: items 2, 3,
6, 7 and 8 for working memory, the caller context and call_tool).

Every limit here is listed in docs/errors.md ("Limits").
"""

from __future__ import annotations

import json
import time
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import Context, FactStore

from .conftest import Database, count_facts
from .support.caller import Caller


def deep_array(levels: int) -> str:
    return "[" * levels + "]" * levels


def deep_object(levels: int) -> str:
    return '{"a": ' * levels + "1" + "}" * levels


def refused(info: pytest.ExceptionInfo[psycopg.Error], fragment: str) -> None:
    assert info.value.sqlstate == "22023", (info.value.sqlstate, str(info.value))
    assert fragment in str(info.value), str(info.value)


def count_sessions(db: Database) -> int:
    with db.admin() as admin:
        row = admin.execute("SELECT count(*) FROM pgfacts_internal.sessions").fetchone()
    assert row is not None
    return int(row[0])


# -- item 2: nesting depth -------------------------------------------------------------


@pytest.mark.parametrize("text", [deep_array(65), deep_object(65), deep_array(1200)])
def test_a_value_nested_over_64_levels_is_refused(call: Caller, db: Database, text: str) -> None:
    value = json.loads(text) if text.count("[") < 500 else None
    with db.connect("agent", autocommit=True) as conn, pytest.raises(psycopg.Error) as info:
        conn.execute(
            "SELECT pgfacts.call_tool('store_fact', "
            "jsonb_build_object('key', 'deep', 'shared', true, 'value', %s::text::jsonb), "
            '\'{"tenant": "t1"}\')',
            (text,),
        )
    refused(info, "64 levels")
    if value is not None:  # the batch form, through a client that can encode it
        with pytest.raises(psycopg.Error) as info:
            call(
                "store_fact",
                {
                    "facts": [
                        {"key": "ok", "value": 1, "shared": True},
                        {"key": "deep", "value": value, "shared": True},
                    ]
                },
            )
        refused(info, "64 levels")
    assert count_facts(db) == 0


@pytest.mark.parametrize(
    "text", [deep_array(64), deep_object(64), '[1, {"a": ' + deep_array(62) + "}]"]
)
def test_a_value_nested_64_levels_is_stored(call: Caller, text: str) -> None:
    call("store_fact", {"key": "deep", "value": json.loads(text), "shared": True})
    got = call("read_facts", {"key_pattern": "deep"})
    assert got["facts"][0]["value"] == json.loads(text)


def test_the_client_decodes_a_too_deep_value_defensively(db: Database) -> None:
    """A value stored before the depth cap (raw SQL here) must not break every reader with
    RecursionError: its too-deep part arrives as its JSON text."""
    deep = deep_array(1200)
    with db.admin() as admin:
        admin.execute(
            "INSERT INTO pgfacts_internal.facts (tenant, scope_key, key, value, shared, tags, "
            "created_at, updated_at, system_time) VALUES ('t1', 'shared:old/deep', 'old/deep', "
            "%s::jsonb, true, '{}', now(), now(), tstzrange(now(), NULL))",
            (deep,),
        )
    with FactStore(db.dsn("app"), context=Context(tenant="t1")) as store:
        store.store_fact("fine", {"n": 1}, shared=True)
        result = store.read_facts()
    by_key = {f.key: f.value for f in result}
    assert by_key["fine"] == {"n": 1}
    value = by_key["old/deep"]
    depth = 0
    while isinstance(value, list):
        value, depth = (value[0] if value else None), depth + 1
    assert isinstance(value, str) and value.startswith("[") and depth <= 64
    assert json.loads(value.replace("[", "").replace("]", "") or "null") is None


# -- item 3: caps on free text -------------------------------------------------------------


def test_key_pattern_is_capped_and_bounded(call: Caller, db: Database) -> None:
    with pytest.raises(psycopg.Error) as info:
        call("read_facts", {"key_pattern": "a*" * 16_000})
    refused(info, "1024 characters")
    with pytest.raises(psycopg.Error) as info:
        call("delete_fact", {"key": "a*" * 16_000, "pattern": True})
    refused(info, "512 characters")
    # At the cap a read is quick, however many wildcards it holds.
    call(
        "store_fact",
        {"facts": [{"key": f"k/{i}" + "a" * 400, "value": i, "shared": True} for i in range(200)]},
    )
    started = time.monotonic()
    call("read_facts", {"key_pattern": "%a" * 511 + "b"})
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(
    ("tool", "args", "fragment"),
    [
        ("read_facts", {"tags": ["x" * 101]}, "100 characters"),
        ("read_facts", {"tags": ["t"] * 65}, "64 tags"),
        ("read_facts", {"agent_id": "a" * 201}, "200 characters"),
        ("read_facts", {"session_id": "s" * 257}, "256 bytes"),
        ("fact_history", {"key": "k", "session_id": "s" * 257}, "256 bytes"),
        ("facts_read_uncrawled", {"keyPrefix": "p" * 1025}, "1024 characters"),
        ("facts_set_crawled", {"keyPrefix": "p" * 1025}, "1024 characters"),
        ("facts_set_crawled", {"scopeKeys": [{"scopeKey": "s" * 2049}]}, "2048 characters"),
        ("delete_session", {"session_id": "s" * 257}, "256 bytes"),
    ],
)
def test_free_text_arguments_are_capped(
    call: Caller, db: Database, tool: str, args: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(psycopg.Error) as info:
        call(tool, args, kind="facts_manager", session="s1")
    refused(info, fragment)
    assert count_facts(db) == 0


def test_session_functions_cap_their_ids(db: Database) -> None:
    with db.connect("app") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1')")
        for sql, fragment in [
            ("SELECT pgfacts.register_session(session_id => 's', agent_id => %s)", "200"),
            ("SELECT pgfacts.end_session(session_id => %s)", "256 bytes"),
            ("SELECT * FROM pgfacts.spawn_tree(session_id => %s)", "256 bytes"),
        ]:
            with pytest.raises(psycopg.Error) as info:
                conn.execute("SAVEPOINT s")
                conn.execute(sql, ("x" * 300,))
            refused(info, fragment)
            conn.execute("ROLLBACK TO SAVEPOINT s")
    assert count_sessions(db) == 0


def test_call_tool_caps_its_name_and_argument_names(call: Caller) -> None:
    with pytest.raises(psycopg.Error) as info:
        call("x" * 100_000, {})
    refused(info, "64 characters")
    assert len(str(info.value)) < 1000
    with pytest.raises(psycopg.Error) as info:
        call("read_facts", {"y" * 100_000: 1})
    refused(info, "64 characters")
    assert len(str(info.value)) < 1000


def test_context_agent_id_is_capped_and_echoes_stay_short(db: Database) -> None:
    with db.connect("app") as conn:
        with pytest.raises(psycopg.Error) as info:
            conn.execute(
                "SELECT pgfacts.set_context(tenant => 't1', agent_kind => %s)", ("k" * 100_000,)
            )
        refused(info, "unknown agent kind")
        assert len(str(info.value)) < 1000


@pytest.mark.parametrize(
    "kind", ["5_798$Sy_f!f\\dWt6_~(0SJy|Lc(w6\\07S7ai9P8ln;]1+8H-GwE<W<^7jS" + "x" * 40, "'" * 90]
)
def test_quotes_and_backslashes_count_twice_in_an_echo(db: Database, kind: str) -> None:
    """quote_literal doubles them, so a message quoting 63 of them would show more than 64
    characters of the input as JSON or SQL escapes it (a case the fuzz test found)."""
    from .test_fuzz import echoes

    with db.connect("app") as conn:
        with pytest.raises(psycopg.Error) as info:
            conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => %s)", (kind,))
        refused(info, "unknown agent kind")
        escaped = json.dumps(kind)[1:-1]
        assert echoes(info.value, [kind, escaped]) is None
        shown = info.value.diag.message_primary.split("kind ", 1)[1]
        assert shown.endswith("'...") and len(shown) <= 64 + 6


# -- item 7: tenant names ----------------------------------------------------------------


@pytest.mark.parametrize("tenant", ["*", "a b", "x" * 129, "-lead", "t\n1", "'", "%", "ä"])
def test_a_tenant_name_must_match_the_pattern(db: Database, tenant: str) -> None:
    with db.connect("app") as conn:
        with pytest.raises(psycopg.Error) as info:
            conn.execute("SELECT pgfacts.set_context(tenant => %s)", (tenant,))
        refused(info, "tenant")
    with db.admin() as admin:
        with pytest.raises(psycopg.Error) as info:
            admin.execute("SELECT pgfacts.bind_tenant_login('pgfacts_test_bound', %s)", (tenant,))
        refused(info, "tenant")


def test_tenant_names_that_match_are_accepted(db: Database) -> None:
    with db.connect("app") as conn:
        for tenant in ["t1", "acme.prod", "org_7-eu", "A" * 128, "user@example.com", "ns:tenant"]:
            conn.execute("SELECT pgfacts.set_context(tenant => %s)", (tenant,))


def test_settings_are_per_tenant(db: Database) -> None:
    """An all-tenants operator cannot write a setting that caps every other tenant."""
    with db.connect("app") as conn:
        with pytest.raises(psycopg.Error) as info:
            conn.execute("SELECT pgfacts.set_context(tenant => '*', agent_kind => 'operator')")
        refused(info, "tenant")
        conn.rollback()
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'operator')")
        conn.execute("SELECT pgfacts.set_setting(name => 'value_max_bytes', value => '10')")
        conn.commit()
    # A '*' row written behind the API's back is refused too.
    with db.admin() as admin, pytest.raises(psycopg.errors.CheckViolation):
        admin.execute(
            "INSERT INTO pgfacts_internal.settings (tenant, name, value) "
            "VALUES ('*', 'value_max_bytes', '10')"
        )
    with db.connect("app", autocommit=True) as conn:
        conn.execute(
            "SELECT pgfacts.call_tool('store_fact', %s, %s)",
            (Jsonb({"key": "big", "value": "x" * 100, "shared": True}), Jsonb({"tenant": "t2"})),
        )
        with pytest.raises(psycopg.Error) as info:
            conn.execute(
                "SELECT pgfacts.call_tool('store_fact', %s, %s)",
                (
                    Jsonb({"key": "big", "value": "x" * 100, "shared": True}),
                    Jsonb({"tenant": "t1"}),
                ),
            )
        refused(info, "over the cap of 10 bytes")


# -- item 6: operator and intake/ ------------------------------------------------------------


def test_raw_sql_shows_each_kind_only_the_keys_read_facts_shows_it(
    call: Caller, db: Database
) -> None:
    call("store_fact", {"key": "intake/obs", "value": 1, "shared": True}, session="s1")
    call(
        "store_fact",
        {"key": "config/facts-manager/x", "value": 1, "shared": True},
        session="s1",
        kind="facts_manager",
    )
    call("store_fact", {"key": "notes/n", "value": 1, "shared": True}, session="s1")

    def raw(kind: str) -> list[str]:
        with db.connect("app") as conn:
            conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => %s)", (kind,))
            keys = [
                r[0]
                for r in conn.execute(
                    "SELECT key FROM pgfacts_internal.facts ORDER BY key"
                ).fetchall()
            ]
            versions = [
                r[0]
                for r in conn.execute(
                    "SELECT DISTINCT key FROM pgfacts_internal.fact_versions ORDER BY key"
                ).fetchall()
            ]
        assert set(versions) <= set(keys)
        return keys

    def api(kind: str) -> list[str]:
        return sorted(f["key"] for f in call("read_facts", {}, kind=kind)["facts"])

    assert raw("operator") == api("operator") == ["notes/n"]
    assert raw("tuner") == api("tuner") == ["config/facts-manager/x", "intake/obs", "notes/n"]


# -- item 8: SQLSTATEs for bad input -------------------------------------------------------------


def test_a_key_over_1024_bytes_is_22023(call: Caller, db: Database) -> None:
    key = "é" * 511  # 511 characters, 1022 bytes: fine
    call("store_fact", {"key": key, "value": 1, "shared": True})
    with pytest.raises(psycopg.Error) as info:
        call("store_fact", {"key": "€" * 400, "value": 1, "shared": True})  # 1200 bytes
    refused(info, "1024 bytes")
    with pytest.raises(psycopg.Error) as info:
        call("fact_history", {"key": "€" * 400, "shared": True})
    refused(info, "1024 bytes")
    assert count_facts(db) == 1


def test_a_session_that_names_itself_as_parent_is_22023(call: Caller, db: Database) -> None:
    with pytest.raises(psycopg.Error) as info:
        call("store_fact", {"key": "k", "value": 1}, session="s1", parent="s1")
    refused(info, "its own parent")
    with pytest.raises(psycopg.Error) as info:
        call("read_facts", {}, session="s1", parent="s1")
    refused(info, "its own parent")
    assert count_facts(db) == 0 and count_sessions(db) == 0


def test_cut_deep_leaves_strings_alone() -> None:
    from pgfacts import jsonsafe

    text = json.dumps({"s": '[[["]]]\\', "deep": [[["x", {"a": "]"}]]]})
    assert json.loads(jsonsafe.cut_deep(text, 64)) == json.loads(text)
    cut = json.loads(jsonsafe.cut_deep(text, 2))
    assert cut["s"] == '[[["]]]\\'
    assert cut["deep"] == [json.dumps([["x", {"a": "]"}]])[0:0] + '[["x", {"a": "]"}]]']
    assert jsonsafe.loads(deep_array(5000).encode())  # bytes, as psycopg passes them


@pytest.mark.parametrize(
    ("call_sql", "name", "low", "high"),
    [
        ('SELECT * FROM pgfacts.read_facts("limit" => %s)', "limit", 0, 1000),
        ("SELECT * FROM pgfacts.search('x', \"limit\" => %s)", "limit", 1, 100),
        ("SELECT * FROM pgfacts.find_keys('x', \"limit\" => %s)", "limit", 1, 100),
        ("SELECT pgfacts.context_pack('x', token_budget => %s)", "token_budget", 1, 1000000),
        ("SELECT * FROM pgfacts.claim_embedding_work(%s)", "batch_size", 1, 1000),
    ],
)
def test_count_arguments_are_refused_alike_outside_their_range(
    db: Database, call_sql: str, name: str, low: int, high: int
) -> None:
    """Every count argument (a limit, k, a budget, a batch size) is checked by one rule:
    22023, naming the argument, its range and the value sent; the bounds themselves pass."""
    with db.connect("app") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'facts_manager')")
        for bad in (low - 1, high + 1, None):
            with pytest.raises(psycopg.Error) as info, conn.transaction():
                conn.execute(call_sql, (bad,)).fetchall()
            assert info.value.sqlstate == "22023"
            shown = "null" if bad is None else str(bad)
            assert info.value.diag.message_primary == (
                f"{name} must be an integer from {low} to {high}, not {shown}"
            )
        for good in (low, high):
            with conn.transaction():
                conn.execute(call_sql, (good,)).fetchall()
