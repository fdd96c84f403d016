"""Working-memory workload: store, read and delete through call_tool beside plain SQL.

Every agent tool call is one statement, ``SELECT pgfacts.call_tool(name, args, context)``,
so one round trip; each is measured next to the plain-SQL statement a hand-rolled store
would run against a plain table (``bench_plain``) holding the same rows, in the same run.

The data (``full``): 1,000 sessions as 100 spawn trees of 10 sessions, up to
five levels deep, each session holding 100 facts (100,000), plus 10,000 shared facts; keys
``proj/<p>/...`` over 50 projects, tags ``["t<k>", "batch"]`` on about half. Sessions are
registered by their first write (parent_session_id in the context), and the load itself
is the batch measurement: one ``store_fact`` batch of 100 per session.
"""

from __future__ import annotations

import itertools
import random
import statistics
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from .runner import Result, database_copy, timed

TENANT = "bench"
PROJECTS = 50
FACTS_PER_SESSION = 100  # one store_fact batch per session
TREE = (None, 0, 0, 1, 3, 4, 2, 2, 6, 8)  # parent index in the tree; 0 > 1 > 3 > 4 > 5
DEEP = 5  # the tree index of a session five levels down
TAG = "batch"


@dataclass(frozen=True)
class Size:
    trees: int
    shared: int
    repeat: int


SIZES = {
    "smoke": Size(trees=5, shared=500, repeat=50),  # 5,000 session + 500 shared facts
    "full": Size(trees=100, shared=10_000, repeat=1000),  # 100,000 + 10,000
}

CALL = "SELECT pgfacts.call_tool(%s, %s::jsonb, %s::jsonb)"
PLAIN_ROW = "(%s, %s::jsonb, %s::text[])"
PLAIN_INSERT = "INSERT INTO bench_plain (k, v, tags) VALUES "
PLAIN_READ = (
    "SELECT id, k, v, tags FROM bench_plain WHERE k LIKE %s AND tags @> %s::text[] "
    "ORDER BY id DESC LIMIT 50"
)

