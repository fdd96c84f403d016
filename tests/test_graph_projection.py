"""The graph's Apache AGE projection: kept equal to the graph tables (verify after random
operations through the tools), rebuilt after a dump and restore (apache/age#2503), read
through graph_cypher's named queries only, read-only for the DBA route, unreachable for
agents and across tenants."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from pgfacts import FactStore, migrate
from pgfacts.runtime import LocalRuntime
from pgfacts.worker import sync_graph_projections

from .conftest import KINDS, Clones, Database, scratch_database_name, with_db
from .support.caller import Caller

# make test runs a couple of thousand random operations; make test-long ten thousand.
RANDOM_OPERATIONS = int(os.environ.get("PGFACTS_GRAPH_OPERATIONS", "2500"))


@pytest.fixture
def crawler(db: Database) -> Iterator[Caller]:
    caller = Caller(db, kind="crawler", session="s1", agent="crawler-1")
    yield caller
    caller.close()


@pytest.fixture
def operator(db: Database) -> Iterator[Caller]:
    caller = Caller(db, kind="operator")
    yield caller
    caller.close()


def sync(c: Caller) -> dict[str, Any]:
    return c.one("SELECT pgfacts.sync_graph_projection(100000)")  # type: ignore[no-any-return]


def differences(c: Caller) -> list[tuple[Any, ...]]:
    return c.rows("SELECT * FROM pgfacts.verify_graph_projection()")


def cypher(c: Caller, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    return c.one(
        "SELECT pgfacts.graph_cypher(%s, %s::jsonb)", name, psycopg.types.json.Jsonb(params)
    )  # type: ignore[no-any-return]


def small_graph(c: Caller) -> None:
    for kind, name in (("team", "Payments"), ("team", "Platform"), ("service", "Billing")):
        c("graph_upsert_node", {"kind": kind, "name": name})
    for a, b, p in (
        ("team:payments", "service:billing", "owns"),
        ("team:platform", "service:billing", "owns"),
        ("service:billing", "team:platform", "depends on"),
    ):
        c("graph_upsert_edge", {"fromKey": a, "toKey": b, "predicate": p, "confidence": 0.5})


def graph_name(c: Caller) -> str:
    return c.one("SELECT pgfacts.graph_projection_name()")  # type: ignore[no-any-return]


def random_operation(c: Caller, rng: random.Random, evidence: list[str]) -> None:
    names = [f"n{i}" for i in range(25)]
    kinds = ["service", "team", "person"]
    key = f"{rng.choice(kinds)}:{rng.choice(names)}"
    other = f"{rng.choice(kinds)}:{rng.choice(names)}"
    op = rng.random()
    try:
        if op < 0.3:
            kind, name = key.split(":")
            c(
                "graph_upsert_node",
                {
                    "kind": kind,
                    "name": name,
                    "namespace": rng.choice([None, "corpus/a", "corpus/b"]),
                    "evidence": rng.sample(evidence, rng.randint(0, 2)),
                },
            )
        elif op < 0.65:
            c(
                "graph_upsert_edge",
                {
                    "fromKey": key,
                    "toKey": other,
                    "predicate": rng.choice(["owns", "depends on", "calls", "works with"]),
                    "confidence": round(rng.random(), 3),
                    "evidence": rng.sample(evidence, rng.randint(0, 2)),
                },
            )
        elif op < 0.75:
            c("graph_merge_nodes", {"fromKey": key, "intoKey": other, "reason": "same"})
        elif op < 0.83:
            c("graph_delete_node", {"nodeKey": key})
        elif op < 0.91:
            c(
                "graph_delete_edge",
                {"fromKey": key, "toKey": other, "predicateKey": rng.choice(["own", "call"])},
            )
        else:
            c("graph_remove_evidence", {"scopeKey": rng.choice(evidence)})
    except psycopg.Error as exc:  # unknown keys, self edges, merges into themselves
        assert exc.sqlstate in {"P0002", "22023"}, exc


def test_the_projection_equals_the_tables_after_random_operations(
    crawler: Caller, operator: Caller
) -> None:
    rng = random.Random(22)
    evidence = [f"shared:e{i}" for i in range(8)]
    for item in evidence:
        crawler.fact(item.removeprefix("shared:"), "v")
    assert differences(operator) == []  # no node, no graph: equal
    for i in range(RANDOM_OPERATIONS):
        random_operation(crawler, rng, evidence)
        if i % 500 == 250:
            sync(operator)
            assert differences(operator) == []
    sync(operator)
    assert differences(operator) == []
    nodes = operator.one("SELECT count(*) FROM pgfacts_internal.graph_nodes")
    assert nodes > 10
    # A rebuild gives the same projection.
    rebuilt = operator.one("SELECT pgfacts.rebuild_graph_projection()")
    assert rebuilt["nodes"] == nodes
    assert differences(operator) == []


def test_verify_names_each_difference_until_the_sync(crawler: Caller, operator: Caller) -> None:
    small_graph(crawler)
    assert differences(operator) == [("graph", None, "missing")]
    assert sync(operator)["rebuilt"] is True
    assert differences(operator) == []
    crawler(
        "graph_upsert_edge",
        {
            "fromKey": "team:payments",
            "toKey": "service:billing",
            "predicate": "owns",
            "confidence": 0.5,
        },
    )
    crawler("graph_delete_node", {"nodeKey": "team:platform"})
    assert {(e, d) for e, _, d in differences(operator)} == {
        ("edge", "differs"),
        ("edge", "unexpected"),
        ("node", "unexpected"),
    }
    assert sync(operator)["applied"] == 4  # the reinforced edge, the node and its two edges
    assert differences(operator) == []
    # A row changed behind the projection's back is found.
    with operator.db.admin() as admin:
        admin.execute(f"DELETE FROM {graph_name(operator)}.edge")
    assert [d for _, _, d in differences(operator)] == ["missing"]


def test_named_cypher_queries_read_the_projection(crawler: Caller, operator: Caller) -> None:
    small_graph(crawler)
    sync(operator)
    assert cypher(crawler, "common_neighbours", {"a": "team:payments", "b": "team:platform"}) == [
        {"key": "service:billing", "kind": "service"}
    ]
    paths = cypher(
        crawler, "directed_paths", {"from": "team:payments", "to": "team:platform", "hops": 2}
    )
    assert paths == [
        {
            "nodes": ["team:payments", "service:billing", "team:platform"],
            "predicates": ["own", "depend"],
        }
    ]
    assert cypher(crawler, "directed_paths", {"from": "team:payments", "to": "team:platform"})
    assert (
        cypher(
            crawler, "directed_paths", {"from": "team:payments", "to": "team:platform", "hops": 1}
        )
        == []
    )
    owned = cypher(crawler, "subgraph_by_predicate", {"predicate": "Owns", "limit": 1})
    assert len(owned) == 1 and owned[0]["to"] == "service:billing"


def test_stored_text_round_trips_and_parameters_are_never_cypher(
    crawler: Caller, operator: Caller
) -> None:
    hostile = ["O'Brien", "$$ x $$", "$cy$ y", "back\\slash", 'a"}) DETACH DELETE (n']
    for name in hostile:
        crawler("graph_upsert_node", {"kind": "person", "name": name})
    keys = [r[0] for r in operator.rows("SELECT node_key FROM pgfacts_internal.graph_nodes")]
    crawler("graph_upsert_edge", {"fromKey": keys[0], "toKey": keys[1], "predicate": "$$' calls"})
    sync(operator)
    assert differences(operator) == []
    found = cypher(crawler, "directed_paths", {"from": keys[0], "to": keys[1], "hops": 1})
    assert found[0]["nodes"] == [keys[0], keys[1]]
    for value in [*hostile, "x'}) MATCH (n) DETACH DELETE n //", "$cy$ CREATE (:node) $cy$"]:
        assert cypher(crawler, "common_neighbours", {"a": value, "b": value}) == []
    assert differences(operator) == []


BAD_CYPHER_INPUT: list[tuple[str | None, Any]] = [
    ("nope", {}),
    (None, {}),
    ("directed_paths", {"from": "a"}),
    ("directed_paths", {"from": "a", "to": "b", "hops": 4}),
    ("directed_paths", {"from": "a", "to": "b", "hops": "2"}),
    ("directed_paths", {"from": "a", "to": "b", "hops": 1.5}),
    ("directed_paths", {"from": "a", "to": 7}),
    ("directed_paths", {"from": "a", "to": "x" * 1025}),
    ("common_neighbours", {"a": "x", "b": "y", "hops": 2}),
    ("common_neighbours", {"a": "x", "b": "y", "query": "MATCH (n) RETURN n"}),
    ("subgraph_by_predicate", {"predicate": "p", "limit": 0}),
    ("subgraph_by_predicate", {"predicate": "p", "limit": 1001}),
    ("subgraph_by_predicate", []),
    ("subgraph_by_predicate", "MATCH (n) RETURN n"),
]


def test_graph_cypher_refuses_bad_input_with_22023_writing_nothing(
    db: Database, crawler: Caller, operator: Caller
) -> None:
    small_graph(crawler)
    sync(operator)

    def written() -> list[Any]:
        with db.admin() as admin:
            return admin.execute(
                "SELECT (SELECT count(*) FROM pgfacts_internal.graph_projection_changes),"
                " (SELECT max(synced_at) FROM pgfacts_internal.graph_projections)"
            ).fetchall()

    before = written()
    for name, params in BAD_CYPHER_INPUT:
        state = crawler.refused(
            "SELECT pgfacts.graph_cypher(%s, %s::jsonb)", name, psycopg.types.json.Jsonb(params)
        )
        assert state == "22023", (name, params)
    assert written() == before
    assert differences(operator) == []


def test_no_agent_role_can_call_cypher_or_touch_a_graph_schema(
    db: Database, crawler: Caller, operator: Caller
) -> None:
    small_graph(crawler)
    sync(operator)
    graph = graph_name(operator)
    for login in (*KINDS, "app", "bound"):
        with db.connect(login, autocommit=True) as conn:
            for sql in (
                f"SELECT * FROM ag_catalog.cypher('{graph}', $$ MATCH (n:node) RETURN n $$)"
                " AS (n ag_catalog.agtype)",
                f"SELECT * FROM {graph}.node",
                f"DELETE FROM {graph}.edge",
                "SELECT * FROM ag_catalog.ag_graph",
            ):
                with pytest.raises(psycopg.Error) as info:
                    conn.execute(sql)
                assert info.value.sqlstate == "42501", (login, sql)
    assert differences(operator) == []


WRITES = [
    "CREATE (:node {key: 'x'})",
    "MATCH (a:node) SET a.key = 'changed'",
    "MATCH (a:node) REMOVE a.key",
    "MATCH (a:node) DETACH DELETE a",
    "MATCH ()-[e:edge]->() DELETE e",
    "MERGE (:node {key: 'merged'})",
]


def test_the_graph_reader_reads_and_cannot_write_through_cypher(
    db: Database, crawler: Caller, operator: Caller
) -> None:
    small_graph(crawler)
    sync(operator)
    graph = graph_name(operator)
    with db.admin() as admin:
        admin.execute("SET ROLE pgfacts_graph_reader")
        admin.execute("SET search_path = ag_catalog, pg_catalog")
        rows = admin.execute(
            f"SELECT * FROM cypher('{graph}', $$ MATCH (a:node)-[e:edge]->(b:node) "
            "RETURN a.key $$) AS (k agtype)"
        ).fetchall()
        assert len(rows) == 3
        for write in WRITES:
            with pytest.raises(psycopg.Error) as info:
                admin.execute(f"SELECT * FROM cypher('{graph}', $$ {write} $$) AS (v agtype)")
            assert info.value.sqlstate == "42501", write
    assert differences(operator) == []


def test_one_tenant_never_reaches_anothers_projection(db: Database) -> None:
    other = Caller(db, kind="crawler", tenant="t2")
    other("graph_upsert_node", {"kind": "team", "name": "Secret"})
    other("graph_upsert_node", {"kind": "team", "name": "Hidden"})
    other(
        "graph_upsert_edge", {"fromKey": "team:secret", "toKey": "team:hidden", "predicate": "owns"}
    )
    mine = Caller(db, kind="crawler", tenant="t1")
    small_graph(mine)
    for tenant in ("t1", "t2"):
        op = Caller(db, kind="operator", tenant=tenant)
        sync(op)
        op.close()
    bound = Caller(db, "bound", kind="agent", session="s1")
    t2_name = other.one("SELECT pgfacts.graph_projection_name()")
    assert graph_name(bound) != t2_name
    assert (
        cypher(bound, "directed_paths", {"from": "team:secret", "to": "team:hidden", "hops": 1})
        == []
    )
    assert {r["from"] for r in cypher(bound, "subgraph_by_predicate", {"predicate": "owns"})} == {
        "team:payments",
        "team:platform",
    }
    assert (
        bound.refused(
            "SELECT pgfacts.graph_cypher('subgraph_by_predicate', '{\"predicate\": \"owns\"}')",
        )
        is None
    )
    with pytest.raises(psycopg.Error) as info:
        bound.tenant = "t2"
        bound.one(
            "SELECT pgfacts.graph_cypher('subgraph_by_predicate', '{\"predicate\": \"owns\"}')"
        )
    assert info.value.sqlstate == "42501"
    with db.connect("bound", autocommit=True) as conn, pytest.raises(psycopg.Error) as info:
        conn.execute(f"SELECT * FROM {t2_name}.node")
    assert info.value.sqlstate == "42501"
    assert len(cypher(other, "subgraph_by_predicate", {"predicate": "owns"})) == 1
    for c in (other, mine, bound):
        c.close()


def test_the_worker_keeps_the_projection_within_a_second(db: Database, crawler: Caller) -> None:
    small_graph(crawler)
    stop = threading.Event()
    lines: list[str] = []

    def work() -> None:
        with FactStore(db.dsn("operator")) as store:
            while not stop.is_set():
                sync_graph_projections(store, report=lines.append)
                stop.wait(0.2)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    lags = []
    try:
        for i in range(8):
            crawler("graph_upsert_node", {"kind": "team", "name": f"new {i}"})
            crawler(
                "graph_upsert_edge",
                {"fromKey": "team:payments", "toKey": f"team:new-{i}", "predicate": "owns"},
            )
            written = time.monotonic()
            while not cypher(
                crawler,
                "directed_paths",
                {"from": "team:payments", "to": f"team:new-{i}", "hops": 1},
            ):
                assert time.monotonic() - written < 5, lines
                time.sleep(0.02)
            lags.append(time.monotonic() - written)
    finally:
        stop.set()
        worker.join()
    assert max(lags) < 2.0, lags
    print(f"projection lag: median {sorted(lags)[len(lags) // 2]:.3f} s, max {max(lags):.3f} s")


def client_program(name: str) -> list[str]:
    """The runtime's pg_dump / pg_restore; with PGFACTS_DSN (a server of its own), the one
    on PATH, which that server's operator provides (the runtime always has both)."""
    if os.environ.get("PGFACTS_DSN"):
        found = shutil.which(name)
        assert found, f"PGFACTS_DSN names a server of its own: put its {name} on PATH"
        return [found]
    return LocalRuntime().client_command(name, [])


