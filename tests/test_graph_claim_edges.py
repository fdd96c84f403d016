"""Claim edges: a knowledge claim whose object is an entity is an edge between the two
entities' nodes (entity:<id>), read live from the claims. Supersession, retraction, restore,
a late arrival and a purge replay show in the next read; graph_neighbourhood answers as of a
valid instant and a known instant; bad instants write nothing; the JSON keeps PilotSwarm's
shape."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from pgfacts import Context, FactStore, migrate

from .conftest import Database
from .support.caller import Caller
from .support.knowledge import knowledge_caller, person

NODE_KEYS = {"nodeKey", "kind", "name", "aliases", "namespace", "distance", "evidence"} | {
    "staleEvidence"
}
EDGE_KEYS = {
    "fromKey",
    "toKey",
    "predicate",
    "predicateKey",
    "confidence",
    "observations",
    "namespace",
    "evidence",
    "staleEvidence",
}


@pytest.fixture
def g(db: Database) -> Iterator[Caller]:
    caller = knowledge_caller(db)
    caller.one("SELECT pgfacts.define_predicate('reports_to', 'one')")
    caller.one("SELECT pgfacts.define_predicate('works_with', 'many')")
    caller.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    yield caller
    caller.close()


def to(subject: int, entity: int, start: str, predicate: str = "reports_to", **extra: Any) -> dict:  # type: ignore[type-arg]
    return {
        "subject": subject,
        "predicate": predicate,
        "object_entity": entity,
        "valid_from": start,
        **extra,
    }


def around(c: Caller, entity: int, **args: Any) -> dict[str, Any]:
    return c("graph_neighbourhood", {"nodeKey": f"entity:{entity}", **args})


def edges(result: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(e["fromKey"], e["predicate"], e["toKey"]) for e in result["edges"]]


def node_keys(result: dict[str, Any]) -> list[str]:
    return [n["nodeKey"] for n in result["nodes"]]


def claim_ids(result: dict[str, Any]) -> list[int]:
    return [int(x.removeprefix("claim:")) for e in result["edges"] for x in e["evidence"]]


def entity_node(
    entity: int, name: str, *, distance: int, aliases: list[str] | None = None, camel: bool = True
) -> dict[str, Any]:
    """An entity's node as the tool (camelCase) or the SQL function shows it."""
    return {
        "nodeKey" if camel else "node_key": f"entity:{entity}",
        "kind": "person",
        "name": name,
        "aliases": aliases or [],
        "namespace": None,
        "distance": distance,
        "evidence": [],
        "staleEvidence" if camel else "stale_evidence": [],
    }


def test_a_claim_about_two_entities_is_an_edge_between_their_nodes(g: Caller) -> None:
    tom, ann = person(g, "tom"), person(g, "ann")
    g.one("SELECT pgfacts.ensure_entity('person', 'ann', ARRAY['annie'], 'app:people/ann')")
    written = g.ingest("mail-1", [to(tom, ann, "2026-01-01", confidence=0.8)])
    claim_id = written["outcomes"][0]["claim_id"]
    result = around(g, tom)
    assert result["nodes"] == [
        entity_node(tom, "tom", distance=0),
        entity_node(ann, "ann", distance=1, aliases=["annie"]),
    ]
    assert result["edges"] == [
        {
            "fromKey": f"entity:{tom}",
            "toKey": f"entity:{ann}",
            "predicate": "reports_to",
            "predicateKey": "report",
            "confidence": 0.8,  # the claim's
            "observations": 1,
            "namespace": None,
            "evidence": [f"claim:{claim_id}"],
            "staleEvidence": [],
        }
    ]
    # The evidence resolves with explain_claim; the reverse direction reaches tom from ann.
    assert g.one("SELECT pgfacts.explain_claim(%s)", claim_id)["object_entity_id"] == ann
    assert node_keys(around(g, ann)) == [f"entity:{ann}", f"entity:{tom}"]
    # A claim with a value object is no edge; an entity of another tenant is no node.
    g.ingest(
        "mail-2",
        [{"subject": tom, "predicate": "lives_in", "object": "Oslo", "valid_from": "2026-01-01"}],
    )
    assert len(around(g, tom)["edges"]) == 1
    other = knowledge_caller(g.db, tenant="k2")
    assert around(other, tom) == {"nodes": [], "edges": []}
    assert other("graph_search_edges", {})["count"] == 0
    other.close()
    # Unknown and malformed entity keys answer like an unknown node key: nothing.
    for key in ("entity:999999", "entity:0", "entity:x", "entity:01"):
        assert g("graph_neighbourhood", {"nodeKey": key}) == {"nodes": [], "edges": []}


