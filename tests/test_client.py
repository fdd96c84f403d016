"""The Python client, the `pgfacts tool` command and the tool definition formats."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
from datetime import UTC, datetime

import psycopg
import pytest

import pgfacts
import pgfacts.migrator
from pgfacts import (
    AsyncFactStore,
    Context,
    FactStore,
    InvalidParameter,
    MigrationError,
    PermissionDenied,
    SchemaNewerWarning,
    rows,
    tools,
)

from .conftest import Database


def test_sync_store_round_trip_and_errors(db: Database) -> None:
    ctx = Context(tenant="acme", session_id="child", parent_session_id="root", agent_id="w")
    with FactStore(db.dsn("agent"), context=ctx) as store:
        assert store.store_fact("plan/step", {"n": 1}, tags=["p"]) == {
            "key": "plan/step",
            "shared": False,
            "scope": "session",
            "stored": True,
        }
        assert (
            store.store_facts([{"key": "a", "value": 1}, {"key": "b", "value": 2}])["stored"] == 2
        )
        [fact] = store.read_facts(key_pattern="plan/*")
        assert isinstance(fact, rows.Fact) and fact.value == {"n": 1}
        assert (fact.scope_key, fact.fact_session_id, fact.fact_tags) == (
            "session:child:plan/step",
            "child",
            ["p"],
        )
        assert store.spawn_tree() == ["child", "root"]
        root = store.with_context(session_id="root", parent_session_id=None)
        assert len(root.read_facts(tags=["p"])) == 1  # the parent sees the child's fact
        with pytest.raises(InvalidParameter) as info:
            store.read_facts(limit=-1)
        assert info.value.sqlstate == "22023" and "limit" in info.value.message
        with pytest.raises(PermissionDenied):
            store.delete_session("child")


def test_a_caller_connection_joins_its_transaction(db: Database) -> None:
    with db.connect("agent") as conn:
        store = FactStore(connection=conn, context=Context(tenant="acme", session_id="s"))
        store.store_fact("k", 1)
        conn.rollback()
        assert store.read_facts() == []
        store.tools.store_fact("k", 2)
        conn.commit()
        assert [f.value for f in store.read_facts()] == [2]


def test_async_store(db: Database) -> None:
    async def scenario() -> tuple[list[rows.FactVersion], dict]:  # type: ignore[type-arg]
        ctx = Context(tenant="acme", session_id="s", agent_id="a")
        async with AsyncFactStore(db.dsn("agent"), context=ctx) as store:
            await store.store_fact("k", [1, 2])
            await store.delete_fact("k")
            await store.tools.store_fact("k", [3])
            return await store.fact_history("k"), await store.tools.fact_history("k")

    history, by_tool = asyncio.run(scenario())
    assert [(v.value, v.deleted, v.current) for v in history] == [
        ([1, 2], False, False),
        ([1, 2], True, False),
        ([3], False, True),
    ]
    assert [v["value"] for v in by_tool["versions"]] == [v.value for v in history]


def test_cli_tool_prints_json_and_json_errors(db: Database) -> None:
    base = [
        sys.executable,
        "-m",
        "pgfacts",
        "tool",
        "--dsn",
        db.dsn("agent"),
        "--tenant",
        "acme",
        "--session",
        "s1",
        "--agent",
        "cli",
    ]
    ok = subprocess.run(
        [*base[:3], base[3], "store_fact", '{"key": "k", "value": 1}', *base[4:]],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout) == {
        "key": "k",
        "shared": False,
        "scope": "session",
        "stored": True,
    }
    bad = subprocess.run(
        [*base[:4], "read_facts", '{"scope": "everywhere"}', *base[4:]],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 1
    assert bad.stdout == ""
    error = json.loads(bad.stderr)
    assert error["code"] == "22023" and "unknown scope" in error["message"]
    not_json = subprocess.run(
        [*base[:4], "read_facts", "{oops", *base[4:]], capture_output=True, text=True
    )
    assert not_json.returncode == 1 and json.loads(not_json.stderr)["code"] == "22023"
    denied = subprocess.run(
        [*base[:4], "delete_session", '{"session_id": "s1"}', *base[4:], "--kind", "facts_manager"],
        capture_output=True,
        text=True,
    )
    assert denied.returncode == 1 and json.loads(denied.stderr)["code"] == "42501"


def test_tool_definitions_in_three_formats(db: Database) -> None:
    with FactStore(db.dsn("agent")) as store:
        definitions = store.tool_definitions()
    names = [d["name"] for d in definitions]
    assert names == [
        "store_fact",
        "read_facts",
        "delete_fact",
        "delete_session",
        "fact_history",
        "facts_read_uncrawled",
        "facts_set_crawled",
        "bulk_store_facts",
        "facts_stats",
        "facts_tombstone_stats",
        "facts_purge_tombstones",
        "facts_force_purge",
        "facts_search",
        "facts_similar",
        "search_skills",
        "graph_upsert_node",
        "graph_upsert_edge",
        "graph_merge_nodes",
        "graph_delete_node",
        "graph_delete_edge",
        "graph_remove_evidence",
        "graph_search_nodes",
        "graph_search_edges",
        "graph_neighbourhood",
        "graph_stats",
        "record_memory",
        "extraction_status",
        "force_extract",
        "extraction_events",
        "audit",
        "review_queue",
        "review_candidate",
        "review_approve",
        "review_reject",
        "fact_review_queue",
        "fact_review_approve",
        "fact_review_reject",
    ]
    tuner = [d["name"] for d in tools.for_kind(definitions, "tuner")]
    assert tuner == [
        "read_facts",
        "fact_history",
        "facts_stats",
        "facts_tombstone_stats",
        "facts_search",
        "facts_similar",
        "search_skills",
        "graph_search_nodes",
        "graph_search_edges",
        "graph_neighbourhood",
        "graph_stats",
        "extraction_status",
        "extraction_events",
        "audit",
        "review_queue",
        "review_candidate",
        "fact_review_queue",
    ]
    reviewer = [d["name"] for d in tools.for_kind(definitions, "reviewer")]
    assert reviewer == [
        "read_facts",
        "fact_history",
        "facts_search",
        "facts_similar",
        "graph_search_nodes",
        "graph_search_edges",
        "graph_neighbourhood",
        "extraction_status",
        "review_queue",
        "review_candidate",
        "review_approve",
        "review_reject",
        "fact_review_queue",
        "fact_review_approve",
        "fact_review_reject",
    ]
    openai = tools.render(definitions, "openai")
    assert openai[0]["type"] == "function"
    assert openai[0]["function"]["parameters"]["properties"]["key"]["type"] == "string"
    assert tools.render(definitions, "anthropic")[1]["input_schema"]["type"] == "object"
    assert tools.render(definitions, "mcp")[2]["inputSchema"]["required"] == ["key"]
    with pytest.raises(ValueError):
        tools.render(definitions, "xml")


def test_every_defined_tool_is_callable_and_every_argument_is_accepted(db: Database) -> None:
    """The definitions and call_tool cannot drift apart: each declared argument is known."""
    with FactStore(db.dsn("app")) as store:
        definitions = store.tool_definitions()
    with db.connect("app", autocommit=True) as conn:
        for definition in definitions:
            for argument in definition["input_schema"]["properties"]:
                try:
                    conn.execute(
                        "SELECT pgfacts.call_tool(%s, %s, %s)",
                        (
                            definition["name"],
                            psycopg.types.json.Jsonb({argument: None}),
                            psycopg.types.json.Jsonb({"tenant": "t", "agent_kind": "operator"}),
                        ),
                    )
                except psycopg.Error as exc:
                    assert "does not take argument" not in str(exc), (definition["name"], argument)


def test_knowledge_through_the_client(db: Database) -> None:
    ctx = Context(tenant="acme", agent_kind="operator")
    with FactStore(db.dsn("app"), context=ctx) as k:
        k.define_predicate("lives_in", "one")
        anna = k.ensure_entity("person", "Anna", external_ref="p/7")
        assert k.ensure_entity("person", "Anna", external_ref="p/7") == anna
        k.ingest(
            {"source_kind": "note", "source_ref": "n1", "content_hash": "h"},
            [
                {
                    "subject": anna,
                    "predicate": "lives_in",
                    "object": "Kyiv",
                    "valid_from": "2026-01-01",
                }
            ],
        )
        done = k.ingest(
            {"source_kind": "note", "source_ref": "n2", "content_hash": "h"},
            [
                {
                    "subject": anna,
                    "predicate": "lives_in",
                    "object": "Lviv",
                    "valid_from": "2026-03-01",
                }
            ],
        )
        assert [r.object_value for r in k.as_of(anna, "lives_in", valid_at="2026-04-01")] == [
            "Lviv"
        ]
        history = k.claim_history(anna, "lives_in")
        assert [type(r) for r in history] == [rows.ClaimVersion] * 3
        assert k.history(anna, "lives_in") == history  # old name
        lviv = done["outcomes"][0]["claim_id"]
        assert k.explain_claim(lviv)["sources"][0]["source_ref"] == "n2"
        assert k.explain(lviv) == k.explain_claim(lviv)  # old name, one more release
        [hit] = k.search_claims("Lviv")
        assert (hit.claim_id, hit.current, hit.object_value) == (lviv, True, "Lviv")
        assert k.retract(lviv)["retracted"] is True
        assert k.current_claims(anna) == []
        assert k.restore(lviv)["claim_id"] == lviv
        assert (
            k.override(
                "fix",
                {
                    "subject": anna,
                    "predicate": "lives_in",
                    "object": "Odesa",
                    "valid_from": "2026-05-01",
                },
            )["replayed"]
            is False
        )
        assert {c.change for c in k.changes("2000-01-01")} >= {"recorded"}
        assert k.verify_slot(anna, "lives_in") == []
        assert k.purge_source("note", "n1")["episodes"] == 1


def test_a_serialization_failure_says_retry() -> None:
    from pgfacts.errors import RetryTransaction, translate

    for error in (psycopg.errors.SerializationFailure("x"), psycopg.errors.DeadlockDetected("y")):
        assert isinstance(translate(error), RetryTransaction)


def test_the_store_checks_the_schema_version_on_first_use(empty_db: str, db: Database) -> None:
    # Nothing installed: a clear error naming the fix, not an undefined function.
    with (
        FactStore(empty_db, context=Context(tenant="acme")) as store,
        pytest.raises(MigrationError) as info,
    ):
        store.tools.read_facts()
    assert info.value.sqlstate == "55000" and "pgfacts migrate" in (info.value.hint or "")

    # A migration of this package not applied yet: older than the package.
    with db.admin() as admin:
        latest = pgfacts.migrator.load_migrations()[-1].name
        admin.execute(
            "UPDATE pgfacts_internal.schema_ledger SET name = 'x' || name WHERE name = %s",
            (latest,),
        )
        with (
            FactStore(db.dsn("app"), context=Context(tenant="acme")) as store,
            pytest.raises(MigrationError) as info,
        ):
            store.tool_definitions()
        assert "older" in info.value.message and latest in info.value.message
        admin.execute(
            "UPDATE pgfacts_internal.schema_ledger SET name = %s WHERE name = 'x' || %s",
            (latest, latest),
        )

        # A migration this package does not know: it warns once and keeps working.
        admin.execute(
            "INSERT INTO pgfacts_internal.schema_ledger (kind, name, sha256, package_version) "
            "VALUES ('migration', '9999_from_the_future.sql', repeat('a', 64), '9')"
        )
    with FactStore(db.dsn("app"), context=Context(tenant="acme")) as store:
        with pytest.warns(SchemaNewerWarning, match="9999_from_the_future"):
            assert store.read_facts() == []
        assert store.read_facts() == []  # checked once per store


def test_async_store_with_context_shares_the_pool(db: Database) -> None:
    async def run() -> tuple[int, bool]:
        async with AsyncFactStore(db.dsn("app"), context=Context(tenant="acme")) as base:
            writer = base.with_context(session_id="s1")
            await writer.store_fact("k", 1, shared=True)
            reader = base.with_context(session_id="s2", agent_kind="tuner")
            return len(await reader.read_facts()), reader._pool is base._pool

    assert asyncio.run(run()) == (1, True)


def test_search_floor_defaults_to_the_tenant_setting(db: Database) -> None:
    ctx = Context(tenant="acme", agent_kind="operator")
    with FactStore(db.dsn("app"), context=ctx) as k:
        k.set_setting("confidence_floor", 0.3)
        k.define_predicate("likes", "many")
        anna = k.ensure_entity("person", "Anna", aliases=["Ann"], external_ref="p/1")
        k.ingest(
            {"source_kind": "note", "source_ref": "n1", "content_hash": "h"},
            [
                {
                    "subject": anna,
                    "predicate": "likes",
                    "object": "tea",
                    "confidence": 0.4,
                    "valid_from": "2026-01-01",
                }
            ],
        )
        # Stored under a floor of 0.3, and found by a search that names no minimum.
        assert [c.object_value for c in k.search_claims("tea")] == ["tea"]
        assert k.search_claims("tea", min_confidence=0.5) == []
        k.set_setting("confidence_floor", 0.5)
        assert k.search_claims("tea") == []


def test_the_sql_api_and_the_tools_are_two_surfaces(db: Database) -> None:
    """store.search(...) is the SQL function, typed rows; store.tools.facts_search(...) is
    the tool over it, the JSON an agent gets. The old places of the tool methods warn."""
    ctx = Context(tenant="acme", session_id="s")
    with FactStore(db.dsn("agent"), context=ctx) as store:
        store.store_fact("notes/deploy", "deploy the API with helm", shared=True)
        [hit] = store.search("deploy helm", item_kinds=["fact"])
        assert isinstance(hit, rows.SearchHit)
        assert (hit.key, hit.current, hit.stale, hit.text_rank) == ("notes/deploy", True, False, 1)
        found = store.tools.facts_search("deploy helm")
        assert [(f["scopeKey"], f["textRank"]) for f in found["facts"]] == [(hit.ref, 1)]
        assert store.tools.call("facts_search", {"query": "deploy helm"}) == found
        assert store.call_tool("facts_search", {"query": "deploy helm"}) == found
        with pytest.warns(DeprecationWarning, match=r"store\.tools\.facts_search"):
            assert store.facts_search("deploy helm") == found
        with pytest.warns(DeprecationWarning, match=r"store\.tools\.search_skills"):
            assert store.search_skills_tool("helm") == store.tools.search_skills("helm")
        with pytest.raises(dataclasses.FrozenInstanceError):
            hit.score = 1.0  # type: ignore[misc]


def test_infinite_valid_bounds_read_as_the_extreme_datetimes(db: Database) -> None:
    with FactStore(db.dsn("app"), context=Context(tenant="acme", agent_kind="operator")) as k:
        k.define_predicate("motto", "one")
        acme = k.ensure_entity("org", "Acme")
        claim = {"subject": acme, "predicate": "motto", "object": "onward"}
        bounds = {"valid_from": "-infinity", "valid_to": "infinity"}
        k.ingest(
            {"source_kind": "note", "source_ref": "n", "content_hash": "h"}, [{**claim, **bounds}]
        )
        [row] = k.as_of(acme, "motto")
        assert row.valid_from == datetime.min.replace(tzinfo=UTC)
        assert row.valid_to == datetime.max.replace(tzinfo=UTC)
        assert k.claim_history(acme, "motto")[0].valid_to == row.valid_to