STORE = "store_fact (single)"
STORE_BASE = "baseline: plain INSERT, 1 row"
BATCH = "store_fact (batch of 100, per fact)"
BATCH_BASE = "baseline: plain INSERT of 100 rows, per row"
READ = "read_facts (accessible, pattern + tag, 50)"
READ_BASE = "baseline: plain SELECT LIKE + tags, limit 50"
DELETE = "delete_fact (exact key, own session)"
DELETE_BASE = "baseline: plain DELETE by key"
SOFT_BASE = "baseline: plain soft delete (UPDATE)"
SOFT_HISTORY_BASE = "baseline: plain soft delete + history row"
PLAIN_VERSIONS = (
    "CREATE TABLE bench_plain_versions (k text NOT NULL, v jsonb NOT NULL, tags text[] NOT NULL, "
    "system_time tstzrange NOT NULL, "
    "EXCLUDE USING gist (k WITH =, system_time WITH &&))"
)
SOFT_DELETE = "UPDATE bench_plain SET deleted_at = now() WHERE k = %s AND deleted_at IS NULL"
# The plain equivalent of a soft delete that keeps the version it replaces, with the same
# no-overlap exclusion constraint pgfacts' history has.
SOFT_DELETE_WITH_HISTORY = """
WITH d AS (UPDATE bench_plain SET deleted_at = now() WHERE k = %s AND deleted_at IS NULL
           RETURNING k, v, tags)
INSERT INTO bench_plain_versions (k, v, tags, system_time)
SELECT k, v, tags, tstzrange(now() - interval '1 hour', now()) FROM d
"""
# The history part of a write: the triggers that keep the previous version (archive it,
# and on insert find where an earlier history of the same scope key ends).
HISTORY_FUNCTIONS = (
    "pgfacts_internal.facts_before_insert_statement",
    "pgfacts_internal.facts_before_insert",
    "pgfacts_internal.facts_before_update",
    "pgfacts_internal.archive_fact_version",
    "pgfacts_internal.note_history_end",
)
# The split (same run, at the end, in a copy of the bench database): the same operations
# again with row level security off, then also without the retrieval layer's parts of a
# facts write (the embedding queue triggers, the search document and its two GIN indexes).
# History cannot be switched off (its triggers stamp every row); its share is the
# track_functions time above.
RLS_TABLES = (
    "facts",
    "fact_versions",
    "fact_purges",
    "sessions",
    "settings",
    "embedding_models",
    "embedding_queue",
    "embeddings",
)
NO_RLS = "".join(
    f"ALTER TABLE pgfacts_internal.{t} NO FORCE ROW LEVEL SECURITY; "
    f"ALTER TABLE pgfacts_internal.{t} DISABLE ROW LEVEL SECURITY; "
    for t in RLS_TABLES
)
NO_RETRIEVAL = (
    "ALTER TABLE pgfacts_internal.facts DISABLE TRIGGER facts_embeds_statement; "
    "ALTER TABLE pgfacts_internal.facts DISABLE TRIGGER facts_queue_embedding_insert; "
    "ALTER TABLE pgfacts_internal.facts DISABLE TRIGGER facts_queue_embedding; "
    "DROP INDEX pgfacts_internal.facts_search_idx; "
    "DROP INDEX pgfacts_internal.facts_key_trgm_idx; "
    # the write triggers set the document from this function: it now makes none
    "CREATE OR REPLACE FUNCTION pgfacts_internal.fact_search_doc("
    "key text, value jsonb, tags text[]) "
    "RETURNS tsvector LANGUAGE sql IMMUTABLE AS 'SELECT NULL::tsvector'"
)
RETRIEVAL_BYTES = """
SELECT sum(pg_column_size(search_doc)), pg_relation_size('pgfacts_internal.facts_search_idx'),
       pg_relation_size('pgfacts_internal.facts_key_trgm_idx')
  FROM pgfacts_internal.facts
"""
# PilotSwarm's own store on the same workload (issue 12: one server, Node pg, p50 / p95 ms;
# table and indexes after the load), and the targets set against it.
PILOTSWARM = {
    "store": "PilotSwarm 0.73 / 1.03 ms (target p95 <= 1.13)",
    "delete": "PilotSwarm 0.52 / 0.75 ms (target p95 <= 0.83)",
    "batch": "PilotSwarm 3.72 / 6.01 ms per batch (target p95 <= 7.51)",
    "read": "PilotSwarm 7.25 / 11.71 ms",
}
PILOTSWARM_MB = 61.1  # table and indexes after the load
FUNCTION_TIMES = """
SELECT schemaname || '.' || funcname, calls, total_time, self_time FROM pg_stat_user_functions
"""


def session_id(index: int) -> str:
    return f"s{index}"


def context(index: int) -> dict[str, str]:
    """The caller context of session ``index`` (its parent registers the spawn tree)."""
    tree, position = divmod(index, len(TREE))
    ctx = {
        "tenant": TENANT,
        "session_id": session_id(index),
        "agent_id": f"a{index}",
        "agent_kind": "agent",
    }
    parent = TREE[position]
    if parent is not None:
        ctx["parent_session_id"] = session_id(tree * len(TREE) + parent)
    return ctx


def make_fact(rng: random.Random, key: str, n: int) -> dict[str, Any]:
    fact: dict[str, Any] = {"key": key, "value": {"n": n, "text": f"observation number {n}"}}
    if rng.random() < 0.5:
        fact["tags"] = [f"t{rng.randrange(10)}", TAG]
    return fact


def plain_params(facts: list[dict[str, Any]]) -> list[Any]:
    params: list[Any] = []
    for fact in facts:
        params += [fact["key"], Jsonb(fact["value"]), fact.get("tags", [])]
    return params


def plain_insert(count: int) -> str:
    return PLAIN_INSERT + ", ".join([PLAIN_ROW] * count)


def call(conn: psycopg.Connection[Any], name: str, args: dict[str, Any], ctx: Any) -> Any:
    row = conn.execute(CALL, (name, Jsonb(args), Jsonb(ctx))).fetchone()
    assert row is not None
    return row[0]


