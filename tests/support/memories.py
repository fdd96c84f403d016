"""Recording memories for the pipeline and worker tests: each one queues an extraction event."""

from __future__ import annotations

from psycopg.types.json import Jsonb

from ..conftest import Database
from .caller import Caller


def record_many(db: Database, tenant: str, count: int, prefix: str = "m") -> list[int]:
    """Record ``count`` chat turns in ``tenant`` (refs ``prefix/0``...); their event ids."""
    caller = Caller(db, tenant=tenant, kind="agent", session="s1")
    events = [
        caller.one(
            "SELECT (pgfacts.record_memory('chat', %s, %s) ->> 'event_id')::bigint",
            f"{prefix}/{i}",
            Jsonb([{"id": "1", "text": f"turn {i} of {tenant}"}]),
        )
        for i in range(count)
    ]
    caller.close()
    return events
