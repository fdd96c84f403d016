"""Timing of knowledge reads on another tenant's entity id (issue 11, item 9).

Under a forced generic plan, as_of, claim_history and current_claims on an entity id of
another tenant must do the same work as on an id that exists nowhere: no row of the other
tenant is fetched from the heap (pg_stat_xact_user_tables counts them), so the answer time
says nothing about whether the id exists. PGFACTS_TIMING=1 also prints the wall time ratios.
"""

from __future__ import annotations

import os
import statistics
import time

import psycopg
from psycopg.types.json import Jsonb

from .conftest import Database

FILLER_BATCHES = 10
READS = {
    "as_of": "SELECT count(*) FROM pgfacts.as_of(%s, 'lives_in')",
    "claim_history": "SELECT count(*) FROM pgfacts.claim_history(%s, 'lives_in')",
    "current_claims": "SELECT count(*) FROM pgfacts.current_claims(%s)",
}


def load_other_tenant(db: Database, versions: int) -> int:
    def one(conn: psycopg.Connection, sql: str, *params: object) -> object:
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context(tenant => 'k1', agent_kind => 'operator')")
            row = conn.execute(sql, params).fetchone()
        return row[0] if row else None

    with db.connect("app", autocommit=True) as conn:
        one(conn, "SELECT pgfacts.define_predicate('lives_in', 'one')")
        subject = int(one(conn, "SELECT pgfacts.ensure_entity('person', 'Ann')"))  # type: ignore[call-overload]
        for i in range(versions):
            claim = {
                "subject": subject,
                "predicate": "lives_in",
                "object": f"city {i}",
                "valid_from": f"{2000 + i % 20}-01-01",
            }
            episode = {"source_kind": "note", "source_ref": f"r{i}", "content_hash": "h"}
            one(conn, "SELECT pgfacts.ingest(%s, %s)", Jsonb(episode), Jsonb([claim]))
        # Other slots of the tenant fill the table, so the planner reads it by index.
        fillers = [
            int(one(conn, "SELECT pgfacts.ensure_entity('person', %s)", f"p{i}"))  # type: ignore[call-overload]
            for i in range(100)
        ]
        for batch in range(FILLER_BATCHES):
            claims = [
                {
                    "subject": fillers[i % 100],
                    "predicate": "lives_in",
                    "object": f"c{batch}-{i}",
                    "valid_from": f"{1900 + batch}-01-01",
                }
                for i in range(1000)
            ]
            episode = {"source_kind": "fill", "source_ref": f"f{batch}", "content_hash": "h"}
            one(conn, "SELECT pgfacts.ingest(%s, %s)", Jsonb(episode), Jsonb(claims))
    with db.admin() as admin:
        admin.execute("ANALYZE pgfacts_internal.claims")
    return subject


FETCHES = (
    "SELECT coalesce(sum(idx_tup_fetch + seq_tup_read), 0) FROM pg_stat_xact_user_tables"
    " WHERE relid = 'pgfacts_internal.claims'::regclass"
)


def heap_fetches(conn: psycopg.Connection, sql: str, subject: int) -> int:
    """Rows of claims the read fetched (the pending counters are cumulative: a difference)."""
    with conn.transaction():
        conn.execute("SELECT pgfacts.set_context(tenant => 'k2', agent_kind => 'agent')")
        before = conn.execute(FETCHES).fetchone()
        conn.execute(sql, (subject,))
        after = conn.execute(FETCHES).fetchone()
    assert before is not None and after is not None
    return int(after[0]) - int(before[0])


def test_reads_on_another_tenants_entity_fetch_none_of_its_rows(db: Database) -> None:
    subject = load_other_tenant(db, 200)
    unknown = subject + 1_000_000
    with db.connect("app", autocommit=True) as conn:
        conn.execute("SET plan_cache_mode = force_generic_plan")
        for name, sql in READS.items():
            for _ in range(6):  # past the point where a plan would be cached anyway
                heap_fetches(conn, sql, unknown)
            got = (heap_fetches(conn, sql, subject), heap_fetches(conn, sql, unknown))
            assert got == (0, 0), name
        if os.environ.get("PGFACTS_TIMING"):
            for name, sql in READS.items():
                times: dict[int, list[float]] = {subject: [], unknown: []}
                for _ in range(300):
                    for probe in (subject, unknown):
                        with conn.transaction():
                            conn.execute(
                                "SELECT pgfacts.set_context(tenant => 'k2', agent_kind => 'agent')"
                            )
                            start = time.perf_counter()
                            conn.execute(sql, (probe,))
                            times[probe].append(time.perf_counter() - start)
                other, none = statistics.median(times[subject]), statistics.median(times[unknown])
                print(
                    f"{name}: other tenant's id {other * 1e3:.3f} ms, unknown id "
                    f"{none * 1e3:.3f} ms, ratio {other / none:.2f}"
                )
