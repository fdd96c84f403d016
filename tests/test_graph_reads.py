"""Reading the graph: namespaces, evidence filtered for every kind of reader by the one
fact-visibility rule, seeds that are no existence oracle, claims as evidence across a purge
replay, tenant separation, statistics."""

from __future__ import annotations

import itertools
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller


def node(c: Caller, name: str, namespace: str | None = None, **args: Any) -> str:
    if namespace is not None:
        args["namespace"] = namespace
    return c("graph_upsert_node", {"kind": "thing", "name": name, **args})["nodeKey"]  # type: ignore[no-any-return]


def keys(result: dict[str, Any]) -> list[str]:
    return sorted(n["nodeKey"] for n in result["nodes"])


NAMESPACES = {
    "acme": "corpus/acme",
    "services": "corpus/acme/services",
    "eu": "corpus/acme-eu",
    "acmex": "corpus/acmex",
    "a_b": "corpus/a_b",
    "aXb": "corpus/aXb",
    "none": None,
}


def test_namespaces_are_literal_path_prefixes(db: Database) -> None:
    c = Caller(db, kind="crawler")
    for name, namespace in NAMESPACES.items():
        node(c, name, namespace)

    def found(namespace: str) -> list[str]:
        return keys(c("graph_search_nodes", {"namespace": namespace}))

    assert found("corpus/acme") == ["thing:acme", "thing:services"]
    assert found("corpus/acme/") == ["thing:acme", "thing:services"]
    assert found("corpus/acme/services") == ["thing:services"]
    assert found("corpus/a_b") == ["thing:a-b"]
    assert found("corpus/a%") == []
    assert found("default") == ["thing:none"]
    assert found("DEFAULT") == ["thing:none"]
    assert len(keys(c("graph_search_nodes", {}))) == len(NAMESPACES)
    # An edge matches through itself or either endpoint.
    c("graph_upsert_edge", {"fromKey": "thing:eu", "toKey": "thing:acme", "predicate": "near"})
    c(
        "graph_upsert_edge",
        {
            "fromKey": "thing:none",
            "toKey": "thing:acmex",
            "predicate": "near",
            "namespace": "corpus/acme/x",
        },
    )
    c("graph_upsert_edge", {"fromKey": "thing:eu", "toKey": "thing:acmex", "predicate": "near"})

    def edges(namespace: str) -> list[tuple[str, str]]:
        found_edges = c("graph_search_edges", {"namespace": namespace})["edges"]
        return sorted((e["fromKey"], e["toKey"]) for e in found_edges)

    assert edges("corpus/acme") == [("thing:eu", "thing:acme"), ("thing:none", "thing:acmex")]
    assert edges("corpus/acme-eu") == [("thing:eu", "thing:acme"), ("thing:eu", "thing:acmex")]
    assert edges("default") == [
        ("thing:eu", "thing:acme"),
        ("thing:eu", "thing:acmex"),
        ("thing:none", "thing:acmex"),
    ]
    # Neighbourhoods keep their start and filter the others by namespace.
    around = c("graph_neighbourhood", {"nodeKey": "thing:eu", "namespace": "corpus/acme"})
    assert keys(around) == ["thing:acme", "thing:eu"]
    # Deletes and merges only touch what is in the namespace given.
    assert (
        c("graph_delete_node", {"nodeKey": "thing:eu", "namespace": "corpus/acme"})["deleted"]
        is False
    )
    merged = c(
        "graph_merge_nodes",
        {"fromKey": "thing:acmex", "intoKey": "thing:acme", "namespace": "corpus/acme"},
    )
    assert merged["merged"] is False
    c.close()