def test_claim_edges_follow_supersession_retraction_and_restore(g: Caller) -> None:
    tom, ann, bob = person(g, "tom"), person(g, "ann"), person(g, "bob")
    first = g.ingest("mail-1", [to(tom, ann, "2026-01-01")])["outcomes"][0]["claim_id"]
    before_bob = g.now()
    second = g.ingest("mail-2", [to(tom, bob, "2026-03-01")])["outcomes"][0]["claim_id"]
    # Now: bob (ann's claim ends on March 1, narrowed by the write).
    now = around(g, tom)
    assert edges(now) == [(f"entity:{tom}", "reports_to", f"entity:{bob}")]
    assert claim_ids(now) == [second]
    assert node_keys(now) == [f"entity:{tom}", f"entity:{bob}"]
    # True in February, as believed now: ann, through the narrowed copy of the first row.
    february = around(g, tom, valid_at="2026-02-01")
    assert edges(february) == [(f"entity:{tom}", "reports_to", f"entity:{ann}")]
    [copy] = claim_ids(february)
    assert copy != first and february["edges"][0]["staleEvidence"] == []
    # As known before bob's claim: ann, open-ended, retired since: it shows then, stale now.
    then = around(g, tom, known_at=before_bob.isoformat())
    assert edges(then) == [(f"entity:{tom}", "reports_to", f"entity:{ann}")]
    assert then["edges"][0]["evidence"] == [f"claim:{first}"]
    assert then["edges"][0]["staleEvidence"] == [f"claim:{first}"]
    # A retraction takes the edge away; a restore brings it back.
    g.one("SELECT pgfacts.retract(%s)", second)
    assert edges(around(g, tom)) == []
    assert node_keys(around(g, tom)) == [f"entity:{tom}"]
    g.one("SELECT pgfacts.restore(%s)", second)
    restored = around(g, tom)
    assert edges(restored) == [(f"entity:{tom}", "reports_to", f"entity:{bob}")]
    # The answer for an instant never changes.
    assert around(g, tom, known_at=before_bob.isoformat()) == then


def test_a_late_arrival_shows_in_its_valid_time_from_when_it_was_known(g: Caller) -> None:
    tom, ann, bob = person(g, "tom"), person(g, "ann"), person(g, "bob")
    g.ingest("mail-1", [to(tom, bob, "2026-05-01")])
    before_late = g.now()
    g.ingest("mail-2", [to(tom, ann, "2026-01-01")])  # learned late: ann until May
    assert edges(around(g, tom, valid_at="2026-02-01")) == [
        (f"entity:{tom}", "reports_to", f"entity:{ann}")
    ]
    assert edges(around(g, tom)) == [(f"entity:{tom}", "reports_to", f"entity:{bob}")]
    assert edges(around(g, tom, valid_at="2026-02-01", known_at=before_late.isoformat())) == []
    assert edges(around(g, tom, valid_at="2026-06-01", known_at=before_late.isoformat())) == [
        (f"entity:{tom}", "reports_to", f"entity:{bob}")
    ]


def test_an_edge_with_two_sources_survives_a_purge_of_one(g: Caller) -> None:
    tom, ann = person(g, "tom"), person(g, "ann")
    claim = to(tom, ann, "2026-01-01", predicate="works_with")
    g.ingest("mail-1", [claim])
    g.ingest("mail-2", [claim])
    [edge] = around(g, tom)["edges"]
    assert edge["observations"] == 2
    g.one("SELECT pgfacts.purge_source('note', 'mail-1')")
    [edge] = around(g, tom)["edges"]
    assert edge["observations"] == 1 and edge["staleEvidence"] == []
    [ref] = edge["evidence"]
    explained = g.one("SELECT pgfacts.explain_claim(%s)", int(ref.removeprefix("claim:")))
    assert [s["source_ref"] for s in explained["sources"]] == ["mail-2"]
    g.one("SELECT pgfacts.purge_source('note', 'mail-2')")
    assert around(g, tom)["edges"] == []


