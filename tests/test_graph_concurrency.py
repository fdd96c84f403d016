"""The graph under concurrent writers: one node and one edge from 8 connections at once,
merges racing upserts and each other. Threads start together at a barrier and are joined
by a deadline (tests/interleave.py): a deadlock or a hang fails the test, never the suite."""

from __future__ import annotations

import random
import threading
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from .conftest import Database
from .interleave import join_all
from .support.caller import Caller

WRITERS = 8


def tool(conn: psycopg.Connection, name: str, args: dict[str, Any], agent: str) -> Any:
    context = {"tenant": "t1", "agent_kind": "crawler", "agent_id": agent, "session_id": "s1"}
    row = conn.execute(
        "SELECT pgfacts.call_tool(%s, %s, %s)", (name, Jsonb(args), Jsonb(context))
    ).fetchone()
    assert row is not None
    return row[0]


def run_together(db: Database, jobs: list[Any]) -> list[BaseException]:
    """Run each job(conn) on its own connection, all released by one barrier."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []
    connections = [db.connect("app", autocommit=True) for _ in jobs]

    def run(job: Any, conn: psycopg.Connection) -> None:
        try:
            barrier.wait(timeout=30)
            job(conn)
        except BaseException as exc:  # reported by the test
            errors.append(exc)

    threads = [
        threading.Thread(target=run, args=(job, conn), name=f"writer-{i}", daemon=True)
        for i, (job, conn) in enumerate(zip(jobs, connections, strict=True))
    ]
    for thread in threads:
        thread.start()
    try:
        join_all(threads)
    finally:
        for conn in connections:
            conn.close()
    return errors


def test_eight_writers_make_one_node_and_one_edge(db: Database) -> None:
    setup = Caller(db, kind="crawler", session="s1", agent="setup")
    evidence = []
    for i in range(WRITERS):
        setup.fact(f"c/{i}", i)
        evidence.append(f"shared:c/{i}")
    setup("graph_upsert_node", {"kind": "project", "name": "pg"})

    def writer(i: int) -> Any:
        def job(conn: psycopg.Connection) -> None:
            args = {"kind": "person", "name": "Tom Lane", "evidence": [evidence[i]]}
            tool(conn, "graph_upsert_node", args, f"w{i}")
            edge = {
                "fromKey": "person:tom-lane",
                "toKey": "project:pg",
                "predicate": "works on",
                "confidence": 0.5,
                "evidence": [evidence[i]],
            }
            tool(conn, "graph_upsert_edge", edge, f"w{i}")

        return job

    errors = run_together(db, [writer(i) for i in range(WRITERS)])
    assert errors == []
    [person] = setup("graph_search_nodes", {"kind": "person"})["nodes"]
    assert sorted(person["evidence"]) == sorted(evidence)
    [edge] = setup("graph_search_edges", {})["edges"]
    assert edge["observations"] == WRITERS
    assert abs(edge["confidence"] - (1 - 0.5**WRITERS)) < 1e-12
    assert sorted(edge["assertedBy"]) == sorted(f"w{i}" for i in range(WRITERS))
    with db.admin() as admin:
        assert admin.execute("SELECT count(*) FROM pgfacts_internal.graph_edges").fetchone() == (1,)
        assert admin.execute(
            "SELECT count(*) FROM pgfacts_internal.graph_nodes WHERE kind_key = 'person'"
        ).fetchone() == (1,)
    setup.close()


def test_merges_race_upserts_and_each_other_without_losing_evidence(db: Database) -> None:
    """Nodes n0..n5 with edges to hubs; writers keep adding evidence to them while merges
    fold them together in every order. In the end every piece of evidence a writer added is
    on the one node that each name resolves to, and no call failed (deadlocks included)."""
    setup = Caller(db, kind="crawler", session="s1", agent="setup")
    names = [f"n{i}" for i in range(6)]
    for name in ("hub1", "hub2", *names):
        setup("graph_upsert_node", {"kind": "thing", "name": name})
    for i in range(40):
        setup.fact(f"e/{i}", i)
    added: dict[str, list[str]] = {name: [] for name in names}
    lock = threading.Lock()

    def upserter(seed: int) -> Any:
        rng = random.Random(seed)

        def job(conn: psycopg.Connection) -> None:
            for i in range(seed, 40, 4):
                name = rng.choice(names)
                source = f"shared:e/{i}"
                tool(
                    conn,
                    "graph_upsert_node",
                    {"kind": "thing", "name": name, "evidence": [source]},
                    f"u{seed}",
                )
                hub = rng.choice(["thing:hub1", "thing:hub2"])
                tool(
                    conn,
                    "graph_upsert_edge",
                    {
                        "fromKey": f"thing:{name}",
                        "toKey": hub,
                        "predicate": "links",
                        "evidence": [source],
                    },
                    f"u{seed}",
                )
                with lock:
                    added[name].append(source)

        return job

    def merger(pairs: list[tuple[str, str]]) -> Any:
        def job(conn: psycopg.Connection) -> None:
            for duplicate, survivor in pairs:
                tool(
                    conn,
                    "graph_merge_nodes",
                    {"fromKey": f"thing:{duplicate}", "intoKey": f"thing:{survivor}"},
                    "m",
                )

        return job

    jobs = [upserter(s) for s in range(4)] + [
        merger([("n0", "n1"), ("n2", "n3"), ("n4", "n5")]),
        merger([("n1", "n2"), ("n5", "n0"), ("n3", "n4")]),
        merger([("n3", "n1"), ("n1", "n5")]),
    ]
    errors = run_together(db, jobs)
    assert errors == []
    all_sources = {s for sources in added.values() for s in sources}
    found: set[str] = set()
    for name in names:
        [hit] = setup.rows(
            "SELECT node_key, evidence FROM pgfacts.graph_search_nodes(seeds => %s) "
            "WHERE distance = 0",
            [f"thing:{name}"],
        )
        assert set(added[name]) <= set(hit[1]), name
        found |= set(hit[1])
    assert found == all_sources
    edges = setup("graph_search_edges", {"limit": 500})["edges"]
    on_edges = {s for e in edges for s in e["evidence"]}
    assert on_edges == all_sources
    assert len({(e["fromKey"], e["toKey"]) for e in edges}) == len(edges)
    setup.close()