def relation(conn: psycopg.Connection[Any], table: str) -> tuple[int, int]:
    row = conn.execute(
        f"SELECT count(*), pg_total_relation_size('{table}') FROM {table}"
    ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def history_share(conn: psycopg.Connection[Any], operation: Any, count: int) -> tuple[str, float]:
    """Run ``operation`` ``count`` times with function timing on (superuser; the bench
    database only); say what share of the SQL time the history triggers took, and return
    their time per call (us)."""
    conn.execute("SET track_functions = 'all'")
    conn.execute("SELECT pg_stat_reset()")
    for _ in range(count):
        operation()
    conn.execute("SELECT pg_stat_force_next_flush()")
    conn.execute("SET track_functions = 'none'")
    times = {name: (calls, total, own) for name, calls, total, own in conn.execute(FUNCTION_TIMES)}
    whole = times.get("pgfacts.call_tool", (count, 0.0, 0.0))[1]
    history = sum(times.get(name, (0, 0.0, 0.0))[2] for name in HISTORY_FUNCTIONS)
    if not whole:
        return "history share: not measured", 0.0
    return (
        f"history triggers: {history / count * 1000:.0f} us of {whole / count * 1000:.0f} us "
        f"SQL time per call ({history / whole:.0%}; track_functions over {count} calls)",
        history / count * 1000,
    )


def size_note(facts_bytes: int, sizes: tuple[Any, ...]) -> str:
    """The facts table with its indexes against PilotSwarm's store, whole and without what
    the retrieval layer keeps there (a search PilotSwarm's store does not offer)."""
    doc, search, trigram = (int(size or 0) for size in sizes)
    retrieval = doc + search + trigram
    store = facts_bytes - retrieval
    return (
        f"rows/bytes: pgfacts_internal.facts with indexes, {facts_bytes / 1e6:.1f} MB "
        f"({facts_bytes / 2**20:.1f} MiB), {facts_bytes / 1e6 / PILOTSWARM_MB:.2f}x "
        f"PilotSwarm's {PILOTSWARM_MB} MB (target 1.2x); of it retrieval "
        f"{retrieval / 2**20:.1f} MiB (search_doc {doc / 2**20:.1f} MiB in the heap, "
        f"facts_search_idx {search / 2**20:.1f} MiB, facts_key_trgm_idx "
        f"{trigram / 2**20:.1f} MiB); the store without it {store / 1e6:.1f} MB, "
        f"{store / 1e6 / PILOTSWARM_MB:.2f}x"
    )


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) if samples else float("nan")


def split_note(full: float, no_rls: float, bare: float, history_us: float) -> str:
    """The p50 of one operation split into base, history, row level security, retrieval."""
    history = history_us / 1000
    return (
        f"split of the p50 ({full:.3f} ms): base {bare - history:.3f}, history "
        f"{history:.3f}, row level security {full - no_rls:+.3f}, retrieval "
        f"{no_rls - bare:+.3f} (same run: RLS off, then retrieval off too)"
    )