def test_depth_seeds_limit_and_namespace(g: Caller) -> None:
    tom, ann, bob, cy = (person(g, n) for n in ("tom", "ann", "bob", "cy"))
    [claim] = [
        o["claim_id"]
        for o in g.ingest(
            "mail-1",
            [
                to(tom, ann, "2026-01-01"),
                to(bob, ann, "2026-01-01"),
                to(cy, bob, "2026-01-01", predicate="works_with"),
            ],
        )["outcomes"][:1]
    ]
    # The start, then by distance and key.
    assert node_keys(around(g, ann)) == [
        f"entity:{ann}",
        *sorted([f"entity:{bob}", f"entity:{tom}"]),
    ]
    deep = around(g, ann, depth=2)
    assert node_keys(deep)[-1] == f"entity:{cy}" and deep["nodes"][-1]["distance"] == 2
    assert len(deep["edges"]) == 3
    assert len(around(g, ann, depth=2, limit=2)["nodes"]) == 2
    # A namespace other than default keeps only the start: claim edges have none.
    assert node_keys(around(g, ann, namespace="corpus/acme")) == [f"entity:{ann}"]
    assert len(around(g, ann, namespace="default")["nodes"]) == 3
    # A claim seed starts at its two entities; stored nodes are seeded beside them.
    g("graph_upsert_node", {"kind": "team", "name": "Core"})
    seeded = g("graph_neighbourhood", {"seeds": [f"claim:{claim}", "team:core"], "depth": 1})
    assert node_keys(seeded) == [
        *sorted([f"entity:{tom}", f"entity:{ann}", "team:core"]),
        f"entity:{bob}",
    ]
    # No stored node keys like an entity node: the kind entity keys as entity_.
    made = g("graph_upsert_node", {"kind": "Entity", "name": str(tom)})
    assert made["nodeKey"] == f"entity_:{tom}"


def test_search_edges_lists_current_claim_edges(g: Caller) -> None:
    tom, ann, bob = person(g, "tom"), person(g, "ann"), person(g, "bob")
    g.ingest("mail-1", [to(tom, ann, "2026-01-01", confidence=0.6)])
    g.ingest("mail-2", [to(bob, ann, "2026-01-01", predicate="works_with", confidence=0.9)])
    g("graph_upsert_node", {"kind": "thing", "name": "a"})
    g("graph_upsert_node", {"kind": "thing", "name": "b"})
    g(
        "graph_upsert_edge",
        {"fromKey": "thing:a", "toKey": "thing:b", "predicate": "near", "confidence": 0.7},
    )
    found = g("graph_search_edges", {})
    assert [(e["fromKey"], e["confidence"]) for e in found["edges"]] == [
        (f"entity:{bob}", 0.9),
        ("thing:a", 0.7),
        (f"entity:{tom}", 0.6),
    ]
    assert all(
        set(e) == EDGE_KEYS | {"assertedBy", "firstSeen", "lastSeen"} for e in found["edges"]
    )
    by_predicate = g("graph_search_edges", {"predicate": "reports to"})["edges"]
    assert [e["toKey"] for e in by_predicate] == [f"entity:{ann}"]
    assert g("graph_search_edges", {"fromKey": f"entity:{bob}"})["count"] == 1
    assert g("graph_search_edges", {"toKey": f"entity:{ann}", "minConfidence": 0.7})["count"] == 1
    assert g("graph_search_edges", {"namespace": "corpus/acme"})["count"] == 0
    assert g("graph_search_edges", {"limit": 1})["edges"][0]["fromKey"] == f"entity:{bob}"


def test_every_kind_of_reader_sees_claim_edges(g: Caller) -> None:
    tom, ann = person(g, "tom"), person(g, "ann")
    claim_id = g.ingest("mail-1", [to(tom, ann, "2026-01-01")])["outcomes"][0]["claim_id"]
    for kind in ("agent", "crawler", "facts_manager", "tuner", "operator"):
        [edge] = g("graph_neighbourhood", {"nodeKey": f"entity:{tom}"}, kind=kind, session="s1")[
            "edges"
        ]
        assert edge["evidence"] == [f"claim:{claim_id}"], kind


def graph_and_claim_rows(db: Database) -> tuple[Any, ...]:
    with db.admin() as admin:
        row = admin.execute(
            "SELECT (SELECT count(*) FROM pgfacts_internal.claims),"
            " (SELECT count(*) FROM pgfacts_internal.graph_nodes),"
            " (SELECT count(*) FROM pgfacts_internal.graph_edges)"
        ).fetchone()
    assert row is not None
    return tuple(row)


@pytest.mark.parametrize(
    ("args", "sqlstate"),
    [
        ({"known_at": "2999-01-01T00:00:00Z"}, "22023"),
        ({"known_at": "infinity"}, "22023"),
        ({"known_at": "not a date"}, "22023"),
        ({"valid_at": "not a date"}, "22023"),
        ({"known_at": 5}, "22023"),
        ({"valid_at": True}, "22023"),
        ({"knownAt": "2026-01-01"}, "22023"),
    ],
)
def test_bad_instants_are_refused_and_write_nothing(
    g: Caller, args: dict[str, Any], sqlstate: str
) -> None:
    tom, ann = person(g, "tom"), person(g, "ann")
    g.ingest("mail-1", [to(tom, ann, "2026-01-01")])
    before = graph_and_claim_rows(g.db)
    with pytest.raises(psycopg.Error) as info:
        around(g, tom, **args)
    assert info.value.sqlstate == sqlstate
    assert graph_and_claim_rows(g.db) == before


