"""``python -m bench.claim_edges_index [--episodes N]``: what the claim edges' index costs an
ingest.

Claim edges (sql/40_graph/72_claim_edges.sql) need one index, claims_object_entity_idx
(migration 0036: the claims by their object entity, partial on object_entity_id IS NOT
NULL), to walk an edge from its object end. This measures it the way a before/after run of
the knowledge bench cannot on a shared 2-core machine: 5-claim ingests with the index and
without it taking turns, call by call (``timed_together``), so that whatever slows the
machine falls on both alike. Each episode is ingested into both sides, in the same order:
every claim's object an entity (the worst case, every claim adds an index entry), then 5
claims with value objects (which the partial index leaves alone). A preload gives the
index some size first. Prints p50/p95 of each and the differences.

Run alone, the two sides are two databases: one with pgfacts installed and a copy of it
without the index. The graph workload (bench/graph.py) measures the same in its own
database, with two tenants and the index's predicate leaving one of them out
(``without_tenant``), which costs no copy of the database; both call ``setup`` and
``measure`` here.
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from .knowledge import CONTEXT, INGEST, TENANT, episode_source, in_transaction
from .runner import Result, bench_database, database_copy, print_table, timed_together

ENTITIES = 2000
PRELOAD = 2000  # episodes of 5 entity-object claims before the measurement
INDEX = "pgfacts_internal.claims_object_entity_idx"
INDEX_DDL = (
    "CREATE INDEX claims_object_entity_idx ON pgfacts_internal.claims (tenant, object_entity_id) "
    "WHERE object_entity_id IS NOT NULL"
)


@dataclass(frozen=True)
class Side:
    """Where one side ingests: a database and a tenant, with the entity ids setup made
    there (claims name entities by their position in it, so both sides get the same)."""

    dsn: str
    tenant: str
    entities: list[int]


def without_tenant(tenant: str) -> str:
    """The index (migration 0036's) with ``tenant``'s claims left out: that tenant's
    ingests maintain no entry, as if there were no index, in the same table as the
    others' (its one extra condition costs both sides the same)."""
    return f"{INDEX_DDL} AND tenant <> '{tenant}'"


def ingest(conn: psycopg.Connection[Any], side: Side, serial: int, claims: list[Any]) -> None:
    """BEGIN, set_context, ingest, COMMIT, pipelined: one round trip (episode doc/<serial>);
    the claims' entities are positions in ``side.entities``."""
    ids = side.entities
    concrete = [
        {**c, "subject": ids[c["subject"]]}
        | ({"object_entity": ids[c["object_entity"]]} if "object_entity" in c else {})
        for c in claims
    ]
    in_transaction(
        conn, INGEST, (Jsonb(episode_source(serial)), Jsonb(concrete)), tenant=side.tenant
    )


def claims_of(
    rng: random.Random, serial: int, entity_objects: bool, entities: int
) -> list[dict[str, Any]]:
    """Five claims: works_with (many) between two entities, or lives_in (one) a city."""
    day = f"2026-{1 + serial % 12:02}-{1 + serial % 28:02}"
    out = []
    for _ in range(5):
        subject = rng.randrange(entities)
        if entity_objects:
            claim = {"predicate": "works_with", "object_entity": rng.randrange(entities)}
        else:
            claim = {"predicate": "lives_in", "object": f"city-{rng.randint(1, 50)}"}
        out.append({"subject": subject, "valid_from": day, **claim})
    return out


def setup(dsn: str, tenant: str = TENANT, entities: int = ENTITIES, preload: int = PRELOAD) -> Side:
    """The tenant's predicates and entities, and ``preload`` episodes of entity claims."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("BEGIN")
        conn.execute(CONTEXT, (tenant, "operator"))
        conn.execute("SELECT pgfacts.define_predicate('works_with', 'many')")
        conn.execute("SELECT pgfacts.define_predicate('lives_in', 'one')")
        rows = conn.execute(
            "SELECT pgfacts.ensure_entity('person', 'name-' || i, external_ref => 'p/' || i) "
            "FROM generate_series(1, %s) AS i ORDER BY i",
            (entities,),
        ).fetchall()
        conn.execute("COMMIT")
        side = Side(dsn, tenant, [int(row[0]) for row in rows])
        rng = random.Random(7)
        for serial in range(preload):
            ingest(conn, side, serial, claims_of(rng, serial, True, entities))
        conn.execute("VACUUM ANALYZE pgfacts_internal.claims")
    return side


def measure(
    with_index: Side,
    without: Side,
    episodes: int,
    entity_objects: bool,
    preload: int = PRELOAD,
    warmup: int = 20,
) -> list[Result]:
    label = "entity objects" if entity_objects else "value objects"
    rng = random.Random(11 if entity_objects else 13)
    start = preload + (0 if entity_objects else 10 * episodes)
    count = len(with_index.entities)
    batches = [claims_of(rng, start + i, entity_objects, count) for i in range(episodes + warmup)]
    with (
        psycopg.connect(with_index.dsn, autocommit=True) as a,
        psycopg.connect(without.dsn, autocommit=True) as b,
    ):
        turn = {"a": 0, "b": 0}

        def into(conn: psycopg.Connection[Any], side: Side, name: str) -> Any:
            def once() -> None:
                serial = turn[name]
                turn[name] += 1
                ingest(conn, side, start + serial, batches[serial])

            return once

        on, off = timed_together(
            [into(a, with_index, "a"), into(b, without, "b")], repeat=episodes, warmup=warmup
        )
    diff50 = statistics.median(on) - statistics.median(off)
    # Round by round the two ran back to back: the median of those paired differences is
    # the steadier estimate on a machine others load.
    paired = statistics.median(x - y for x, y in zip(on, off, strict=True))
    on_r = Result(f"ingest 5 claims, {label}, with the index", on, baseline=None)
    off_r = Result(f"ingest 5 claims, {label}, without", off)
    note = (
        f"p50 {diff50 * 1000:+.0f} us, p95 {(on_r.p95 - off_r.p95) * 1000:+.0f} us, "
        f"median paired difference {paired * 1000:+.0f} us with the index"
    )
    return [
        Result(on_r.operation, on, baseline=off_r.operation, note=note),
        off_r,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=2000)
    args = parser.parse_args()
    with bench_database() as dsn:
        side = setup(dsn)
        with database_copy(dsn) as copy:
            with psycopg.connect(copy, autocommit=True) as conn:
                conn.execute(f"DROP INDEX {INDEX}")
            copied = Side(copy, side.tenant, side.entities)  # the same rows, ids included
            results = measure(side, copied, args.episodes, entity_objects=True)
            results += measure(side, copied, args.episodes, entity_objects=False)
    print_table("claims_object_entity_idx: its cost to a 5-claim ingest", results)
    for r in results:
        if r.note:
            print(f"{r.operation}: {r.note}")


if __name__ == "__main__":
    main()