def run(dsn: str, size: str) -> list[Result]:
    spec = SIZES[size]
    rng = random.Random(17)
    sessions = spec.trees * len(TREE)
    numbers = itertools.count()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE bench_plain (id bigserial PRIMARY KEY, k text NOT NULL, "
            "v jsonb NOT NULL, tags text[] NOT NULL DEFAULT '{}')"
        )
        conn.execute("CREATE INDEX bench_plain_k_idx ON bench_plain (k text_pattern_ops)")

        # Shared facts first, unmeasured: they warm up both write paths.
        batch_insert = plain_insert(FACTS_PER_SESSION)
        writer = {"tenant": TENANT, "session_id": "loader", "agent_id": "loader"}
        for start in range(0, spec.shared, FACTS_PER_SESSION):
            facts = []
            for _ in range(min(FACTS_PER_SESSION, spec.shared - start)):
                n = next(numbers)
                fact = make_fact(rng, f"proj/{n % PROJECTS}/shared/{n}", n)
                facts.append(fact | {"shared": True})
            stored = call(conn, "store_fact", {"facts": facts}, writer)
            assert stored["stored"] == len(facts), stored
            conn.execute(plain_insert(len(facts)), plain_params(facts))

        # Session facts: one measured batch of 100 per session, parents before children,
        # each next to the same 100 rows as one plain multi-row INSERT.
        batch_ms: list[float] = []
        batch_base_ms: list[float] = []
        loaded_keys: list[str] = []
        for index in range(sessions):
            facts = []
            for _ in range(FACTS_PER_SESSION):
                n = next(numbers)
                facts.append(make_fact(rng, f"proj/{rng.randrange(PROJECTS)}/item/{n}", n))
            loaded_keys += [fact["key"] for fact in facts[:3]]
            args = Jsonb({"facts": facts})
            ctx = Jsonb(context(index))
            batch_ms += timed(
                lambda args=args, ctx=ctx: conn.execute(CALL, ("store_fact", args, ctx)).fetchone(),
                1,
                warmup=0,
            )
            params = plain_params(facts)
            batch_base_ms += timed(
                lambda params=params: conn.execute(batch_insert, params), 1, warmup=0
            )
        per_fact = [ms / FACTS_PER_SESSION for ms in batch_ms]
        per_row = [ms / FACTS_PER_SESSION for ms in batch_base_ms]

        loaded = sessions * FACTS_PER_SESSION + spec.shared
        facts_rows, facts_bytes = relation(conn, "pgfacts_internal.facts")
        plain_rows, plain_bytes = relation(conn, "bench_plain")
        retrieval_bytes = conn.execute(RETRIEVAL_BYTES).fetchone()
        assert retrieval_bytes is not None
        assert facts_rows == loaded, (facts_rows, loaded)
        assert plain_rows == loaded, (plain_rows, loaded)
        row = conn.execute(
            "SELECT count(*), count(parent_session_id) FROM pgfacts_internal.sessions "
            "WHERE tenant = %s AND session_id <> 'loader'",
            (TENANT,),
        ).fetchone()
        assert row == (sessions, sessions - spec.trees), row
        conn.execute("VACUUM ANALYZE pgfacts_internal.facts")
        conn.execute("VACUUM ANALYZE pgfacts_internal.sessions")
        conn.execute("VACUUM ANALYZE bench_plain")

        # Single stores over fresh keys, round robin over the existing sessions; the keys
        # are kept for the deletes below. Warm-up calls (5) store keys too.
        stored_keys: list[tuple[int, str]] = []

        def fresh() -> tuple[int, dict[str, Any]]:
            n = next(numbers)
            index = n % sessions
            fact = make_fact(rng, f"proj/{n % PROJECTS}/note/{n}", n)
            return index, fact

        def store_one() -> None:
            index, fact = fresh()
            result = call(conn, "store_fact", fact, context(index))
            assert result["stored"], result
            stored_keys.append((index, fact["key"]))

        store_ms = timed(store_one, spec.repeat)
        plain_keys: list[str] = []
        single_insert = plain_insert(1)

        def plain_one() -> None:
            _, fact = fresh()
            conn.execute(single_insert, plain_params([fact]))
            plain_keys.append(fact["key"])

        store_base_ms = timed(plain_one, spec.repeat)

        # Reads from a session five levels down, a different tree and project each time.
        reads = itertools.count()
        found: list[int] = []

        def read() -> None:
            i = next(reads)
            index = (i % spec.trees) * len(TREE) + DEEP
            args = {"key_pattern": f"proj/{i % PROJECTS}/*", "tags": [TAG], "limit": 50}
            result = call(conn, "read_facts", args, context(index))
            assert result["count"] > 0, (args, index)
            found.append(result["count"])

        read_ms = timed(read, spec.repeat)
        plain_reads = itertools.count()

        def plain_read() -> None:
            i = next(plain_reads)
            rows = conn.execute(PLAIN_READ, (f"proj/{i % PROJECTS}/%", [TAG])).fetchall()
            assert rows

        read_base_ms = timed(plain_read, spec.repeat)

        # Deletes of the facts the single stores wrote, each by its own session.
        deletes = iter(stored_keys)

        def delete() -> None:
            index, key = next(deletes)
            result = call(conn, "delete_fact", {"key": key}, context(index))
            assert result["deleted"], (key, result)

        delete_ms = timed(delete, spec.repeat)
        plain_deletes = iter(plain_keys)

        def plain_delete() -> None:
            cursor = conn.execute("DELETE FROM bench_plain WHERE k = %s", (next(plain_deletes),))
            assert cursor.rowcount == 1

        delete_base_ms = timed(plain_delete, spec.repeat)

        # The same rows soft-deleted in plain SQL, without and with a history row.
        conn.execute("ALTER TABLE bench_plain ADD COLUMN deleted_at timestamptz")
        conn.execute(PLAIN_VERSIONS)
        soft_keys = iter(loaded_keys)

        def soft_delete(statement: str) -> None:
            cursor = conn.execute(statement, (next(soft_keys),))
            assert cursor.rowcount == 1

        count = min(spec.repeat, len(loaded_keys) // 2 - 5)
        soft_ms = timed(lambda: soft_delete(SOFT_DELETE), count)
        soft_history_ms = timed(lambda: soft_delete(SOFT_DELETE_WITH_HISTORY), count)

        # The split: what share of a store and of a delete the history triggers take.
        diagnostic = min(200, spec.repeat)
        for _ in range(diagnostic):
            store_one()
        split_keys = iter(stored_keys[-diagnostic:])

        def delete_again() -> None:
            index, key = next(split_keys)
            call(conn, "delete_fact", {"key": key}, context(index))

        delete_split, delete_history = history_share(conn, delete_again, diagnostic)
        store_split, store_history = history_share(conn, store_one, diagnostic)

        def store_batch() -> None:
            index = next(numbers) % sessions
            facts = []
            for _ in range(FACTS_PER_SESSION):
                n = next(numbers)
                facts.append(make_fact(rng, f"proj/{n % PROJECTS}/extra/{n}", n))
            call(conn, "store_fact", {"facts": facts}, context(index))

        batch_split, batch_history = history_share(conn, store_batch, max(5, diagnostic // 10))

        def again() -> tuple[float, float, float]:
            """p50 ms of a single store, a delete of it and a batch, as the database is now."""
            first = len(stored_keys)
            stores = timed(store_one, diagnostic)
            own = iter(stored_keys[first:])

            def delete_own() -> None:
                index, key = next(own)
                call(conn, "delete_fact", {"key": key}, context(index))

            deletes = timed(delete_own, diagnostic)
            batches = timed(store_batch, max(10, diagnostic // 4))
            return median_ms(stores), median_ms(deletes), median_ms(batches)

    # The split runs in a copy of the database: the workloads after this one use this one.
    # The closures above call through the name conn, which now names the copy's connection.
    with database_copy(dsn) as copy, psycopg.connect(copy, autocommit=True) as conn:
        full = again()
        conn.execute(NO_RLS)
        no_rls = again()
        conn.execute(NO_RETRIEVAL)
        bare = again()
        splits = [
            split_note(full[i], no_rls[i], bare[i], history)
            for i, history in enumerate((store_history, delete_history, batch_history))
        ]

    shape = f"{sessions:,} sessions in {spec.trees} trees of {len(TREE)}, 5 levels deep"
    return [
        Result(STORE_BASE, store_base_ms),
        Result(
            STORE,
            store_ms,
            baseline=STORE_BASE,
            note="target: p95 <= 2 ms and within 3x of the plain INSERT; fresh keys, "
            f"existing sessions; {store_split}; {splits[0]}; {PILOTSWARM['store']}",
        ),
        Result(
            BATCH_BASE,
            per_row,
            rows=plain_rows,
            bytes=plain_bytes,
            note="rows/bytes: bench_plain (btree on k) after the load",
        ),
        Result(
            BATCH,
            per_fact,
            baseline=BATCH_BASE,
            rows=facts_rows,
            bytes=facts_bytes,
            note=f"the load itself, one batch per session ({shape}), after "
            f"{spec.shared:,} shared facts; per batch p50 / p95 {median_ms(batch_ms):.2f} / "
            f"{Result(BATCH, batch_ms).p95:.2f} ms, {PILOTSWARM['batch']}; {batch_split}; "
            f"{splits[2]}; {size_note(facts_bytes, retrieval_bytes)}",
        ),
        Result(READ_BASE, read_base_ms),
        Result(
            READ,
            read_ms,
            baseline=READ_BASE,
            rows=round(sum(found) / len(found)),
            note=f"target: p95 <= 3 ms; from a session 5 levels down, key proj/<p>/*, tag "
            f"{TAG}; rows: mean returned; {PILOTSWARM['read']}",
        ),
        Result(DELETE_BASE, delete_base_ms),
        Result(SOFT_BASE, soft_ms, note="a tombstone, as PilotSwarm's delete writes"),
        Result(
            SOFT_HISTORY_BASE,
            soft_history_ms,
            baseline=SOFT_BASE,
            note="the tombstone plus the old version in a table with a no-overlap exclusion "
            "constraint, in one statement",
        ),
        Result(
            DELETE,
            delete_ms,
            baseline=SOFT_HISTORY_BASE,
            note=f"a tombstone plus a history version; {delete_split}; {splits[1]}; "
            f"{PILOTSWARM['delete']}",
        ),
    ]
