"""The graph's writes through the tools: resolve before create, reinforcement by noisy-OR,
idempotent replays, merges, deletes and evidence removal, and bad input refused with
nothing written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from .conftest import Database
from .support.caller import Caller

GRAPH_TABLES = (
    "graph_nodes",
    "graph_node_names",
    "graph_edges",
    "graph_node_evidence",
    "graph_edge_evidence",
)


@pytest.fixture
def crawler(db: Database) -> Iterator[Caller]:
    caller = Caller(db, kind="crawler", session="s1", agent="crawler-1")
    yield caller
    caller.close()


def graph_rows(db: Database) -> dict[str, list[Any]]:
    """Every row of the graph tables (superuser, no RLS), for 'nothing changed' checks."""
    with db.admin() as admin:
        return {
            t: admin.execute(f"SELECT * FROM pgfacts_internal.{t} ORDER BY 1, 2, 3").fetchall()
            for t in GRAPH_TABLES
        }


def facts(c: Caller, *keys: str) -> list[str]:
    for key in keys:
        c.fact(key, f"value of {key}")
    return [f"shared:{k}" for k in keys]


def node(c: Caller, kind: str, name: str, **args: Any) -> dict[str, Any]:
    return c("graph_upsert_node", {"kind": kind, "name": name, **args})


def edge(c: Caller, a: str, b: str, predicate: str = "works with", **args: Any) -> dict[str, Any]:
    return c("graph_upsert_edge", {"fromKey": a, "toKey": b, "predicate": predicate, **args})


def two_nodes(c: Caller) -> None:
    node(c, "person", "Tom Lane")
    node(c, "project", "PostgreSQL")


def test_reinforcement_is_noisy_or_once_per_new_evidence(crawler: Caller) -> None:
    e1, e2, e3 = facts(crawler, "n/1", "n/2", "n/3")
    two_nodes(crawler)
    created = edge(crawler, "person:tom-lane", "project:postgresql", confidence=0.8, evidence=[e1])
    assert created["outcome"] == "created" and created["observations"] == 1
    assert created["predicateKey"] == "work"
    again = edge(
        crawler,
        "person:tom-lane",
        "project:postgresql",
        "Works With!",
        confidence=0.5,
        evidence=[e2],
    )
    assert again["outcome"] == "reinforced"
    assert again["confidence"] == pytest.approx(0.9) and again["observations"] == 2
    # Repeated evidence in one call counts once; known and new evidence together reinforce
    # once.
    mixed = edge(
        crawler, "person:tom-lane", "project:postgresql", confidence=0.5, evidence=[e1, e3, e3]
    )
    assert mixed["observations"] == 3
    assert mixed["confidence"] == pytest.approx(1 - 0.1 * 0.5)
    [row] = crawler("graph_search_edges", {"fromKey": "person:tom-lane"})["edges"]
    assert row["evidence"] == sorted([e1, e2, e3]) and row["observations"] == 3


def test_a_replay_of_known_evidence_changes_nothing_not_even_last_seen(
    crawler: Caller, db: Database
) -> None:
    [e1] = facts(crawler, "n/1")
    two_nodes(crawler)
    edge(crawler, "person:tom-lane", "project:postgresql", confidence=0.6, evidence=[e1])
    node(crawler, "person", "Tom Lane", evidence=[e1], aliases=["tgl"])
    before = graph_rows(db)
    replay = edge(crawler, "person:tom-lane", "project:postgresql", confidence=0.9, evidence=[e1])
    assert replay["outcome"] == "unchanged" and replay["observations"] == 1
    assert replay["confidence"] == pytest.approx(0.6)
    again = node(crawler, "person", "tom lane", evidence=[e1], aliases=["TGL"])
    assert again["created"] is False and again["evidenceAdded"] == 0
    after = graph_rows(db)
    for table in ("graph_edges", "graph_node_evidence", "graph_edge_evidence", "graph_node_names"):
        assert after[table] == before[table], table


def test_a_reassert_without_evidence_reinforces(crawler: Caller) -> None:
    two_nodes(crawler)
    edge(crawler, "person:tom-lane", "project:postgresql", confidence=0.5)
    second = edge(crawler, "person:tom-lane", "project:postgresql", confidence=0.5)
    assert second["outcome"] == "reinforced" and second["observations"] == 2
    assert second["confidence"] == pytest.approx(0.75)
    third = edge(crawler, "person:tom-lane", "project:postgresql")  # default confidence 1
    assert third["confidence"] == 1 and third["observations"] == 3


def test_resolve_before_create_through_names_and_aliases(crawler: Caller) -> None:
    first = node(crawler, "Person", "Tom  Lane!", aliases=["tgl", "Tom Lane"])
    assert first["created"] and first["nodeKey"] == "person:tom-lane"
    assert first["aliases"] == ["tgl"]  # its own name is not an alias
    for kind, name in (("person", "TGL"), ("PERSON", "tom lane"), ("person", "Tóm Lané")):
        hit = node(crawler, kind, name)
        assert hit["created"] is False and hit["nodeKey"] == "person:tom-lane", name
    # Resolving by an alias adds the name used as an alias too (once).
    assert node(crawler, "person", "TGL")["aliases"] == ["tgl"]
    other = node(crawler, "project", "tgl")
    assert other["created"] and other["nodeKey"] == "project:tgl"  # kinds keep names apart
    assert crawler("graph_search_nodes", {"kind": "person"})["count"] == 1


def test_kinds_shared_session_and_claim_never_key_like_seeds(crawler: Caller) -> None:
    keys = [
        node(crawler, kind, "x")["nodeKey"] for kind in ("shared", "session", "claim", "Shared")
    ]
    assert keys == ["shared_:x", "session_:x", "claim_:x", "shared_:x"]


def test_namespace_given_replaces_omitted_keeps_default_clears(crawler: Caller) -> None:
    assert node(crawler, "person", "a", namespace="corpus/acme/")["namespace"] == "corpus/acme"
    assert node(crawler, "person", "a")["namespace"] == "corpus/acme"
    assert node(crawler, "person", "a", namespace="Default")["namespace"] is None


def test_a_write_without_an_agent_id_is_recorded_by_kind(db: Database) -> None:
    anonymous = Caller(db, kind="agent", session="s9")
    try:
        node(anonymous, "person", "nobody")
        [row] = anonymous.rows(
            "SELECT created_by, node_kind FROM pgfacts.graph_search_nodes(name_like => 'nobody')"
        )
        assert row == (None, "person")
        with db.admin() as admin:
            kind = admin.execute(
                "SELECT created_kind, created_session FROM pgfacts_internal.graph_nodes"
            ).fetchone()
        assert kind == ("agent", "s9")
    finally:
        anonymous.close()


def test_the_tuner_writes_nothing_even_claiming_to_be_a_crawler(db: Database) -> None:
    tuner = Caller(db, kind="tuner")
    try:
        for name, args in (
            ("graph_upsert_node", {"kind": "person", "name": "x"}),
            ("graph_upsert_edge", {"fromKey": "a:b", "toKey": "c:d", "predicate": "p"}),
            ("graph_merge_nodes", {"fromKey": "a:b", "intoKey": "c:d"}),
            ("graph_delete_node", {"nodeKey": "a:b"}),
            ("graph_delete_edge", {"fromKey": "a:b", "toKey": "c:d", "predicateKey": "p"}),
            ("graph_remove_evidence", {"scopeKey": "shared:x"}),
        ):
            with pytest.raises(psycopg.Error) as info:
                tuner(name, args)
            assert info.value.sqlstate == "42501", name
        # A login holding only the tuner role cannot claim the crawler kind.
        with pytest.raises(psycopg.Error) as info:
            tuner(
                "graph_upsert_node", {"kind": "person", "name": "x"}, login="tuner", kind="crawler"
            )
        assert info.value.sqlstate == "42501"
        # ... nor run the write functions at all: EXECUTE is not granted.
        with db.connect("tuner") as conn, pytest.raises(psycopg.Error) as info:
            conn.execute("SELECT pgfacts.set_context('t1', agent_kind => 'tuner')")
            conn.execute("SELECT pgfacts.graph_upsert_node('person', 'x')")
        assert info.value.sqlstate == "42501"
    finally:
        tuner.close()
    assert graph_rows(db)["graph_nodes"] == []


def test_merge_moves_names_edges_and_evidence(crawler: Caller, db: Database) -> None:
    e1, e2, e3 = facts(crawler, "m/1", "m/2", "m/3")
    node(crawler, "person", "Tom", evidence=[e1], namespace="corpus/a")
    node(crawler, "person", "Tom Lane", aliases=["tgl"], evidence=[e2])
    node(crawler, "project", "pg")
    node(crawler, "project", "core")
    edge(crawler, "person:tom", "project:pg", confidence=0.5, evidence=[e1])
    edge(crawler, "person:tom-lane", "project:pg", confidence=0.5, evidence=[e2])
    edge(crawler, "person:tom", "project:core", confidence=0.7, evidence=[e3], namespace="ns/x")
    edge(crawler, "person:tom", "person:tom-lane", "same as", evidence=[e3])
    merged = crawler(
        "graph_merge_nodes",
        {"fromKey": "person:tom", "intoKey": "person:tgl", "reason": "one person"},
    )
    assert merged == {
        "fromKey": "person:tom",
        "intoKey": "person:tom-lane",
        "merged": True,
        "edgesMoved": 3,
    }
    [survivor] = crawler("graph_search_nodes", {"kind": "person"})["nodes"]
    assert survivor["nodeKey"] == "person:tom-lane" and survivor["aliases"] == ["tgl", "Tom"]
    assert survivor["evidence"] == sorted([e1, e2, e3])  # e3 from the edge between the two
    assert survivor["namespace"] == "corpus/a"
    edges = {e["toKey"]: e for e in crawler("graph_search_edges", {})["edges"]}
    assert set(edges) == {"project:pg", "project:core"}
    assert edges["project:pg"]["confidence"] == pytest.approx(0.75)
    assert edges["project:pg"]["observations"] == 2
    assert edges["project:pg"]["evidence"] == sorted([e1, e2])
    assert edges["project:core"]["namespace"] == "ns/x"  # repointed, namespace kept
    assert edges["project:core"]["assertedBy"] == ["crawler-1"]
    # The duplicate's key now resolves to the survivor.
    assert node(crawler, "person", "Tom")["nodeKey"] == "person:tom-lane"
    assert edge(crawler, "person:tom", "project:core", evidence=[e3])["outcome"] == "unchanged"
    # A second merge of the same duplicate finds nothing to merge.
    again = crawler("graph_merge_nodes", {"fromKey": "person:tom", "intoKey": "person:tom-lane"})
    assert again["merged"] is False
    with pytest.raises(psycopg.Error) as info:
        crawler("graph_merge_nodes", {"fromKey": "project:pg", "intoKey": "person:nobody"})
    assert info.value.sqlstate == "P0002"


def test_merge_drops_a_duplicate_edge_whose_evidence_is_known(crawler: Caller) -> None:
    [e1] = facts(crawler, "d/1")
    for name in ("a", "b", "x"):
        node(crawler, "thing", name)
    edge(crawler, "thing:a", "thing:x", confidence=0.5, evidence=[e1])
    edge(crawler, "thing:b", "thing:x", confidence=0.5, evidence=[e1])
    crawler("graph_merge_nodes", {"fromKey": "thing:a", "intoKey": "thing:b"})
    [row] = crawler("graph_search_edges", {})["edges"]
    assert row["observations"] == 1 and row["confidence"] == pytest.approx(0.5)


def test_delete_node_and_edge(crawler: Caller, db: Database) -> None:
    [e1] = facts(crawler, "x/1")
    two_nodes(crawler)
    edge(crawler, "person:tom-lane", "project:postgresql", evidence=[e1])
    args = {"fromKey": "person:tom-lane", "toKey": "project:postgresql", "predicateKey": "work"}
    assert crawler("graph_delete_edge", {**args, "namespace": "other"})["deleted"] is False
    assert crawler("graph_delete_edge", args)["deleted"] is True
    assert crawler("graph_delete_edge", args)["deleted"] is False
    edge(crawler, "person:tom-lane", "project:postgresql", evidence=[e1])
    assert crawler("graph_delete_node", {"nodeKey": "person:tgl"})["deleted"] is False
    assert crawler("graph_delete_node", {"nodeKey": "person:tom-lane"})["deleted"] is True
    rows = graph_rows(db)
    assert rows["graph_edges"] == [] and rows["graph_edge_evidence"] == []
    assert len(rows["graph_nodes"]) == 1 and len(rows["graph_node_names"]) == 1
    assert crawler.one("SELECT count(*) FROM pgfacts.read_facts()") == 1  # facts untouched


def test_remove_evidence_keeps_what_another_source_supports(crawler: Caller) -> None:
    e1, e2 = facts(crawler, "r/1", "r/2")
    node(crawler, "person", "a", evidence=[e1])
    node(crawler, "person", "b", evidence=[e1])
    node(crawler, "person", "c", evidence=[e1, e2])
    node(crawler, "person", "d")
    edge(crawler, "person:a", "person:b", confidence=0.5, evidence=[e1])
    edge(crawler, "person:a", "person:b", "knows", confidence=0.5, evidence=[e1])
    edge(crawler, "person:a", "person:b", "knows", confidence=0.5, evidence=[e2])
    crawler.one("SELECT pgfacts.delete_fact('r/1', shared => true)")
    [hit] = crawler("graph_search_edges", {"predicate": "knows"})["edges"]
    assert hit["staleEvidence"] == [e1]  # deleted since, shown until reconciled
    result = crawler("graph_remove_evidence", {"scopeKey": e1})
    assert result == {
        "scopeKey": e1,
        "nodeEvidenceRemoved": 3,
        "edgeEvidenceRemoved": 2,
        "edgesDeleted": 1,
        "nodesDeleted": 0,
    }
    # a and b keep the knows edge; c keeps e2; d was never touched.
    nodes = {n["nodeKey"]: n for n in crawler("graph_search_nodes", {})["nodes"]}
    assert set(nodes) == {"person:a", "person:b", "person:c", "person:d"}
    [left] = crawler("graph_search_edges", {})["edges"]
    assert left["predicateKey"] == "know" and left["evidence"] == [e2]
    # Removing evidence does not lower confidence: it records what was observed.
    assert left["confidence"] == pytest.approx(0.75) and left["observations"] == 2
    second = crawler("graph_remove_evidence", {"scopeKey": e2})
    assert second["edgesDeleted"] == 1 and second["nodesDeleted"] == 3  # a, b, c; d had none
    assert [n["nodeKey"] for n in crawler("graph_search_nodes", {})["nodes"]] == ["person:d"]


def test_remove_evidence_is_the_crawlers_and_the_facts_managers(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1")
    try:
        with pytest.raises(psycopg.Error) as info:
            agent("graph_remove_evidence", {"scopeKey": "shared:x"})
        assert info.value.sqlstate == "42501"
        manager = Caller(db, kind="facts_manager")
        assert manager("graph_remove_evidence", {"scopeKey": "shared:x"})["edgesDeleted"] == 0
        manager.close()
    finally:
        agent.close()


BAD_NODES = [
    {"kind": "a:b", "name": "x"},
    {"kind": "", "name": "x"},
    {"kind": "person", "name": "   "},
    {"kind": "person", "name": "!!!"},
    {"kind": "person", "name": "$$"},
    {"kind": "$$", "name": "x"},
    {"kind": "person", "name": "x\x01"},
    {"kind": "person", "name": "n" * 501},
    {"kind": "k" * 101, "name": "x"},
    {"kind": "person", "name": "ﷺ" * 100},  # 100 characters whose key is far over 1024 bytes
    {"kind": "person", "name": "x", "aliases": [""]},
    {"kind": "person", "name": "x", "aliases": ["a"] * 65},
    {"kind": "person", "name": "x", "evidence": ["not a scope key"]},
    {"kind": "person", "name": "x", "evidence": ["shared:"]},
    {"kind": "person", "name": "x", "evidence": ["claim:abc"]},
    {"kind": "person", "name": "x", "evidence": ["shared:k"] * 101},
    {"kind": "person", "name": "x", "namespace": "n" * 257},
    {"kind": "person", "name": "x", "namespace": "a\nb"},
]


@pytest.mark.parametrize("args", BAD_NODES, ids=range(len(BAD_NODES)))
def test_bad_node_input_is_22023_and_writes_nothing(
    crawler: Caller, db: Database, args: dict[str, Any]
) -> None:
    with pytest.raises(psycopg.Error) as info:
        crawler("graph_upsert_node", args)
    assert info.value.sqlstate == "22023", info.value
    assert all(rows == [] for rows in graph_rows(db).values())


@pytest.mark.parametrize(
    "text", ["a$$b", "$cy$ MATCH (n) DETACH DELETE n $cy$", "Andres's VM", "back\\slash", '"q"']
)
def test_quotes_dollars_and_backslashes_round_trip(crawler: Caller, text: str) -> None:
    made = node(crawler, f"kind {text}".replace(":", ""), text, aliases=[text + " alias"])
    [row] = crawler("graph_search_nodes", {"nameLike": text})["nodes"]
    assert row["name"] == text.strip() and row["nodeKey"] == made["nodeKey"]
    node(crawler, "other", "end")
    out = edge(crawler, made["nodeKey"], "other:end", text)
    assert out["predicate"] == text.strip()


def test_nul_in_a_tool_argument_is_refused_by_json_itself(crawler: Caller, db: Database) -> None:
    with pytest.raises(psycopg.Error) as info:
        crawler.one(
            "SELECT pgfacts.call_tool('graph_upsert_node', "
            '\'{"kind": "person", "name": "a\\u0000b"}\'::jsonb, '
            '\'{"tenant": "t1", "agent_kind": "crawler"}\')'
        )
    assert info.value.sqlstate in ("22P05", "22023")
    assert all(rows == [] for rows in graph_rows(db).values())


BAD_EDGES = [
    ({"fromKey": "person:a", "toKey": "person:a", "predicate": "p"}, "22023"),
    ({"fromKey": "person:a", "toKey": "person:b", "predicate": "of the"}, "22023"),
    ({"fromKey": "person:a", "toKey": "person:b", "predicate": "p", "confidence": 1.01}, "22023"),
    ({"fromKey": "person:a", "toKey": "person:b", "predicate": "p", "confidence": -0.1}, "22023"),
    ({"fromKey": "person:a", "toKey": "person:b", "predicate": "p", "confidence": "high"}, "22023"),
    ({"fromKey": "person:a", "toKey": "person:zz", "predicate": "p"}, "P0002"),
    ({"fromKey": "x" * 1025, "toKey": "person:b", "predicate": "p"}, "22023"),
    ({"fromKey": "person:a", "toKey": "person:b", "predicate": "p" * 201}, "22023"),
    (
        {"fromKey": "person:a", "toKey": "person:b", "predicate": "p", "evidence": ["claim:999"]},
        "P0002",
    ),
    (
        {
            "fromKey": "person:a",
            "toKey": "person:b",
            "predicate": "p",
            "evidence": ["session:elsewhere:k"],
        },
        "42501",
    ),
]


@pytest.mark.parametrize(("args", "state"), BAD_EDGES, ids=range(len(BAD_EDGES)))
def test_bad_edge_input_is_refused_and_writes_nothing(
    db: Database, args: dict[str, Any], state: str
) -> None:
    agent = Caller(db, kind="agent", session="s1")
    try:
        node(agent, "person", "a")
        node(agent, "person", "b")
        before = graph_rows(db)
        with pytest.raises(psycopg.Error) as info:
            agent("graph_upsert_edge", args)
        assert info.value.sqlstate == state, info.value
        assert graph_rows(db) == before
    finally:
        agent.close()


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("graph_search_nodes", {"depth": 0}),
        ("graph_search_nodes", {"depth": 6}),
        ("graph_search_nodes", {"limit": 0}),
        ("graph_search_nodes", {"limit": 501}),
        ("graph_search_edges", {"limit": 501}),
        ("graph_search_edges", {"minConfidence": 2}),
        ("graph_search_edges", {"predicate": "works with", "predicateKey": "other"}),
        ("graph_neighbourhood", {"nodeKey": "a:b", "depth": 6}),
        ("graph_neighbourhood", {"nodeKey": "a:b", "limit": 1001}),
        ("graph_neighbourhood", {}),
        ("graph_search_nodes", {"seeds": ["a:b"] * 101}),
    ],
)
def test_out_of_range_reads_are_22023(call: Caller, tool: str, args: dict[str, Any]) -> None:
    with pytest.raises(psycopg.Error) as info:
        call(tool, args)
    assert info.value.sqlstate == "22023"


def test_the_tool_boundary_renames_keys_never_values(db: Database) -> None:
    """camel_keys works on the document's text: a value that looks like a key stays as it
    was written (it once came back as say "hiThere": ok)."""
    doc = {
        "node_key": "x",
        "name": 'say "hi_there": ok',
        "tail": "end, ",
        "nested_map": {"evidence_keys": [{"scope_key": 'a, "b_c": d'}]},
        "brace": '{"q_r": 1',
    }
    with db.admin() as admin:
        [(got,)] = admin.execute(
            "SELECT pgfacts_internal.camel_keys(%s::jsonb)", (json.dumps(doc),)
        ).fetchall()
    assert got == {
        "nodeKey": "x",
        "name": 'say "hi_there": ok',
        "tail": "end, ",
        "nestedMap": {"evidenceKeys": [{"scopeKey": 'a, "b_c": d'}]},
        "brace": '{"q_r": 1',
    }
