"""The registry carries what a host needs: every tool states its output schema and its
behaviour hints, each tool's real results validate against its output schema, and
available_tools() offers a caller exactly what its kind and its tenant's data allow."""

from __future__ import annotations

from typing import Any

import jsonschema
import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import tools

from .conftest import Database
from .support.caller import Caller

EMBED = "(register a model and embed the facts)"
HOLD = "(hold two low-trust claims for review)"
HOLD_FACTS = "(hold two fact writes under a review key prefix)"


# A sample of calls per tool, (kind, arguments), in an order that leaves something for the
# next call to find: results with rows and results without, both forms where a tool has two.
class Last(str):
    """A sample argument taken from the latest result holding this key (ids differ per run)."""


def resolved(args: dict[str, Any], latest: dict[str, Any]) -> dict[str, Any]:
    return {k: latest[v] if isinstance(v, Last) else v for k, v in args.items()}


SAMPLES: list[tuple[str, str, dict[str, Any]]] = [
    ("store_fact", "agent", {"key": "notes/plan", "value": "alpha plan", "tags": ["t"]}),
    ("store_fact", "agent", {"facts": [{"key": "notes/b", "value": {"n": 1}}]}),
    ("store_fact", "agent", {"key": "kb/alpha", "value": "alpha shared", "shared": True}),
    ("store_fact", "agent", {"key": "notes/lease", "value": "held", "ttl_seconds": 3600}),
    (
        "bulk_store_facts",
        "agent",
        {"records": [{"key": "bulk/a", "value": 1}, {"key": "skills/x", "value": 2}]},
    ),
    ("bulk_store_facts", "agent", {"records": [{"key": "bulk/b", "value": [2]}]}),
    ("read_facts", "agent", {}),
    ("read_facts", "agent", {"key_pattern": "none/*"}),
    ("read_facts", "agent", {"scopeKeys": ["shared:kb/alpha"]}),
    ("fact_history", "agent", {"key": "notes/plan"}),
    ("facts_search", "agent", {"query": "alpha"}),
    ("facts_search", "agent", {"query": ""}),
    ("facts_similar", "agent", {"scopeKey": "shared:kb/alpha"}),  # lexical: no model yet
    (EMBED, "", {}),
    ("facts_search", "agent", {"query": "alpha", "vector": [1, 0, 0, 0], "model": "toy-4"}),
    ("facts_similar", "agent", {"scopeKey": "shared:kb/alpha"}),
    ("facts_similar", "agent", {"scopeKey": "shared:unknown"}),
    ("search_skills", "agent", {"query": "deploy"}),
    (
        "graph_upsert_node",
        "crawler",
        {"kind": "person", "name": "Ana", "evidence": ["shared:kb/alpha"]},
    ),
    ("graph_upsert_node", "crawler", {"kind": "person", "name": "Bo", "namespace": "corpus/x"}),
    ("graph_upsert_node", "crawler", {"kind": "person", "name": "Cy"}),
    (
        "graph_upsert_edge",
        "crawler",
        {"fromKey": "person:ana", "toKey": "person:cy", "predicate": "knows"},
    ),
    ("graph_search_nodes", "agent", {}),
    ("graph_search_nodes", "agent", {"seeds": ["person:ana"], "depth": 2}),
    ("graph_search_edges", "agent", {}),
    ("graph_neighbourhood", "agent", {"nodeKey": "person:ana"}),
    ("graph_neighbourhood", "agent", {"nodeKey": "person:nobody"}),
    ("graph_stats", "tuner", {}),
    ("graph_stats", "tuner", {"namespace": "corpus/x"}),
    ("graph_merge_nodes", "crawler", {"fromKey": "person:cy", "intoKey": "person:ana"}),
    (
        "graph_delete_edge",
        "crawler",
        {"fromKey": "person:ana", "toKey": "person:ana", "predicateKey": "know"},
    ),
    ("graph_remove_evidence", "crawler", {"scopeKey": "shared:kb/alpha"}),
    ("graph_delete_node", "crawler", {"nodeKey": "person:bo"}),
    ("delete_fact", "agent", {"key": "notes/b"}),
    ("delete_fact", "agent", {"key": "notes/*", "pattern": True}),
    ("facts_read_uncrawled", "crawler", {}),
    ("facts_set_crawled", "crawler", {"scopeKeys": [{"scopeKey": "shared:kb/alpha", "etag": 1}]}),
    ("facts_set_crawled", "crawler", {"keyPrefix": "notes"}),
    ("facts_stats", "facts_manager", {}),
    ("facts_tombstone_stats", "facts_manager", {}),
    ("facts_purge_tombstones", "facts_manager", {"ttlSeconds": 0}),
    ("facts_force_purge", "operator", {"cutoff": "2020-01-01T00:00:00Z"}),
    ("delete_session", "facts_manager", {"session_id": "s1"}),
    (
        "record_memory",
        "agent",
        {"sourceKind": "chat", "sourceRef": "c/1", "lines": [{"id": "1", "text": "hi"}]},
    ),
    ("extraction_status", "agent", {"eventId": Last("eventId")}),
    ("force_extract", "facts_manager", {"memoryId": Last("memoryId")}),
    ("extraction_events", "facts_manager", {}),
    ("extraction_events", "tuner", {"state": "done"}),
    ("audit", "tuner", {}),
    ("audit", "operator", {"operation": "store", "limit": 5}),
    ("review_queue", "reviewer", {}),
    (HOLD, "", {}),
    ("review_queue", "reviewer", {"limit": 10}),
    ("review_candidate", "reviewer", {"candidateId": Last("candidateId")}),
    ("review_approve", "reviewer", {"candidateId": Last("candidateId"), "note": "seen"}),
    ("review_candidate", "tuner", {"candidateId": Last("candidateId")}),
    ("review_reject", "reviewer", {"candidateId": Last("otherCandidateId")}),
    ("review_candidate", "operator", {"candidateId": Last("otherCandidateId")}),
    ("fact_review_queue", "reviewer", {}),
    (HOLD_FACTS, "", {}),
    ("fact_review_queue", "tuner", {"limit": 10}),
    ("fact_review_approve", "reviewer", {"candidateId": Last("factCandidateId"), "note": "ok"}),
    ("fact_review_reject", "operator", {"candidateId": Last("otherFactCandidateId")}),
]


