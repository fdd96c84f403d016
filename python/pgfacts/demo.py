"""The ``make demo`` walkthrough: what pgfacts does, shown against a real database."""

from __future__ import annotations

import json

import psycopg
from rich.console import Console

from . import doctor, queries
from .errors import translate
from .runtime import resolve_dsn


def _section(out: Console, title: str) -> None:
    out.print(f"\n[bold cyan]== {title}[/]")


def run(dsn: str | None, schema: str, out: Console) -> None:
    _section(out, "doctor: the server, its extensions and the schema")
    report = doctor.diagnose(dsn, schema).as_dict()
    out.print_json(
        json.dumps(
            {
                k: report[k]
                for k in (
                    "postgresql",
                    "extensions",
                    "age_preloaded",
                    "applied_migrations",
                    "pending",
                    "ok",
                )
            }
        )
    )

    _section(out, "one round trip through the SQL API: set_context, then current_context")
    try:
        with psycopg.connect(resolve_dsn(dsn)) as conn:
            conn.execute(
                queries.SET_CONTEXT.format(schema=schema),
                {
                    "tenant": "demo",
                    "session_id": "s-root",
                    "agent_id": "planner",
                    "agent_kind": "agent",
                    "parent_session_id": None,
                },
            )
            row = conn.execute(queries.CURRENT_CONTEXT.format(schema=schema)).fetchone()
            conn.rollback()
    except psycopg.Error as exc:
        raise translate(exc) from exc
    assert row is not None
    out.print_json(json.dumps(row[0]))
    out.print(
        "The context lives in transaction-local settings: it is gone after this "
        "transaction, so a pooled connection never leaks one caller into the next."
    )
