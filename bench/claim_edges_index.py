"""``python -m bench.claim_edges_index [--episodes N]``: what the claim edges' index costs an
ingest.

Claim edges (sql/40_graph/72_claim_edges.sql) need one index, claims_object_entity_idx
(migration 0036: the claims by their object entity, partial on object_entity_id IS NOT
NULL), to walk an edge from its object end. This measures it the way a before/after run of
the knowledge bench cannot on a shared 2-core machine: one database with pgfacts
installed, a copy of it without the index, and 5-claim ingests into the two taking turns,
call by call (``timed_together``), so that whatever slows the machine falls on both alike.
Each episode is ingested into both, in the same order: every claim's object an entity (the
worst case, every claim adds an index entry), then 5 claims with value objects (which the
partial index leaves alone). A preload gives the index some size first. Prints p50/p95 of
each and the differences.
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from .knowledge import CONTEXT, INGEST, TENANT, episode_source, in_transaction
from .runner import Result, bench_database, database_copy, print_table, timed_together

ENTITIES = 2000
PRELOAD = 2000  # episodes of 5 entity-object claims before the measurement


def ingest(conn: psycopg.Connection[Any], serial: int, claims: list[Any]) -> None:
    """BEGIN, set_context, ingest, COMMIT, pipelined: one round trip (episode doc/<serial>)."""
    in_transaction(conn, INGEST, (Jsonb(episode_source(serial)), Jsonb(claims)))


def claims_of(rng: random.Random, serial: int, entity_objects: bool) -> list[dict[str, Any]]:
    """Five claims: works_with (many) between two entities, or lives_in (one) a city."""
    day = f"2026-{1 + serial % 12:02}-{1 + serial % 28:02}"
    out = []
    for _ in range(5):
        subject = rng.randint(1, ENTITIES)
        if entity_objects:
            claim = {"predicate": "works_with", "object_entity": rng.randint(1, ENTITIES)}
        else:
            claim = {"predicate": "lives_in", "object": f"city-{rng.randint(1, 50)}"}
        out.append({"subject": subject, "valid_from": day, **claim})
    return out


def setup(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("BEGIN")
        conn.execute(CONTEXT, (TENANT, "operator"))
        conn.execute("SELECT pgfacts.define_predicate('works_with', 'many')")
        conn.execute("SELECT pgfacts.define_predicate('lives_in', 'one')")
        conn.execute(
            "SELECT pgfacts.ensure_entity('person', 'name-' || i, external_ref => 'p/' || i) "
            "FROM generate_series(1, %s) AS i ORDER BY i",
            (ENTITIES,),
        )
        conn.execute("COMMIT")
        rng = random.Random(7)
        for serial in range(PRELOAD):
            ingest(conn, serial, claims_of(rng, serial, entity_objects=True))
        conn.execute("VACUUM ANALYZE pgfacts_internal.claims")


def measure(with_index: str, without: str, episodes: int, entity_objects: bool) -> list[Result]:
    label = "entity objects" if entity_objects else "value objects"
    rng = random.Random(11 if entity_objects else 13)
    start = PRELOAD + (0 if entity_objects else 10 * episodes)
    batches = [claims_of(rng, start + i, entity_objects) for i in range(episodes + 20)]
    with (
        psycopg.connect(with_index, autocommit=True) as a,
        psycopg.connect(without, autocommit=True) as b,
    ):
        turn = {"a": 0, "b": 0}

        def into(conn: psycopg.Connection[Any], side: str) -> Any:
            def once() -> None:
                serial = turn[side]
                turn[side] += 1
                ingest(conn, start + serial, batches[serial])

            return once

        on, off = timed_together([into(a, "a"), into(b, "b")], repeat=episodes, warmup=20)
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
        setup(dsn)
        with database_copy(dsn) as copy:
            with psycopg.connect(copy, autocommit=True) as conn:
                conn.execute("DROP INDEX pgfacts_internal.claims_object_entity_idx")
            results = measure(dsn, copy, args.episodes, entity_objects=True)
            results += measure(dsn, copy, args.episodes, entity_objects=False)
    print_table("claims_object_entity_idx: its cost to a 5-claim ingest", results)
    for r in results:
        if r.note:
            print(f"{r.operation}: {r.note}")


if __name__ == "__main__":
    main()