def _embed_everything(op: Caller) -> None:
    op.one("SELECT pgfacts.register_embedding_model('toy-4', 4)")
    ids = op.rows("SELECT item_id FROM pgfacts.search('alpha', item_kinds => '{fact}')")
    rows = [{"item_kind": "fact", "item_id": r[0], "embedding": [1, 0, 0, 0]} for r in ids]
    op.one("SELECT pgfacts.set_embeddings('toy-4', %s)", Jsonb(rows))


def _hold_for_review(op: Caller) -> dict[str, int]:
    """Two claims of a third-party source, held as candidates: their ids."""
    op.one("SELECT pgfacts.set_setting('review_below_trust', '2')")
    op.one("SELECT pgfacts.define_predicate('likes', 'many')")
    subject = op.one("SELECT pgfacts.ensure_entity('person', 'Ana')")
    claims = [
        {"subject": subject, "predicate": "likes", "object": o, "valid_from": "2024-01-01"}
        for o in ("tea", "rain")
    ]
    episode = {
        "source_kind": "web",
        "source_ref": "w/1",
        "content_hash": "h",
        "trust": "third_party",
    }
    written = op.one("SELECT pgfacts.ingest(%s, %s)", Jsonb(episode), Jsonb(claims))
    held = [o["candidate_id"] for o in written["outcomes"]]
    return {"candidateId": held[0], "otherCandidateId": held[1]}


def _hold_facts_for_review(db: Database, tenant: str) -> dict[str, int]:
    """Two shared fact writes of a task agent under a review key prefix: their ids."""
    Caller(db, tenant=tenant).one("SELECT pgfacts.set_review_key_prefixes('{held/}')")
    agent = Caller(db, tenant=tenant, kind="agent", session="s1")
    for key in ("held/a", "held/b"):
        agent.one("SELECT pgfacts.store_fact(%s, '1', shared => true)", key)
    held = Caller(db, tenant=tenant, kind="reviewer").one("SELECT pgfacts.fact_review_queue()")
    return {
        "factCandidateId": held[0]["candidate_id"],
        "otherFactCandidateId": held[1]["candidate_id"],
    }


