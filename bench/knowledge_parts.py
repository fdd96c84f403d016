"""Where a knowledge read's time goes, measured inside the server.

The knowledge workload times each call from Python, which adds the client's own work and
the network to both sides of every ratio and moves a few hundredths of a millisecond from
run to run. Here a procedure runs the statements a client sends, one transaction each
(``COMMIT`` after every one, so every part pays its per-transaction costs), thousands of
times in a loop in the server, and reports the mean per transaction. Each part is the
difference between two such loops, measured in interleaved rounds on the same data: what
``set_context`` costs, the plain bi-temporal query, ``as_of`` on top of the context, its
commit barrier, and the same for ``claim_history``. The statements run with cached plans,
as a client with prepared statements runs them, and without the protocol's per-statement
cost (a few microseconds each), so the figures are the server's work only. They run as
the benchmark's login, a superuser, like every workload here: its role membership checks
return at once, where an agent login's look up its memberships (cached per session).
"""

from __future__ import annotations

import statistics
from datetime import datetime
from typing import Any

import psycopg

from .runner import Result, server_part

# Each loop: the statements of one transaction; s, p, v, k are the slot, valid instant and
# known instant of the iteration (random slots of the load, as the workload reads them), t
# the workload's tenant.
CONTEXT = "PERFORM pgfacts.set_context(tenant => t, agent_kind => 'operator');"
AS_OF = (
    "PERFORM count(*) FROM pgfacts.as_of(subject => s, predicate => p, valid_at => v, "
    "known_at => k);"
)
HISTORY = "PERFORM count(*) FROM pgfacts.claim_history(subject => s, predicate => p);"
PLAIN_AS_OF = (
    "PERFORM count(*) FROM bench_bitemporal WHERE subject_id = s AND predicate = p "
    "AND valid @> v AND system_time @> k AND NOT upper_inc(system_time);"
)
PLAIN_HISTORY = (
    "PERFORM count(*) FROM (SELECT object_value, lower(valid), upper(valid), upper(system_time) "
    "FROM bench_bitemporal WHERE subject_id = s AND predicate = p ORDER BY lower(system_time)) q;"
)
LOOPS = {
    "empty": "PERFORM s, p, v, k;",
    "set_context": CONTEXT,
    "plain as of": PLAIN_AS_OF,
    "set_context + as_of": CONTEXT + AS_OF,
    "set_context + as_of, barrier off": CONTEXT + AS_OF,
    "plain history": PLAIN_HISTORY,
    "set_context + claim_history": CONTEXT + HISTORY,
}
BARRIER_OFF = "set_context + as_of, barrier off"

PROCEDURE = """
CREATE OR REPLACE PROCEDURE public.bench_parts_loop(
    t text, subjects bigint[], predicates text[], valid_ats timestamptz[],
    known_ats timestamptz[], INOUT microseconds double precision DEFAULT NULL)
LANGUAGE plpgsql AS $loop$
DECLARE
    started timestamptz;
    s bigint; p text; v timestamptz; k timestamptz;
BEGIN
    started := clock_timestamp();
    FOR i IN 1 .. cardinality(subjects) LOOP
        s := subjects[i]; p := predicates[i]; v := valid_ats[i]; k := known_ats[i];
        {statements}
        COMMIT;
    END LOOP;
    microseconds := extract(epoch FROM clock_timestamp() - started) * 1e6 / cardinality(subjects);
END
$loop$
"""


def per_transaction(conn: psycopg.Connection[Any], tenant: str, reads: list[Any]) -> float:
    """Microseconds a transaction of the installed loop takes, over ``reads``."""
    columns = [list(column) for column in zip(*reads, strict=True)]
    row = conn.execute(
        "CALL public.bench_parts_loop(%s, %s, %s, %s, %s)", [tenant, *columns]
    ).fetchone()
    assert row is not None
    return float(row[0])


def measure(
    conn: psycopg.Connection[Any],
    tenant: str,
    switch: dict[bool, str],
    reads: list[tuple[int, str, datetime, datetime]],
    rounds: int,
) -> list[Result]:
    """Each loop in ``rounds`` interleaved rounds over ``reads``; the parts as Results (one
    sample per round, in ms) whose notes give the microseconds."""
    micro: dict[str, list[float]] = {name: [] for name in LOOPS}
    warm = reads[: max(10, len(reads) // 10)]
    for _ in range(rounds):
        for name, statements in LOOPS.items():
            if name == BARRIER_OFF:
                conn.execute(switch[False])
            conn.execute(PROCEDURE.replace("{statements}", statements))
            per_transaction(conn, tenant, warm)  # compiled, plans cached, caches warm
            micro[name].append(per_transaction(conn, tenant, reads))
            if name == BARRIER_OFF:
                conn.execute(switch[True])
    conn.execute("DROP PROCEDURE public.bench_parts_loop")
    mid = {name: statistics.median(values) for name, values in micro.items()}

    def part(name: str, base: str, what: str) -> Result:
        return server_part(micro, name, base, what)

    plain = mid["plain as of"] - mid["empty"]
    as_of = mid["set_context + as_of"] - mid["empty"]
    plain_history = mid["plain history"] - mid["empty"]
    history = mid["set_context + claim_history"] - mid["empty"]
    return [
        Result(
            "server: empty transaction",
            [value / 1000 for value in micro["empty"]],
            note=f"{len(reads):,} transactions a loop, one a read; {mid['empty']:.1f} us a "
            "transaction for the loop and COMMIT alone, the base of every part below; "
            f"in all: plain as of {plain:.1f} us against set_context + as_of {as_of:.1f} us "
            f"({as_of / plain:.2f}x), plain history {plain_history:.1f} us against "
            f"set_context + claim_history {history:.1f} us ({history / plain_history:.2f}x)",
        ),
        part("set_context", "empty", "set_context"),
        part("plain as of", "empty", "plain bi-temporal as of"),
        part("set_context + as_of, barrier off", "set_context", "as_of, barrier off"),
        part("set_context + as_of", BARRIER_OFF, "as_of's commit barrier"),
        part("plain history", "empty", "plain bi-temporal history"),
        part("set_context + claim_history", "set_context", "claim_history"),
    ]
