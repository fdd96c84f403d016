"""Where a fact write's time goes, measured inside the server.

The working-memory workload times each call from Python, where the round trip is most of a
small write's time on both sides. Here a procedure writes one new fact a transaction
(``COMMIT`` after every one), thousands of times in a loop in the server, and reports the
mean per transaction; each part is the difference between two such loops, measured in
interleaved rounds. The loops run with ``synchronous_commit = off``, so the WAL flush that
every commit pays on both sides (the disk's, not the code's) is left out, and without the
protocol: the server's work alone.

The steps, each loop adding one to the one before it:

- PilotSwarm's store statement on its table (the baseline: its columns, its ten indexes and
  its etag trigger);
- the facts row alone: the same row pgfacts writes, into a copy of the facts table with the
  same indexes and no trigger (what the table's shape costs: its indexes serve the reads,
  the scope rule and retrieval's lexical search);
- the facts row through the table's triggers (system time from the write instant, the etag,
  the crawl mark, retrieval's search document and embedding queue check): the guarantees
  every writer gets, whichever way it writes;
- store_fact: the SQL API (caller context read and checked, the fact's checks, the session
  registered and held, the upsert statement). The loops before it run as the benchmark's
  login, a superuser, whom row level security skips; store_fact is SECURITY DEFINER and
  runs as the install's owner, for whom the facts policies are forced, so its part also
  holds the identity switch and the policies' checks of the row it writes;
- call_tool('store_fact'): the agent tool (arguments checked, context set, dispatch).
"""

from __future__ import annotations

import statistics
from typing import Any

import psycopg

from .runner import Result, server_part

TENANT = "parts"
CONTEXT = (
    f"PERFORM pgfacts.set_context(tenant => '{TENANT}', session_id => 's1', "
    "agent_id => 'a1', agent_kind => 'agent');"
)
VALUE = "jsonb_build_object('n', i, 'text', 'observation number ' || i)"
# The columns the facts triggers would set, given as they would set them, for the copy
# without triggers; the row through the triggers is given only what a writer gives.
ROW_COLUMNS = "tenant, scope_key, key, value, shared, session_id, agent_id, tags, writer_kind"
ROW_VALUES = f"'{TENANT}', 'session:s1:' || k, k, {VALUE}, false, 's1', 'a1', '{{t1,tag}}', 'agent'"
TRIGGER_COLUMNS = (
    "system_time, created_at, updated_at, etag, owner_session_id, owner_agent_id, search_doc"
)
TRIGGER_VALUES = (
    "tstzrange(now(), NULL), now(), now(), i, 's1', 'a1', "
    f"pgfacts_internal.fact_search_doc(k, {VALUE}, '{{t1,tag}}')"
)
PS_ONE = (
    "jsonb_build_array(jsonb_build_object('scopeKey', 'session:s1:' || k, 'key', k, "
    f"'value', {VALUE}, 'agentId', 'a1', 'sessionId', 's1', 'shared', false, "
    "'transient', true, 'tags', '[\"t1\", \"tag\"]'::jsonb))"
)
LOOPS = {
    "empty": "PERFORM k;",
    "PilotSwarm store": "{pilotswarm_store}",
    "set_context": CONTEXT,
    "set_context + row alone": CONTEXT
    + f"INSERT INTO public.bench_parts_facts ({ROW_COLUMNS}, {TRIGGER_COLUMNS}) "
    f"VALUES ({ROW_VALUES}, {TRIGGER_VALUES});",
    "set_context + row with triggers": CONTEXT
    + f"INSERT INTO pgfacts_internal.facts ({ROW_COLUMNS}) VALUES ({ROW_VALUES});",
    "set_context + store_fact": CONTEXT + f"PERFORM pgfacts.store_fact(k, {VALUE}, '{{t1,tag}}');",
    "call_tool store_fact": "PERFORM pgfacts.call_tool('store_fact', jsonb_build_object("
    f"'key', k, 'value', {VALUE}, 'tags', '[\"t1\", \"tag\"]'::jsonb), "
    f'\'{{"tenant": "{TENANT}", "session_id": "s1", "agent_id": "a1", '
    '"agent_kind": "agent"}\');',
}