def sample_setup(name: str, db: Database, tenant: str = "t1") -> dict[str, Any] | None:
    """A sample that is a setup step (EMBED, HOLD, HOLD_FACTS), done in tenant: the ids it
    leaves for later samples; None for a tool call."""
    if name == EMBED:
        _embed_everything(Caller(db, kind="facts_manager", tenant=tenant))
        return {}
    if name == HOLD:
        return _hold_for_review(Caller(db, tenant=tenant))
    if name == HOLD_FACTS:
        return _hold_facts_for_review(db, tenant)
    return None


def test_every_tool_states_its_output_schema_and_hints(db: Database) -> None:
    with db.connect("app") as conn:
        rows = conn.execute(
            "SELECT name, output_schema, read_only, destructive, idempotent "
            "FROM pgfacts_internal.tools ORDER BY position"
        ).fetchall()
    assert rows, "no tools registered"
    for name, schema, read_only, destructive, idempotent in rows:
        assert schema["type"] == "object" and schema["properties"], name
        jsonschema.Draft202012Validator.check_schema(schema)
        assert None not in (read_only, destructive, idempotent), name
        assert not (read_only and destructive), name
    # Every tool has samples below, so none escapes the validation.
    assert {r[0] for r in rows} == {name for name, _, _ in SAMPLES} - {EMBED, HOLD, HOLD_FACTS}


def test_every_result_validates_against_its_output_schema(db: Database) -> None:
    caller = Caller(db, session="s1")
    definitions = {d["name"]: d for d in caller.one("SELECT pgfacts.tool_definitions()")}
    modes = []
    latest: dict[str, Any] = {}
    for name, kind, args in SAMPLES:
        if (setup := sample_setup(name, db)) is not None:
            latest.update(setup)
            continue
        result = caller(name, resolved(args, latest), kind=kind)
        latest.update(result)
        jsonschema.validate(result, definitions[name]["output_schema"])
        if name == "facts_similar" and result["count"]:
            modes.append(result["mode"])
    assert modes == ["lexical", "semantic"]


def test_the_formats_carry_the_hints_mcp_has_room_for(db: Database) -> None:
    definitions = Caller(db).one("SELECT pgfacts.tool_definitions()")
    mcp = {t["name"]: t for t in tools.render(definitions, "mcp")}
    assert mcp["read_facts"]["annotations"] == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }
    assert mcp["delete_fact"]["annotations"]["destructiveHint"] is True
    assert mcp["store_fact"]["outputSchema"]["required"] == ["stored"]
    # OpenAI and Anthropic take no result schema or hints: unknown fields are refused there.
    assert set(tools.render(definitions, "openai")[0]["function"]) == {
        "name",
        "description",
        "parameters",
    }
    assert set(tools.render(definitions, "anthropic")[0]) == {"name", "description", "input_schema"}


def _available(db: Database, kind: str, tenant: str = "t1") -> list[str]:
    return [
        t["name"]
        for t in Caller(db, kind=kind, tenant=tenant).one("SELECT pgfacts.available_tools()")
    ]


def test_available_tools_follow_the_kind_and_the_tenants_embedding_model(db: Database) -> None:
    definitions = Caller(db).one("SELECT pgfacts.tool_definitions()")
    for kind in ("agent", "facts_manager", "crawler", "tuner", "operator", "reviewer"):
        offered = _available(db, kind)
        allowed = [d["name"] for d in tools.for_kind(definitions, kind)]
        assert offered == [n for n in allowed if n != "facts_similar"], kind
    crawl = {"facts_read_uncrawled", "facts_set_crawled"}
    assert crawl <= set(_available(db, "crawler")) and crawl <= set(_available(db, "facts_manager"))
    assert not crawl & set(_available(db, "agent"))
    Caller(db, kind="facts_manager").one("SELECT pgfacts.register_embedding_model('toy-4', 4)")
    assert "facts_similar" in _available(db, "agent")
    assert "facts_similar" not in _available(db, "agent", tenant="t2")
    tool = Caller(db).one("SELECT pgfacts.available_tools()")[0]
    assert set(tool) == {"name", "description", "input_schema", "output_schema", "hints"}


def test_available_tools_needs_a_tenant(db: Database) -> None:
    with db.connect("app") as conn, pytest.raises(psycopg.Error) as refused:
        conn.execute("SELECT pgfacts.available_tools()")
    assert refused.value.sqlstate == "42501"