@pytest.fixture
def evidence_world(db: Database) -> dict[str, str]:
    """One node anchored by five facts: shared, the s1 tree's (root and child), another
    tree's, and a reserved intake/ one. Written by a facts manager, who reads them all."""
    sources = {}
    root = Caller(db, kind="agent", session="s1", agent="a1")
    sources["own"] = root.one("SELECT pgfacts.store_fact('own', '1')") and "session:s1:own"
    child = Caller(db, kind="agent", session="s1c", parent="s1")
    child.one("SELECT pgfacts.store_fact('child', '1')")
    sources["child"] = "session:s1c:child"
    other = Caller(db, kind="agent", session="s9")
    other.one("SELECT pgfacts.store_fact('other', '1')")
    sources["other"] = "session:s9:other"
    root.fact("pub", 1)
    sources["pub"] = "shared:pub"
    root.fact("intake/obs/s1", 1)
    sources["intake"] = "shared:intake/obs/s1"
    manager = Caller(db, kind="facts_manager")
    node(manager, "anchor", evidence=list(sources.values()))
    node(manager, "end")
    manager(
        "graph_upsert_edge",
        {
            "fromKey": "thing:anchor",
            "toKey": "thing:end",
            "predicate": "p",
            "evidence": list(sources.values()),
        },
    )
    for c in (root, child, other, manager):
        c.close()
    return sources


READERS = [
    # (kind, session, what it sees)
    ("agent", "s1", {"pub", "own", "child"}),
    ("agent", "s1c", {"pub", "own", "child"}),
    ("agent", "s9", {"pub", "other"}),
    ("agent", None, {"pub"}),
    ("crawler", None, {"pub", "own", "child", "other"}),
    ("facts_manager", None, {"pub", "own", "child", "other", "intake"}),
    ("tuner", None, {"pub", "own", "child", "other", "intake"}),
    ("operator", None, {"pub", "own", "child", "other"}),
]


@pytest.mark.parametrize(("kind", "session", "sees"), READERS)
def test_evidence_is_filtered_for_every_kind_of_reader(
    db: Database, evidence_world: dict[str, str], kind: str, session: str | None, sees: set[str]
) -> None:
    reader = Caller(db, kind=kind, session=session)
    expected = sorted(evidence_world[s] for s in sees)
    [hit] = reader("graph_search_nodes", {"nameLike": "anchor"})["nodes"]
    assert hit["evidence"] == expected
    [edge] = reader("graph_search_edges", {})["edges"]
    assert edge["evidence"] == expected
    around = reader("graph_neighbourhood", {"nodeKey": "thing:anchor"})
    assert [n["evidence"] for n in around["nodes"] if n["nodeKey"] == "thing:anchor"] == [expected]
    assert around["edges"][0]["evidence"] == expected
    # Topology is shared: every reader sees both nodes and the edge.
    assert keys(around) == ["thing:anchor", "thing:end"]
    # What evidence shows, read_facts_by_scope_keys resolves (and nothing more).
    resolved = reader.rows(
        "SELECT scope_key FROM pgfacts.read_facts_by_scope_keys(%s)", list(evidence_world.values())
    )
    assert sorted(r[0] for r in resolved) == expected
    reader.close()


def test_an_inaccessible_fact_seed_answers_like_an_unknown_one(
    db: Database, evidence_world: dict[str, str]
) -> None:
    outsider = Caller(db, kind="agent", session="s9")
    inaccessible = evidence_world["own"]  # exists, in another spawn tree
    unknown = "session:s1:no-such-fact"
    answers = []
    for seed in (inaccessible, unknown):
        answers.append(
            (
                outsider("graph_search_nodes", {"seeds": [seed]}),
                outsider("graph_neighbourhood", {"seeds": [seed]}),
                outsider("graph_search_nodes", {"seeds": [seed, "thing:end"], "depth": 1}),
            )
        )
    assert answers[0] == answers[1]
    assert answers[0][0] == {"count": 0, "nodes": []}
    # A reserved key is inaccessible in the same way to a kind that may not read it.
    crawler = Caller(db, kind="crawler")
    assert crawler("graph_search_nodes", {"seeds": [evidence_world["intake"]]})["count"] == 0
    assert crawler("graph_search_nodes", {"seeds": [evidence_world["own"]]})["count"] == 2
    # The same seed read by someone who may read it pivots to both anchored nodes.
    owner = Caller(db, kind="agent", session="s1")
    assert keys(owner("graph_search_nodes", {"seeds": [inaccessible]})) == [
        "thing:anchor",
        "thing:end",
    ]
    # Citing it as evidence is refused by its shape alone, exactly as an unknown one is.
    for seed in (inaccessible, unknown):
        with pytest.raises(psycopg.Error) as info:
            outsider("graph_upsert_node", {"kind": "thing", "name": "x", "evidence": [seed]})
        assert info.value.sqlstate == "42501"
        assert "no-such-fact" not in str(info.value) or seed == unknown
    for c in (outsider, crawler, owner):
        c.close()