PROCEDURE = """
CREATE OR REPLACE PROCEDURE public.bench_parts_store_loop(
    prefix text, writes integer, INOUT microseconds double precision DEFAULT NULL)
LANGUAGE plpgsql AS $loop$
DECLARE
    started timestamptz;
    k text;
    n integer;
BEGIN
    started := clock_timestamp();
    FOR i IN 1 .. writes LOOP
        k := prefix || i;
        {statements}
        COMMIT;
    END LOOP;
    microseconds := extract(epoch FROM clock_timestamp() - started) * 1e6 / writes;
END
$loop$
"""


def measure(
    conn: psycopg.Connection[Any], writes: int, rounds: int, ps_table: str, ps_store: str
) -> list[Result]:
    """Each loop in ``rounds`` interleaved rounds of ``writes`` new facts; the parts as
    Results (one sample per round, in ms) whose notes give the microseconds. ``ps_table``
    and ``ps_store`` are PilotSwarm's table and store statement (bench/working_memory.py)."""
    conn.execute("SET synchronous_commit = off")
    conn.execute(ps_table.replace("bench_pilotswarm_facts", "bench_parts_pilotswarm"))
    loops = dict(LOOPS)
    loops["PilotSwarm store"] = (
        ps_store.replace("%s::jsonb", PS_ONE).replace(
            "SELECT count(*)::int FROM upserted", "SELECT count(*)::int INTO n FROM upserted"
        )
        + ";"
    )
    conn.execute(
        "CREATE TABLE public.bench_parts_facts (LIKE pgfacts_internal.facts INCLUDING ALL)"
    )
    micro: dict[str, list[float]] = {name: [] for name in loops}
    for round_ in range(rounds):
        for name, statements in loops.items():
            conn.execute(
                PROCEDURE.replace(
                    "{statements}",
                    statements.replace("bench_pilotswarm_facts", "bench_parts_pilotswarm"),
                )
            )
            prefix = f"r{round_}/{len(micro[name])}/{name.replace(' ', '-')}/"
            conn.execute("CALL public.bench_parts_store_loop(%s, %s)", (prefix + "warm/", 50))
            row = conn.execute(
                "CALL public.bench_parts_store_loop(%s, %s)", (prefix, writes)
            ).fetchone()
            assert row is not None
            micro[name].append(float(row[0]))
    conn.execute("DROP PROCEDURE public.bench_parts_store_loop")
    conn.execute("DROP TABLE public.bench_parts_facts, public.bench_parts_pilotswarm")
    conn.execute("RESET synchronous_commit")
    mid = {name: statistics.median(values) for name, values in micro.items()}

    def part(name: str, base: str, what: str) -> Result:
        return server_part(micro, name, base, what)

    pilotswarm = mid["PilotSwarm store"] - mid["empty"]
    tool = mid["call_tool store_fact"] - mid["empty"]
    return [
        Result(
            "server: empty transaction (store)",
            [value / 1000 for value in micro["empty"]],
            note=f"{writes:,} transactions a loop, one new fact each, synchronous_commit off; "
            f"{mid['empty']:.1f} us a transaction for the loop and COMMIT alone; in all: "
            f"PilotSwarm's store {pilotswarm:.1f} us against call_tool store_fact "
            f"{tool:.1f} us ({tool / pilotswarm:.2f}x)",
        ),
        part("PilotSwarm store", "empty", "PilotSwarm's store statement"),
        part("set_context", "empty", "set_context"),
        part("set_context + row alone", "set_context", "the facts row and its indexes"),
        part(
            "set_context + row with triggers",
            "set_context + row alone",
            "the facts triggers (system time, etag, crawl, search document)",
        ),
        part(
            "set_context + store_fact",
            "set_context + row with triggers",
            "store_fact's checks, session and upsert, as the owner under RLS",
        ),
        part("call_tool store_fact", "set_context + store_fact", "call_tool's dispatch"),
    ]
