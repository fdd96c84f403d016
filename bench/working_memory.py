"""Working-memory workload: store, read and delete through call_tool beside plain SQL.

Every agent tool call is one statement, ``SELECT pgfacts.call_tool(name, args, context)``,
so one round trip; each is measured next to the plain-SQL statement a hand-rolled store
would run against a plain table (``bench_plain``) holding the same rows, in the same run.
The writes (store, batch, delete) are also measured next to PilotSwarm's store written by
plain SQL: a table with PilotSwarm's columns, indexes and ``facts_touch`` trigger
(``bench_pilotswarm_facts``), holding the same rows, written by PilotSwarm's own statements
(an upsert by scope key; a delete is its soft delete), taking turns call by call.

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

from . import working_memory_parts
from .runner import Result, database_copy, timed, timed_together

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
PS_STORE_BASE = "baseline: PilotSwarm upsert, 1 row"
PS_BATCH_BASE = "baseline: PilotSwarm upsert of 100, per row"
PS_DELETE_BASE = "baseline: PilotSwarm soft delete"
PS_TARGET = 1.25  # pgfacts' p95 against the PilotSwarm table's, same run
# PilotSwarm's facts table as its base store leaves it (packages/sdk/src/facts-migrations.ts,
# the final state after its migrations 0001-0011): its columns, indexes and facts_touch
# trigger (an insert, or a change of key, value or deleted_at, bumps the etag and requeues
# the row for crawl), in the public schema of the bench database.
PS_TABLE = """
CREATE TABLE bench_pilotswarm_facts (
    id bigserial PRIMARY KEY,
    scope_key text NOT NULL UNIQUE,
    key text NOT NULL,
    value jsonb NOT NULL,
    agent_id text,
    session_id text,
    shared boolean NOT NULL DEFAULT false,
    transient boolean NOT NULL DEFAULT false,
    tags text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    last_crawled_at timestamptz,
    deleted_at timestamptz,
    etag bigint NOT NULL DEFAULT 0,
    CHECK (NOT (shared AND transient))
);
CREATE INDEX idx_bench_pilotswarm_facts_key ON bench_pilotswarm_facts (key);
CREATE INDEX idx_bench_pilotswarm_facts_tags ON bench_pilotswarm_facts USING gin (tags);
CREATE INDEX idx_bench_pilotswarm_facts_session ON bench_pilotswarm_facts (session_id);
CREATE INDEX idx_bench_pilotswarm_facts_agent ON bench_pilotswarm_facts (agent_id);
CREATE INDEX idx_bench_pilotswarm_facts_shared ON bench_pilotswarm_facts (shared);
CREATE INDEX idx_bench_pilotswarm_facts_transient ON bench_pilotswarm_facts (transient);
CREATE INDEX idx_bench_pilotswarm_facts_tombstones ON bench_pilotswarm_facts (deleted_at)
    WHERE deleted_at IS NOT NULL;
CREATE INDEX idx_bench_pilotswarm_facts_uncrawled_key
    ON bench_pilotswarm_facts (key text_pattern_ops, id) WHERE last_crawled_at IS NULL;
CREATE FUNCTION bench_pilotswarm_facts_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.etag := COALESCE(NEW.etag, 0) + 1;
        NEW.last_crawled_at := NULL;
    ELSIF NEW.key IS DISTINCT FROM OLD.key OR NEW.value IS DISTINCT FROM OLD.value
          OR NEW.deleted_at IS DISTINCT FROM OLD.deleted_at THEN
        NEW.etag := COALESCE(OLD.etag, 0) + 1;
        NEW.last_crawled_at := NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER facts_touch BEFORE INSERT OR UPDATE ON bench_pilotswarm_facts
    FOR EACH ROW EXECUTE FUNCTION bench_pilotswarm_facts_touch();
"""
# PilotSwarm's store (facts_store_fact's body, sent as one statement): a JSON array of
# facts, a single one as a one-element array, upserted by scope key in one statement.
PS_STORE = """
WITH input AS (
    SELECT e->>'scopeKey' AS scope_key, e->>'key' AS key, e->'value' AS value,
           e->>'agentId' AS agent_id, e->>'sessionId' AS session_id,
           coalesce((e->>'shared')::boolean, false) AS shared,
           coalesce((e->>'transient')::boolean, true) AS transient,
           coalesce(ARRAY(SELECT jsonb_array_elements_text(e->'tags')), '{}') AS tags
      FROM jsonb_array_elements(%s::jsonb) AS e),
