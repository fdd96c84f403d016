"""Governance workload (issue 25): the mutation audit's cost on store_fact and on a 5-claim
ingest, measured in one run against the same calls in a tenant whose audit is off
(``audit_enabled`` 0), taking turns call by call; and the audit's size per 100,000 changes
(heap, TOAST and its indexes). A third arm, the same calls in a copy of the database with
the capture triggers disabled, shows what the triggers cost even with the audit off."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from .runner import Result, database_copy, timed_together

SIZE = {"smoke": {"stores": 50, "ingests": 20}, "full": {"stores": 3000, "ingests": 600}}
ON, OFF = "bench-audit-on", "bench-audit-off"
CONTEXT = (
    "SELECT pgfacts.set_context(tenant => %s, session_id => 's1', agent_id => 'a1', "
    "agent_kind => %s)"
)
TARGET = 1.15  # the bound: at most 15% more at p95
SIZE_NOW = (
    "SELECT count(*), pg_total_relation_size('pgfacts_internal.audit_log') "
    "FROM pgfacts_internal.audit_log"
)


def _setup(conn: psycopg.Connection[Any]) -> dict[str, list[int]]:
    subjects: dict[str, list[int]] = {}
    for tenant in (ON, OFF):
        with conn.transaction():
            conn.execute(CONTEXT, (tenant, "operator"))
            conn.execute("SELECT pgfacts.define_predicate('likes', 'many')")
            subjects[tenant] = [
                conn.execute("SELECT pgfacts.ensure_entity('person', %s)", (f"p{i}",)).fetchone()[0]  # type: ignore[index]
                for i in range(5)
            ]
            if tenant == OFF:
                conn.execute("SELECT pgfacts.set_setting('audit_enabled', '0')")
    return subjects


def _store(conn: psycopg.Connection[Any], tenant: str, counter: list[int]) -> None:
    counter[0] += 1
    with conn.transaction():
        conn.execute(CONTEXT, (tenant, "agent"))
        conn.execute(
            "SELECT pgfacts.store_fact(%s, %s, shared => true)",
            (f"notes/{counter[0] % 500}", Jsonb({"n": counter[0], "text": "a note to keep"})),
        ).fetchone()


def _ingest(
    conn: psycopg.Connection[Any], tenant: str, subjects: list[int], counter: list[int]
) -> None:
    counter[0] += 1
    n = counter[0]
    episode = {"source_kind": "note", "source_ref": f"n/{n}", "content_hash": f"h{n}"}
    claims = [
        {"subject": s, "predicate": "likes", "object": f"thing {n}-{j}", "valid_from": "2024-01-01"}
        for j, s in enumerate(subjects)
    ]
    with conn.transaction():
        conn.execute(CONTEXT, (tenant, "agent"))
        conn.execute("SELECT pgfacts.ingest(%s, %s)", (Jsonb(episode), Jsonb(claims))).fetchone()


def _arms(name: str, on: list[float], off: list[float], bare: list[float]) -> list[Result]:
    base, absent = f"baseline: {name}, audit off", f"baseline: {name}, no capture triggers"
    on_p95 = Result(name, on).p95
    off_ratio, bare_ratio = on_p95 / Result(base, off).p95, on_p95 / Result(absent, bare).p95
    return [
        Result(base, off, note="the same calls in a tenant with audit_enabled 0, taking turns"),
        Result(
            absent,
            bare,
            note="the same calls in a copy of the database with the capture triggers disabled",
        ),
        Result(
            f"{name}, audit on",
            on,
            baseline=base,
            note=f"target: <= {TARGET:.2f}x at p95 over audit off: {off_ratio:.2f}x "
            f"({'met' if off_ratio <= TARGET else 'missed'}); over no triggers: {bare_ratio:.2f}x",
        ),
    ]


# The capture triggers the measured calls fire; a copy of the database without them is the
# third arm: what the calls cost with no audit installed at all.
CAPTURE_TRIGGERS = [
    ("facts", "facts_audit_inserted"),
    ("facts", "facts_audit_updated"),
    ("facts", "facts_audit_deleted"),
    ("episodes", "episodes_audit_committed"),
]


def _without_capture(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        for table, trigger in CAPTURE_TRIGGERS:
            conn.execute(f"ALTER TABLE pgfacts_internal.{table} DISABLE TRIGGER {trigger}")


def run(dsn: str, size: str) -> list[Result]:
    stores, ingests = SIZE[size]["stores"], SIZE[size]["ingests"]
    with psycopg.connect(dsn, autocommit=True) as conn:
        subjects = _setup(conn)
    with (
        database_copy(dsn) as bare_dsn,
        psycopg.connect(dsn, autocommit=True) as conn,
        psycopg.connect(bare_dsn, autocommit=True) as bare,
    ):
        _without_capture(bare_dsn)
        rows_before, size_before = conn.execute(SIZE_NOW).fetchone()  # type: ignore[misc]
        counts = [[0], [0], [0]]
        store_on, store_off, store_bare = timed_together(
            [
                lambda: _store(conn, ON, counts[0]),
                lambda: _store(conn, OFF, counts[1]),
                lambda: _store(bare, ON, counts[2]),
            ],
            stores,
        )
        counts = [[0], [0], [0]]
        ingest_on, ingest_off, ingest_bare = timed_together(
            [
                lambda: _ingest(conn, ON, subjects[ON], counts[0]),
                lambda: _ingest(conn, OFF, subjects[OFF], counts[1]),
                lambda: _ingest(bare, ON, subjects[ON], counts[2]),
            ],
            ingests,
        )
        rows_after, size_after = conn.execute(SIZE_NOW).fetchone()  # type: ignore[misc]
        # The audit only grows (nothing here deletes), so what this workload added is the
        # difference, whatever the workloads before it wrote.
        rows, size_bytes = rows_after - rows_before, size_after - size_before
        off_rows = conn.execute(
            "SELECT count(*) FROM pgfacts_internal.audit_log WHERE tenant = %s "
            "AND operation <> 'set_setting'",
            (OFF,),
        ).fetchone()[0]  # type: ignore[index]
    per_100k = round(size_bytes * 100_000 / rows) if rows else 0
    return [
        *_arms("store_fact", store_on, store_off, store_bare),
        *_arms("ingest of 5 claims", ingest_on, ingest_off, ingest_bare),
        Result(
            "audit size per 100,000 changes",
            [],
            rows=rows,
            bytes=per_100k,
            note=f"{size_bytes:,} bytes (heap, TOAST, 3 indexes) added by this workload's "
            f"{rows} rows, scaled; a store is one row, an ingest of 5 claims six; audit off wrote "
            f"{off_rows} rows (wrong if not 0)",
            wrong=off_rows,
        ),
    ]