def test_a_future_known_at_is_refused_in_sql_too(g: Caller) -> None:
    tom = person(g, "tom")
    assert (
        g.refused(
            "SELECT pgfacts.graph_neighbourhood(%s, "
            "known_at => clock_timestamp() + interval '1 hour')",
            f"entity:{tom}",
        )
        == "22023"
    )
    # A future valid_at is a question about the world, not about the database: answered.
    assert g.one(
        "SELECT pgfacts.graph_neighbourhood(%s, valid_at => '2999-01-01')", f"entity:{tom}"
    ) == {"nodes": [entity_node(tom, "tom", distance=0, camel=False)], "edges": []}


def test_the_tool_json_keeps_pilotswarms_shape(g: Caller) -> None:
    tom, ann = person(g, "tom"), person(g, "ann")
    g.ingest("mail-1", [to(tom, ann, "2026-01-01")])
    g("graph_upsert_node", {"kind": "thing", "name": "a"})
    g("graph_upsert_node", {"kind": "thing", "name": "b"})
    g("graph_upsert_edge", {"fromKey": "thing:a", "toKey": "thing:b", "predicate": "near"})
    result = g("graph_neighbourhood", {"seeds": [f"entity:{tom}", "thing:a"]})
    assert set(result) == {"nodes", "edges"}
    assert len(result["nodes"]) == 4 and len(result["edges"]) == 2
    assert all(set(n) == NODE_KEYS for n in result["nodes"])
    assert all(set(e) == EDGE_KEYS for e in result["edges"])
    [definition] = [
        t for t in g.one("SELECT pgfacts.tool_definitions()") if t["name"] == "graph_neighbourhood"
    ]
    properties = definition["input_schema"]["properties"]
    assert properties["valid_at"]["format"] == properties["known_at"]["format"] == "date-time"


def test_the_python_client_passes_the_instants(g: Caller) -> None:
    tom, ann = person(g, "tom"), person(g, "ann")
    g.ingest("mail-1", [to(tom, ann, "2026-01-01")])
    known = g.now()
    context = Context(tenant="k1", agent_kind="operator")
    with FactStore(g.db.dsn("app"), context=context) as store:
        result = store.graph_neighbourhood(f"entity:{tom}", valid_at="2026-02-01", known_at=known)
        assert [e["to_key"] for e in result["edges"]] == [f"entity:{ann}"]
        assert store.graph_neighbourhood(f"entity:{tom}", valid_at="2025-12-01")["edges"] == []
        tool = store.tools.graph_neighbourhood(
            f"entity:{tom}", valid_at="2026-02-01", known_at=known.isoformat()
        )
        assert [e["toKey"] for e in tool["edges"]] == [f"entity:{ann}"]


def test_stored_nodes_of_kind_entity_are_rekeyed_by_0036(empty_db: str) -> None:
    """Nodes of kind entity stored before 0036 (keyed entity:<name>, which now names an
    entity's node) key as entity_:<name> after it, with every name keyed under that kind,
    and still resolve and answer as before."""
    migrate(empty_db, target="0035_graph.sql")
    with psycopg.connect(empty_db, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO pgfacts_internal.graph_nodes (tenant, node_key, kind_key, kind, name,"
            " aliases, created_kind) VALUES"
            " ('t', 'entity:acme', 'entity', 'Entity', 'Acme', '{ACME Corp}', 'crawler'),"
            " ('t', 'person:tom', 'person', 'person', 'Tom', '{}', 'crawler')"
        )
        conn.execute(
            "INSERT INTO pgfacts_internal.graph_node_names (tenant, name_key, node_key) VALUES"
            " ('t', 'entity:acme', 'entity:acme'), ('t', 'entity:acme-corp', 'entity:acme'),"
            " ('t', 'person:tom', 'person:tom'),"
            " ('t', 'entity:tommy', 'person:tom')"  # an entity-kind node merged into tom
        )
    migrate(empty_db)
    with psycopg.connect(empty_db) as conn:
        nodes = conn.execute(
            "SELECT node_key, kind_key FROM pgfacts_internal.graph_nodes ORDER BY 1"
        ).fetchall()
        names = conn.execute(
            "SELECT name_key, node_key FROM pgfacts_internal.graph_node_names ORDER BY 1"
        ).fetchall()
        conn.execute("SELECT pgfacts.set_context(tenant => 't', agent_kind => 'crawler')")
        again = conn.execute(
            "SELECT pgfacts.graph_upsert_node('entity', 'ACME Corp') ->> 'node_key'"
        ).fetchone()
    assert nodes == [("entity_:acme", "entity_"), ("person:tom", "person")]
    assert names == [
        ("entity_:acme", "entity_:acme"),
        ("entity_:acme-corp", "entity_:acme"),
        ("entity_:tommy", "person:tom"),
        ("person:tom", "person:tom"),
    ]
    assert again == ("entity_:acme",)