def test_nodes_of_kind_shared_or_session_are_never_fact_seeds(db: Database) -> None:
    c = Caller(db, kind="crawler")
    c.fact("x", 1)
    c("graph_upsert_node", {"kind": "shared", "name": "x"})
    c("graph_upsert_node", {"kind": "session", "name": "s1 x"})
    c("graph_upsert_node", {"kind": "thing", "name": "t", "evidence": ["shared:x"]})
    # The fact seed shared:x pivots to the node it anchors, not to the node of kind shared.
    assert keys(c("graph_search_nodes", {"seeds": ["shared:x"]})) == ["thing:t"]
    assert keys(c("graph_search_nodes", {"seeds": ["shared_:x"]})) == ["shared_:x"]
    assert keys(c("graph_search_nodes", {"kind": "session"})) == ["session_:s1-x"]
    c.close()


def test_seeds_expand_by_depth(db: Database) -> None:
    c = Caller(db, kind="crawler")
    chain = [node(c, f"c{i}") for i in range(7)]
    for a, b in itertools.pairwise(chain):
        c("graph_upsert_edge", {"fromKey": a, "toKey": b, "predicate": "next"})
    for depth in range(1, 6):
        hits = c("graph_search_nodes", {"seeds": [chain[0]], "depth": depth})["nodes"]
        assert [h["nodeKey"] for h in hits] == chain[: depth + 1]
        assert [h["distance"] for h in hits] == list(range(depth + 1))
        around = c("graph_neighbourhood", {"nodeKey": chain[3], "depth": depth})
        assert len(around["nodes"]) == min(7, 4 + depth) - max(0, 3 - depth)
        assert len(around["edges"]) == len(around["nodes"]) - 1
    assert c("graph_neighbourhood", {"nodeKey": "thing:nowhere"}) == {"nodes": [], "edges": []}
    c.close()


def test_claims_as_evidence_survive_a_purge_replay_and_go_stale_when_retracted(
    db: Database,
) -> None:
    k = Caller(db, kind="operator", agent="op")
    k.one("SELECT pgfacts.define_predicate('works_with', 'many')")
    tom, bruce = k.entity("Tom"), k.entity("Bruce")
    claim = {
        "subject": tom,
        "predicate": "works_with",
        "object_entity": bruce,
        "valid_from": "2026-01-01",
    }
    first = k.ingest("mail-1", [claim])
    k.ingest("mail-2", [claim])
    claim_id = first["outcomes"][0]["claim_id"]
    node(k, "tom", evidence=[f"claim:{claim_id}"])
    [hit] = k("graph_search_nodes", {"nameLike": "tom"})["nodes"]
    assert hit["evidence"] == [f"claim:{claim_id}"] and hit["staleEvidence"] == []
    # The claim as a seed pivots to the node.
    assert keys(k("graph_search_nodes", {"seeds": [f"claim:{claim_id}"]})) == ["thing:tom"]
    k.one("SELECT pgfacts.purge_source('note', 'mail-1')")
    [hit] = k("graph_search_nodes", {"nameLike": "tom"})["nodes"]
    [label] = hit["evidence"]
    assert hit["staleEvidence"] == []  # mail-2 still supports it, under a rewritten row
    live = k.one("SELECT claim_id FROM pgfacts.as_of(%s, 'works_with')", tom)
    assert label == f"claim:{live}"
    k.one("SELECT pgfacts.retract(%s)", live)
    [hit] = k("graph_search_nodes", {"nameLike": "tom"})["nodes"]
    assert hit["staleEvidence"] == hit["evidence"]
    # Removing it by the claim a reader sees strips it (by the assertion: the row first
    # cited was rewritten by the purge).
    assert k.one("SELECT pgfacts.explain_claim(%s)", claim_id) is None
    removed = k("graph_remove_evidence", {"scopeKey": hit["evidence"][0]}, kind="facts_manager")
    assert removed["nodeEvidenceRemoved"] == 1 and removed["nodesDeleted"] == 1
    k.close()


