"""Governance guards (issue 25): what redaction refusal and the incognito triggers cost on
store_fact and on a 5-claim ingest, measured in one run, call by call in turns, against the
same calls in copies of the database with those triggers disabled: the check off. Every
measured write is clean (nothing refused); a last check counts that a placeholder is
refused in the measured database and not in the copy without the check (wrong if not)."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from .runner import Result, database_copy, timed_together

SIZE = {"smoke": {"stores": 50, "ingests": 20}, "full": {"stores": 3000, "ingests": 600}}
TENANT = "bench-guards"
CONTEXT = (
    "SELECT pgfacts.set_context(tenant => %s, session_id => 's1', agent_id => 'a1', "
    "agent_kind => %s)"
)
TARGET = 1.05  # kept small: at most 5% more at p95 than with the check off

REDACTION_TRIGGERS = [
    ("facts", "facts_redaction_inserted"),
    ("facts", "facts_redaction_updated"),
    ("episodes", "episodes_redaction"),
    ("entities", "entities_redaction"),
]
# The incognito triggers on the tables a store and an ingest write.
INCOGNITO_TRIGGERS = [
    (table, f"{table}_incognito")
    for table in ("facts", "episodes", "claims", "claim_sources", "entities", "predicates")
]


def _disable(dsn: str, triggers: list[tuple[str, str]]) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        for table, trigger in triggers:
            conn.execute(f"ALTER TABLE pgfacts_internal.{table} DISABLE TRIGGER {trigger}")


def _setup(conn: psycopg.Connection[Any]) -> list[int]:
    with conn.transaction():
        conn.execute(CONTEXT, (TENANT, "operator"))
        conn.execute("SELECT pgfacts.define_predicate('likes', 'many')")
        return [
            conn.execute("SELECT pgfacts.ensure_entity('person', %s)", (f"p{i}",)).fetchone()[0]  # type: ignore[index]
            for i in range(5)
        ]


def _store(conn: psycopg.Connection[Any], counter: list[int]) -> None:
    counter[0] += 1
    value = {"n": counter[0], "text": "a note to keep, with [brackets] but no placeholder"}
    with conn.transaction():
        conn.execute(CONTEXT, (TENANT, "agent"))
        conn.execute(
            "SELECT pgfacts.store_fact(%s, %s, shared => true)",
            (f"notes/{counter[0] % 500}", Jsonb(value)),
        ).fetchone()


def _ingest(conn: psycopg.Connection[Any], subjects: list[int], counter: list[int]) -> None:
    counter[0] += 1
    n = counter[0]
    episode = {"source_kind": "note", "source_ref": f"n/{n}", "content_hash": f"h{n}"}
    claims = [
        {
            "subject": s,
            "predicate": "likes",
            "object": {"thing": f"thing {n}-{j}", "tags": ["a", "b"]},
            "text": f"p{j} likes thing {n}-{j}",
            "valid_from": "2024-01-01",
        }
        for j, s in enumerate(subjects)
    ]
    with conn.transaction():
        conn.execute(CONTEXT, (TENANT, "agent"))
        conn.execute("SELECT pgfacts.ingest(%s, %s)", (Jsonb(episode), Jsonb(claims))).fetchone()


def _refused(conn: psycopg.Connection[Any]) -> bool:
    try:
        with conn.transaction():
            conn.execute(CONTEXT, (TENANT, "agent"))
            conn.execute("SELECT pgfacts.store_fact('probe', '\"[EMAIL]\"', shared => true)")
    except psycopg.Error as exc:
        return exc.sqlstate == "PF010"
    return False


def _arms(name: str, on: list[float], off: list[float], bare: list[float]) -> list[Result]:
    base = f"baseline: {name}, redaction check off"
    absent = f"baseline: {name}, redaction and incognito triggers off"
    on_p95 = Result(name, on).p95
    off_ratio, bare_ratio = on_p95 / Result(base, off).p95, on_p95 / Result(absent, bare).p95
    return [
        Result(base, off, note="the same calls in a copy with the redaction triggers disabled"),
        Result(
            absent,
            bare,
            note="the same calls in a copy with the redaction and incognito triggers disabled",
        ),
        Result(
            f"{name}, redaction check on",
            on,
            baseline=base,
            note=f"target: <= {TARGET:.2f}x at p95 over the check off: {off_ratio:.2f}x "
            f"({'met' if off_ratio <= TARGET else 'missed'}); over no guard triggers: "
            f"{bare_ratio:.2f}x",
        ),
    ]


def run(dsn: str, size: str) -> list[Result]:
    stores, ingests = SIZE[size]["stores"], SIZE[size]["ingests"]
    with psycopg.connect(dsn, autocommit=True) as conn:
        subjects = _setup(conn)
    with (
        database_copy(dsn) as off_dsn,
        database_copy(off_dsn) as bare_dsn,
        psycopg.connect(dsn, autocommit=True) as conn,
        psycopg.connect(off_dsn, autocommit=True) as off,
        psycopg.connect(bare_dsn, autocommit=True) as bare,
    ):
        _disable(off_dsn, REDACTION_TRIGGERS)
        _disable(bare_dsn, REDACTION_TRIGGERS + INCOGNITO_TRIGGERS)
        counts = [[0], [0], [0]]
        store_on, store_off, store_bare = timed_together(
            [
                lambda: _store(conn, counts[0]),
                lambda: _store(off, counts[1]),
                lambda: _store(bare, counts[2]),
            ],
            stores,
        )
        counts = [[0], [0], [0]]
        ingest_on, ingest_off, ingest_bare = timed_together(
            [
                lambda: _ingest(conn, subjects, counts[0]),
                lambda: _ingest(off, subjects, counts[1]),
                lambda: _ingest(bare, subjects, counts[2]),
            ],
            ingests,
        )
        wrong = int(not _refused(conn)) + int(_refused(off))
    return [
        *_arms("store_fact", store_on, store_off, store_bare),
        *_arms("ingest of 5 claims", ingest_on, ingest_off, ingest_bare),
        Result(
            "a placeholder stored: refused with the check, stored without",
            [],
            note="PF010 in the measured database, none in the copy with the check off "
            f"({wrong} wrong)",
            wrong=wrong,
        ),
    ]