upserted AS (
    INSERT INTO bench_pilotswarm_facts
           (scope_key, key, value, agent_id, session_id, shared, transient, tags)
    SELECT scope_key, key, value, agent_id, session_id, shared, transient, tags FROM input
    ON CONFLICT (scope_key) DO UPDATE SET key = EXCLUDED.key, value = EXCLUDED.value,
        agent_id = EXCLUDED.agent_id, session_id = EXCLUDED.session_id,
        shared = EXCLUDED.shared, transient = EXCLUDED.transient, tags = EXCLUDED.tags,
        deleted_at = NULL, updated_at = now()
    RETURNING 1)
SELECT count(*)::int FROM upserted
"""
# PilotSwarm's exact delete (facts_delete_fact): a soft delete; its trigger bumps the etag.
PS_DELETE = (
    "UPDATE bench_pilotswarm_facts SET deleted_at = now(), updated_at = now() "
    "WHERE scope_key = %s AND deleted_at IS NULL"
)
# The PilotSwarm table must hold the rows pgfacts' facts hold: the rows either has and the
# other has not (scope key, key, value, tags, shared, live or tombstone), counted; then the
# live rows, and the rows whose etag is not what facts_touch gives (1 stored, 2 deleted).
# (pgfacts keeps a fact's tags sorted and distinct; PilotSwarm as given: compared sorted.)
PS_SAME_ROWS = """
WITH f AS (SELECT scope_key, key, value, tags, shared, deleted_at IS NULL AS live
             FROM pgfacts_internal.facts WHERE tenant = %s),
     p AS (SELECT scope_key, key, value,
                  ARRAY(SELECT DISTINCT t FROM unnest(tags) AS t ORDER BY t) AS tags,
                  shared, deleted_at IS NULL AS live
             FROM bench_pilotswarm_facts)
SELECT (SELECT count(*) FROM (TABLE f EXCEPT ALL TABLE p) AS d),
       (SELECT count(*) FROM (TABLE p EXCEPT ALL TABLE f) AS d),
       (SELECT count(*) FROM p WHERE live),
       (SELECT count(*) FROM bench_pilotswarm_facts
         WHERE etag <> CASE WHEN deleted_at IS NULL THEN 1 ELSE 2 END)
"""
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
# The in-server split of a store: new facts a loop, each loop in five rounds.
PARTS_WRITES = {"smoke": 300, "full": 5000}
PARTS_ROUNDS = 5
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


def ps_facts(facts: list[dict[str, Any]], ctx: dict[str, str]) -> Jsonb:
    """PilotSwarm's store input for ``facts`` written by the caller ``ctx``: its scope key
    (computeScopeKey), the writer's agent and session (recorded on shared facts too), and
    transient as not shared."""
    elements = []
    for fact in facts:
        shared = bool(fact.get("shared", False))
        scope = "shared:" if shared else f"session:{ctx['session_id']}:"
        elements.append(
            {
                "scopeKey": scope + fact["key"],
                "key": fact["key"],
                "value": fact["value"],
                "agentId": ctx["agent_id"],
                "sessionId": ctx["session_id"],
                "shared": shared,
                "transient": not shared,
                "tags": fact.get("tags", []),
            }
        )
    return Jsonb(elements)


def ps_store(conn: psycopg.Connection[Any], facts: Jsonb, count: int) -> None:
    """PilotSwarm's upsert of ``facts``; it must report ``count`` rows stored."""
    row = conn.execute(PS_STORE, (facts,)).fetchone()
    assert row is not None and row[0] == count, (row, count)


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


def size_note(facts_bytes: int, sizes: tuple[Any, ...], ps_bytes: int) -> str:
    """The facts table with its indexes against PilotSwarm's store (the same-run table
    holding the same rows, and PilotSwarm's own figure), whole and without what the
    retrieval layer keeps there (a search PilotSwarm's store does not offer)."""
    doc, search, trigram = (int(size or 0) for size in sizes)
    retrieval = doc + search + trigram
    store = facts_bytes - retrieval
    return (
        f"rows/bytes: pgfacts_internal.facts with indexes, {facts_bytes / 1e6:.1f} MB "
        f"({facts_bytes / 2**20:.1f} MiB), {facts_bytes / ps_bytes:.2f}x the same-run "
        f"PilotSwarm table's {ps_bytes / 1e6:.1f} MB (target 1.2x; PilotSwarm's own figure "
        f"{PILOTSWARM_MB} MB: {facts_bytes / 1e6 / PILOTSWARM_MB:.2f}x); of it retrieval "
        f"{retrieval / 2**20:.1f} MiB (search_doc {doc / 2**20:.1f} MiB in the heap, "
        f"facts_search_idx {search / 2**20:.1f} MiB, facts_key_trgm_idx "
        f"{trigram / 2**20:.1f} MiB); the store without it {store / 1e6:.1f} MB, "
        f"{store / ps_bytes:.2f}x the same-run table's, {store / 1e6 / PILOTSWARM_MB:.2f}x "
        "PilotSwarm's own"
    )


