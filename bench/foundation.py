"""Foundation workload: the cost of one call into the SQL API next to a bare round trip."""

from __future__ import annotations

import psycopg

from .runner import Result, timed

REPEAT = {"smoke": 50, "full": 2000}


def run(dsn: str, size: str) -> list[Result]:
    repeat = REPEAT[size]
    with psycopg.connect(dsn, autocommit=True) as conn:
        bare = timed(lambda: conn.execute("SELECT 1").fetchone(), repeat)

        def context_round_trip() -> None:
            with conn.transaction():
                conn.execute(
                    "SELECT pgfacts.set_context(tenant => %s, session_id => %s, agent_id => %s)",
                    ("bench", "s1", "a1"),
                ).fetchone()

        context = timed(context_round_trip, repeat)
    return [
        Result("baseline: SELECT 1 round trip", bare),
        Result(
            "set_context in its own transaction",
            context,
            baseline="baseline: SELECT 1 round trip",
            note="BEGIN + SELECT + COMMIT: three round trips, so about 3x the bare one",
        ),
    ]