def test_a_dump_and_restore_breaks_cypher_and_the_rebuild_mends_it(
    db: Database, clones: Clones, server_dsn: str, crawler: Caller, operator: Caller
) -> None:
    dump, restore = client_program("pg_dump"), client_program("pg_restore")
    small_graph(crawler)
    sync(operator)
    archive = subprocess.run(
        [*dump, "-Fc", db.admin_dsn_of_database()], check=True, capture_output=True
    ).stdout
    name = scratch_database_name()
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    try:
        subprocess.run(
            [*restore, "-d", with_db(server_dsn, name)],
            input=archive,
            check=True,
            capture_output=True,
        )
        migrate(with_db(server_dsn, name))  # the per-database settings a restore loses
        restored = Database(name=name, admin_dsn=db.admin_dsn)
        op = Caller(restored, kind="operator")
        reader = Caller(restored, kind="agent", session="s1")
        assert differences(op) == [("graph", None, "broken")]
        assert (
            reader.refused(
                "SELECT pgfacts.graph_cypher('subgraph_by_predicate', '{\"predicate\": \"owns\"}')"
            )
            == "55000"
        )
        started = time.monotonic()
        assert op.one("SELECT pgfacts.rebuild_graph_projection()")["edges"] == 3
        print(f"rebuild after restore: {time.monotonic() - started:.3f} s")
        assert differences(op) == []
        assert len(cypher(reader, "subgraph_by_predicate", {"predicate": "owns"})) == 2
        op.close()
        reader.close()
    finally:
        clones.drop(name)  # with the other used clones: a drop waits for a checkpoint
