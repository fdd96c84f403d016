"""Lifecycle workload (issue 25): what usage counting costs the reads that record it, search
and read_facts_by_scope_keys, measured in one run against the same calls in a tenant whose
``usage_tracking`` is 0, taking turns call by call; and what maintenance takes to fold the
uses recorded (run_maintenance's fold, per 10,000 uses)."""

from __future__ import annotations

import time
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from .runner import Result, timed_together

SIZE = {
    "smoke": {"facts": 200, "calls": 30},
    "full": {"facts": 5000, "calls": 1000},
}
ON, OFF = "bench-usage-on", "bench-usage-off"
CONTEXT = "SELECT pgfacts.set_context(tenant => %s, session_id => 's1', agent_kind => %s)"
TARGET = 1.10  # usage counting should cost a read at most 10% at p95
TOPICS = ["ledger", "deploy", "billing", "search", "graph", "audit", "retention", "quota"]


def _setup(conn: psycopg.Connection[Any], facts: int) -> None:
    for tenant in (ON, OFF):
        with conn.transaction():
            conn.execute(CONTEXT, (tenant, "operator"))
            if tenant == OFF:
                conn.execute("SELECT pgfacts.set_setting('usage_tracking', '0')")
        for start in range(0, facts, 1000):
            batch = [
                {
                    "key": f"notes/{n}",
                    "value": f"note {n} on the {TOPICS[n % len(TOPICS)]} service and its owner",
                    "shared": True,
                }
                for n in range(start, min(facts, start + 1000))
            ]
            with conn.transaction():
                conn.execute(CONTEXT, (tenant, "agent"))
                conn.execute("SELECT pgfacts.store_facts(%s)", (Jsonb(batch),))


def _search(conn: psycopg.Connection[Any], tenant: str, counter: list[int]) -> None:
    counter[0] += 1
    topic = TOPICS[counter[0] % len(TOPICS)]
    with conn.transaction():
        conn.execute(CONTEXT, (tenant, "agent"))
        conn.execute("SELECT count(*) FROM pgfacts.search(%s)", (f"{topic} owner",)).fetchone()


def _by_keys(conn: psycopg.Connection[Any], tenant: str, facts: int, counter: list[int]) -> None:
    counter[0] += 1
    keys = [f"shared:notes/{(counter[0] * 20 + i) % facts}" for i in range(20)]
    with conn.transaction():
        conn.execute(CONTEXT, (tenant, "agent"))
        conn.execute(
            "SELECT count(*) FROM pgfacts.read_facts_by_scope_keys(%s)", (keys,)
        ).fetchone()


def _arms(name: str, on: list[float], off: list[float]) -> list[Result]:
    base = f"baseline: {name}, usage off"
    ratio = Result(name, on).p95 / Result(base, off).p95
    return [
        Result(base, off, note="the same calls in a tenant with usage_tracking 0, taking turns"),
        Result(
            f"{name}, usage on",
            on,
            baseline=base,
            note=f"target: <= {TARGET:.2f}x at p95 over usage off: {ratio:.2f}x "
            f"({'met' if ratio <= TARGET else 'missed'})",
        ),
    ]


def run(dsn: str, size: str) -> list[Result]:
    facts, calls = SIZE[size]["facts"], SIZE[size]["calls"]
    with psycopg.connect(dsn, autocommit=True) as conn:
        _setup(conn, facts)
        counts = [[0], [0]]
        search_on, search_off = timed_together(
            [lambda: _search(conn, ON, counts[0]), lambda: _search(conn, OFF, counts[1])], calls
        )
        counts = [[0], [0]]
        keys_on, keys_off = timed_together(
            [
                lambda: _by_keys(conn, ON, facts, counts[0]),
                lambda: _by_keys(conn, OFF, facts, counts[1]),
            ],
            calls,
        )
        pending = conn.execute("SELECT count(*) FROM pgfacts_internal.fact_uses").fetchone()
        uses = int(pending[0]) if pending else 0
        off_uses = conn.execute(
            "SELECT count(*) FROM pgfacts_internal.fact_uses WHERE tenant = %s", (OFF,)
        ).fetchone()
        began = time.perf_counter()
        conn.execute("SELECT pgfacts.run_maintenance()").fetchone()
        fold_ms = (time.perf_counter() - began) * 1000
    per_10k = fold_ms * 10_000 / uses if uses else 0.0
    return [
        *_arms("search (20 hits)", search_on, search_off),
        *_arms("read_facts_by_scope_keys (20 keys)", keys_on, keys_off),
        Result(
            "run_maintenance folding the uses",
            [fold_ms],
            rows=uses,
            note=f"{uses} uses folded in one run: {per_10k:.1f} ms per 10,000; the usage-off "
            f"tenant recorded {off_uses[0] if off_uses else '?'} (wrong if not 0)",
            wrong=int(off_uses[0]) if off_uses else 1,
        ),
    ]