def against(ours: list[float], base: list[float]) -> str:
    """pgfacts' p95 against a PilotSwarm-table baseline's, and the target."""
    mine, theirs = Result("pgfacts", ours), Result("baseline", base)
    ratio = mine.p95 / theirs.p95
    verdict = "met" if ratio <= PS_TARGET else "missed"
    return (
        f"target: p95 <= {PS_TARGET}x the PilotSwarm table's p95, same run: p95 "
        f"{mine.p95:.3f} / {theirs.p95:.3f} ms = {ratio:.2f}x, {verdict} (p50 "
        f"{mine.p50:.3f} / {theirs.p50:.3f} ms = {mine.p50 / theirs.p50:.2f}x)"
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
        conn.execute(PS_TABLE)

        # Shared facts first, unmeasured: they warm up the three write paths.
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
            ps_store(conn, ps_facts(facts, writer), len(facts))

        # Session facts: one measured batch of 100 per session, parents before children,
        # each next to the same 100 rows as one plain multi-row INSERT and as PilotSwarm's
        # upsert of 100 in one statement, the three taking turns (each session's round
        # starts with the next one).
        batch_ms: list[float] = []
        batch_base_ms: list[float] = []
        ps_batch_ms: list[float] = []
        loaded_keys: list[str] = []
        for index in range(sessions):
            facts = []
            for _ in range(FACTS_PER_SESSION):
                n = next(numbers)
                facts.append(make_fact(rng, f"proj/{rng.randrange(PROJECTS)}/item/{n}", n))
            loaded_keys += [fact["key"] for fact in facts[:3]]
            args = Jsonb({"facts": facts})
            ctx = Jsonb(context(index))
            params = plain_params(facts)
            ps_input = ps_facts(facts, context(index))

            def store_batch_call(args: Jsonb = args, ctx: Jsonb = ctx) -> None:
                row = conn.execute(CALL, ("store_fact", args, ctx)).fetchone()
                assert row is not None and row[0]["stored"] == FACTS_PER_SESSION, row

            ours, plain, ps = timed_together(
                [
                    store_batch_call,
                    lambda params=params: conn.execute(batch_insert, params),
                    lambda ps_input=ps_input: ps_store(conn, ps_input, FACTS_PER_SESSION),
                ],
                1,
                warmup=0,
                first=index,
            )
            batch_ms += ours
            batch_base_ms += plain
            ps_batch_ms += ps
        per_fact = [ms / FACTS_PER_SESSION for ms in batch_ms]
        per_row = [ms / FACTS_PER_SESSION for ms in batch_base_ms]
        ps_per_row = [ms / FACTS_PER_SESSION for ms in ps_batch_ms]

        loaded = sessions * FACTS_PER_SESSION + spec.shared
        facts_rows, facts_bytes = relation(conn, "pgfacts_internal.facts")
        plain_rows, plain_bytes = relation(conn, "bench_plain")
        ps_rows, ps_bytes = relation(conn, "bench_pilotswarm_facts")
        same = conn.execute(PS_SAME_ROWS, (TENANT,)).fetchone()
        assert same == (0, 0, loaded, 0), ("the PilotSwarm table holds other rows", same)
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
        conn.execute("VACUUM ANALYZE bench_pilotswarm_facts")

        # Single stores over fresh keys, round robin over the existing sessions; the keys
        # are kept for the deletes below. Warm-up calls (5) store keys too.
        stored_keys: list[tuple[int, str]] = []

        def fresh() -> tuple[int, dict[str, Any]]:
            n = next(numbers)
            index = n % sessions
            fact = make_fact(rng, f"proj/{n % PROJECTS}/note/{n}", n)
            return index, fact

        def store_given(index: int, fact: dict[str, Any]) -> None:
            result = call(conn, "store_fact", fact, context(index))
            assert result["stored"], result
            stored_keys.append((index, fact["key"]))

        def store_one() -> None:
            store_given(*fresh())

        # The same facts by store_fact, the plain INSERT and PilotSwarm's upsert, taking
        # turns call by call (5 warm-up rounds).
        singles = [fresh() for _ in range(spec.repeat + 5)]
        single_insert = plain_insert(1)
        ours_singles, plain_singles, ps_singles = iter(singles), iter(singles), iter(singles)

        def plain_one() -> None:
            _, fact = next(plain_singles)
            conn.execute(single_insert, plain_params([fact]))

        def ps_one() -> None:
            index, fact = next(ps_singles)
            ps_store(conn, ps_facts([fact], context(index)), 1)

        store_ms, store_base_ms, ps_store_ms = timed_together(
            [lambda: store_given(*next(ours_singles)), plain_one, ps_one], spec.repeat
        )

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

        # Deletes of the facts the single stores wrote, each by its own session, next to
        # the plain DELETE and PilotSwarm's soft delete of the same keys, taking turns.
        deletes, plain_deletes, ps_deletes = iter(singles), iter(singles), iter(singles)

        def delete() -> None:
            index, fact = next(deletes)
            result = call(conn, "delete_fact", {"key": fact["key"]}, context(index))
            assert result["deleted"], (fact["key"], result)

        def plain_delete() -> None:
            _, fact = next(plain_deletes)
            cursor = conn.execute("DELETE FROM bench_plain WHERE k = %s", (fact["key"],))
            assert cursor.rowcount == 1

        def ps_delete() -> None:
            index, fact = next(ps_deletes)
            scope_key = f"session:{session_id(index)}:{fact['key']}"
            cursor = conn.execute(PS_DELETE, (scope_key,))
            assert cursor.rowcount == 1, scope_key

        delete_ms, delete_base_ms, ps_delete_ms = timed_together(
            [delete, plain_delete, ps_delete], spec.repeat
        )
        # Both tables still hold the same rows: the stored facts are tombstones in both,
        # with the etag PilotSwarm's trigger gives a delete (2).
        same = conn.execute(PS_SAME_ROWS, (TENANT,)).fetchone()
        assert same == (0, 0, loaded, 0), ("the PilotSwarm table holds other rows", same)

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
        # Where a store's time goes inside the server (bench/working_memory_parts.py).
        parts = working_memory_parts.measure(
            conn, PARTS_WRITES[size], PARTS_ROUNDS, PS_TABLE, PS_STORE
        )
        conn.execute(NO_RLS)
        no_rls = again()
        conn.execute(NO_RETRIEVAL)
        bare = again()
        splits = [
            split_note(full[i], no_rls[i], bare[i], history)
            for i, history in enumerate((store_history, delete_history, batch_history))
        ]

    shape = f"{sessions:,} sessions in {spec.trees} trees of {len(TREE)}, 5 levels deep"
    ps_table = (
        "a table with PilotSwarm's columns, indexes (unique scope_key, key, GIN tags, "
        "session, agent, shared, transient, tombstones, uncrawled key) and facts_touch "
        "trigger (etag, crawl state), holding the same rows as pgfacts' facts"
    )
    return [
        Result(STORE_BASE, store_base_ms, note="the same facts, taking turns with store_fact"),
        Result(
            PS_STORE_BASE,
            ps_store_ms,
            note=f"PilotSwarm's store statement (facts_store_fact's INSERT ... ON CONFLICT "
            f"(scope_key) DO UPDATE of a one-element JSON array), one round trip, on {ps_table}; "
            "the same facts, taking turns with store_fact and the plain INSERT call by call",
        ),
        Result(
            STORE,
            store_ms,
            baseline=STORE_BASE,
            note="target: p95 <= 2 ms and within 3x of the plain INSERT; fresh keys, "
            f"existing sessions; {store_split}; {splits[0]}; {PILOTSWARM['store']}\n"
            f"    {against(store_ms, ps_store_ms)}",
        ),
        Result(
            BATCH_BASE,
            per_row,
            rows=plain_rows,
            bytes=plain_bytes,
            note="rows/bytes: bench_plain (btree on k) after the load",
        ),
        Result(
            PS_BATCH_BASE,
            ps_per_row,
            rows=ps_rows,
            bytes=ps_bytes,
            note="PilotSwarm's store statement with the session's 100 facts as one JSON array: "
            "one upsert of 100 rows in one statement, one round trip; per batch p50 / p95 "
            f"{median_ms(ps_batch_ms):.2f} / {Result(PS_BATCH_BASE, ps_batch_ms).p95:.2f} ms; "
            "taking turns with store_fact and the plain INSERT (each session's round starts "
            f"with the next one); rows/bytes: bench_pilotswarm_facts with its indexes after "
            f"the load, {ps_table} (checked row by row)",
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
            f"{splits[2]}; {size_note(facts_bytes, retrieval_bytes, ps_bytes)}\n"
            f"    {against(batch_ms, ps_batch_ms)}",
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
        Result(DELETE_BASE, delete_base_ms, note="the same keys, taking turns with delete_fact"),
        Result(
            PS_DELETE_BASE,
            ps_delete_ms,
            note="PilotSwarm's exact delete (facts_delete_fact): UPDATE ... SET deleted_at = "
            "now(), updated_at = now() WHERE scope_key = ... AND deleted_at IS NULL, its "
            "trigger bumping the etag and requeueing the row; the same keys, taking turns with "
            "delete_fact and the plain DELETE call by call; tombstones and etags checked",
        ),
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
            f"{PILOTSWARM['delete']}\n    {against(delete_ms, ps_delete_ms)}",
        ),
        *parts,
    ]