def test_one_tenant_never_reaches_anothers_graph(db: Database) -> None:
    other = Caller(db, kind="crawler", tenant="t2")
    other.fact("secret", "SECRET-OF-T2")
    node(other, "t2-only", evidence=["shared:secret"])
    node(other, "t2-end")
    other(
        "graph_upsert_edge", {"fromKey": "thing:t2-only", "toKey": "thing:t2-end", "predicate": "p"}
    )
    bound = Caller(db, "bound", kind="agent", session="s1")
    assert bound("graph_search_nodes", {})["count"] == 0
    assert bound("graph_search_edges", {})["count"] == 0
    assert bound("graph_neighbourhood", {"nodeKey": "thing:t2-only", "depth": 5})["nodes"] == []
    assert bound("graph_search_nodes", {"seeds": ["shared:secret", "thing:t2-only"]})["count"] == 0
    node(bound, "mine")
    with pytest.raises(psycopg.Error) as info:  # t2's node is unknown here
        bound(
            "graph_upsert_edge",
            {"fromKey": "thing:mine", "toKey": "thing:t2-only", "predicate": "p"},
        )
    assert info.value.sqlstate == "P0002"
    with pytest.raises(psycopg.Error) as info:
        bound("graph_search_nodes", {}, tenant="t2")
    assert info.value.sqlstate == "42501"
    # Raw SQL by the bound login (as its tuner) sees only its tenant's rows.
    with db.connect("bound") as conn:
        conn.execute("SELECT pgfacts.set_context('t1', agent_kind => 'tuner')")
        for table in (
            "graph_nodes",
            "graph_node_names",
            "graph_edges",
            "graph_node_evidence",
            "graph_edge_evidence",
        ):
            rows = conn.execute(f"SELECT tenant FROM pgfacts_internal.{table}").fetchall()
            assert {r[0] for r in rows} <= {"t1"}, table
        with pytest.raises(psycopg.Error) as info:
            conn.execute("UPDATE pgfacts_internal.graph_nodes SET name = 'x'")
        assert info.value.sqlstate == "42501"
    # t2's graph is whole.
    assert other("graph_search_nodes", {})["count"] == 2
    for c in (other, bound):
        c.close()


def test_graph_stats_counts_and_the_crawl_backlog_under_a_namespace(db: Database) -> None:
    c = Caller(db, kind="crawler", session="s1")
    for key in ("corpus/acme/a", "corpus/acme/b", "corpus/acme-eu/c", "corpus/acme"):
        c.fact(key, 1)
    node(c, "a", "corpus/acme", evidence=["shared:corpus/acme/a"])
    node(c, "b", "corpus/acme-eu")
    c("graph_upsert_edge", {"fromKey": "thing:a", "toKey": "thing:b", "predicate": "p"})
    c.one("SELECT pgfacts.facts_set_crawled(%s)", Jsonb([{"scopeKey": "shared:corpus/acme/a"}]))
    tuner = Caller(db, kind="tuner")
    stats = tuner("graph_stats", {"namespace": "corpus/acme"})
    assert stats["nodeCount"] == 1 and stats["edgeCount"] == 1
    assert stats["uncrawledFacts"] == 2  # corpus/acme and corpus/acme/b, not corpus/acme-eu/c
    assert stats["lastCrawledAt"] is not None
    assert tuner("graph_stats", {})["nodeCount"] == 2
    assert tuner("graph_stats", {"namespace": "default"})["nodeCount"] == 0
    with pytest.raises(psycopg.Error) as info:
        c("graph_stats", {})
    assert info.value.sqlstate == "42501"
    for x in (c, tuner):
        x.close()
