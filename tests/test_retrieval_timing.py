"""Timing of search on a word another tenant holds many times (docs/security.md).

The GIN indexes behind search, search_claims and find_keys lead with the tenant, so a
tenant's search for a word another tenant holds 20,000 times reads as many rows as its
search for a word only it holds: none of the other tenant's rows is fetched, and the
planner (whose statistics cover every tenant) does not turn to reading the caller's whole
tenant either. pg_stat_xact_user_tables counts the rows read. PGFACTS_TIMING=1 also prints
the wall times.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Iterator

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database

CALLS = {
    "search": "SELECT count(*) FROM pgfacts.search(%s)",
    "search_claims": "SELECT count(*) FROM pgfacts.search_claims(%s)",
    "find_keys": "SELECT count(*) FROM pgfacts.find_keys(%s)",
}
T1 = "SELECT pgfacts.set_context(tenant => 't1', session_id => 's1', agent_kind => 'operator')"
READ = (
    "SELECT coalesce(sum(idx_tup_fetch + seq_tup_read), 0) FROM pg_stat_xact_user_tables"
    " WHERE relid IN ('pgfacts_internal.facts'::regclass, 'pgfacts_internal.claims'::regclass)"
)


def _load(db: Database) -> None:
    with db.connect("app", autocommit=True) as conn:

        def run(tenant: str, sql: str, *params: object) -> object:
            with conn.transaction():
                conn.execute(
                    "SELECT pgfacts.set_context(tenant => %s, session_id => 's1', "
                    "agent_kind => 'operator')",
                    (tenant,),
                )
                row = conn.execute(sql, params).fetchone()
            return row[0] if row else None

        # t2 holds the word 20,000 times; t1 a few times, among 3,000 facts of its own.
        for tenant, word, batches in (("t2", "zebra", 20), ("t1", "alpha", 3)):
            for b in range(batches):
                facts = [
                    {
                        "key": f"notes/{word}-{b}-{i}",
                        "value": f"{word} note {b} {i}",
                        "shared": True,
                    }
                    for i in range(1000)
                ]
                run(tenant, "SELECT pgfacts.store_facts(%s)", Jsonb(facts))
        mine = [
            {"key": f"notes/{word}-t1-{i}", "value": f"{word} seen {i}", "shared": True}
            for word in ("zebra", "quokka")
            for i in range(3)
        ]
        run("t1", "SELECT pgfacts.store_facts(%s)", Jsonb(mine))
        things = {}
        for tenant in ("t2", "t1"):
            run(tenant, "SELECT pgfacts.define_predicate('note', 'many', 'a note')")
            things[tenant] = run(tenant, "SELECT pgfacts.ensure_entity('thing', 'Thing')")
    # The claims as rows, set-based (ingest wrote 1,000 a call at about 2 ms a claim, most
    # of this test's time): what is measured is their reading.
    with db.admin() as admin:
        for tenant, words in (
            ("t2", {"zebra": 5000}),
            ("t1", {"alpha": 2000, "zebra": 3, "quokka": 3}),
        ):
            for word, count in words.items():
                admin.execute(
                    """INSERT INTO pgfacts_internal.claims (tenant, subject_id, predicate,
                           cardinality, object_value, text, confidence, assertion, valid,
                           system_time)
                       SELECT %(tenant)s, %(thing)s, 'note', 'many',
                              to_jsonb(format('%%s %%s', %(word)s::text, i)),
                              format('%%s observed %%s', %(word)s::text, i), 1,
                              format('timing:%%s:%%s', %(word)s::text, i),
                              tstzrange('2026-01-01', NULL), tstzrange(now(), NULL)
                         FROM generate_series(1, %(count)s) AS i""",
                    {"tenant": tenant, "thing": things[tenant], "word": word, "count": count},
                )
        admin.execute("VACUUM ANALYZE pgfacts_internal.facts")
        admin.execute("VACUUM ANALYZE pgfacts_internal.claims")


def _rows_read(conn: psycopg.Connection, sql: str, word: str) -> int:
    with conn.transaction():
        conn.execute(T1)
        before = conn.execute(READ).fetchone()
        conn.execute(sql, (word,)).fetchall()
        after = conn.execute(READ).fetchone()
    assert before is not None and after is not None
    return int(after[0]) - int(before[0])


# One load for both tests, on one worker: the second adds tenants the first does not read.
SHARES_THE_LOAD = pytest.mark.xdist_group("retrieval_timing_load")


@pytest.fixture(scope="module")
def loaded(module_db: Database) -> Iterator[Database]:
    _load(module_db)
    yield module_db


@SHARES_THE_LOAD
def test_search_reads_no_more_for_a_word_another_tenant_holds(loaded: Database) -> None:
    db = loaded
    with db.connect("app", autocommit=True) as conn:
        for name, sql in CALLS.items():
            for _ in range(3):
                _rows_read(conn, sql, "quokka")
            got = {word: _rows_read(conn, sql, word) for word in ("zebra", "quokka")}
            assert got["zebra"] == got["quokka"], (name, got)
        if os.environ.get("PGFACTS_TIMING"):
            for name, sql in CALLS.items():
                times: dict[str, list[float]] = {"zebra": [], "quokka": []}
                for _ in range(100):
                    for word in times:
                        with conn.transaction():
                            conn.execute(T1)
                            start = time.perf_counter()
                            conn.execute(sql, (word,)).fetchall()
                            times[word].append(time.perf_counter() - start)
                common, rare = statistics.median(times["zebra"]), statistics.median(times["quokka"])
                print(
                    f"{name}: another tenant's word {common * 1e3:.3f} ms, own word "
                    f"{rare * 1e3:.3f} ms, ratio {common / rare:.2f}"
                )


ENTITIES_READ = (
    "SELECT coalesce(sum(idx_tup_fetch + seq_tup_read), 0) FROM pg_stat_xact_user_tables"
    " WHERE relid = 'pgfacts_internal.entities'::regclass"
)

# Many small tenants: 2,000 of 5 facts and 5 claims each, as rows.
SMALL_TENANTS = """
WITH t AS (SELECT 'small-' || n AS tenant FROM generate_series(1, 2000) AS n),
     p AS (INSERT INTO pgfacts_internal.predicates (tenant, name, cardinality)
           SELECT tenant, 'note', 'many' FROM t RETURNING tenant),
     e AS (INSERT INTO pgfacts_internal.entities (tenant, kind, name)
           SELECT tenant, 'thing', 'Thing' FROM p RETURNING tenant, entity_id),
     f AS (INSERT INTO pgfacts_internal.facts (tenant, scope_key, key, value, shared,
               created_at, updated_at, etag, system_time)
           SELECT t.tenant, 'shared:notes/' || i, 'notes/' || i, to_jsonb('quokka ' || i), true,
                  now(), now(), 1, tstzrange(now(), NULL)
             FROM t, generate_series(1, 5) AS i RETURNING 1)
INSERT INTO pgfacts_internal.claims (tenant, subject_id, predicate, cardinality, object_value,
    text, confidence, assertion, valid, system_time)
SELECT e.tenant, e.entity_id, 'note', 'many', to_jsonb('quokka ' || i), 'quokka noted ' || i,
       1, 'small:' || i, tstzrange('2026-01-01', NULL), tstzrange(now(), NULL)
  FROM e, generate_series(1, 5) AS i"""


@SHARES_THE_LOAD
def test_one_plan_a_session_reads_only_the_callers_matches_among_many_tenants(
    loaded: Database,
) -> None:
    """The text candidates keep one plan a session. Costed for an average tenant of an install
    of many small ones, a plan by `tenant = $1` read a large tenant's every row through a
    tenant B-tree; the tenant compared under collation "C" has only the search indexes to
    take it (migrations 0056, 0057), so t1 (3,006 facts, 2,006 claims, 3,001 entities) reads
    as many rows for quokka as before the small tenants came, and the one person a question
    names, in a session whose plans were made for small tenants first."""
    db = loaded
    # What t1's searches read before the small tenants exist (its own matching rows).
    with db.connect("app", autocommit=True) as conn:
        alone = {name: _rows_read(conn, sql, "quokka") for name, sql in CALLS.items()}
    with db.admin() as admin:
        admin.execute(SMALL_TENANTS)
        # t1 names 3,000 people: a question naming one reads that one (named_entities).
        admin.execute(
            "INSERT INTO pgfacts_internal.entities (tenant, kind, name) "
            "SELECT 't1', 'person', 'Person ' || n FROM generate_series(1, 3000) AS n"
        )
        for table in ("facts", "claims", "entities"):
            admin.execute(f"VACUUM ANALYZE pgfacts_internal.{table}")
    with db.connect("app", autocommit=True) as conn:
        for name, sql in CALLS.items():
            if name == "find_keys":
                continue  # by key, not by the text candidates
            for n in range(1, 6):
                with conn.transaction():
                    conn.execute(
                        "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')",
                        (f"small-{n}",),
                    )
                    found = conn.execute(sql, ("quokka",)).fetchone()
                    assert found == (5 if name == "search_claims" else 10,), (name, found)
            read = _rows_read(conn, sql, "quokka")
            assert read == alone[name], (name, read, alone[name])
        with conn.transaction():
            conn.execute(T1)
            before = conn.execute(ENTITIES_READ).fetchone()
            conn.execute(CALLS["search"], ("what does Person 17 think of quokka",)).fetchall()
            after = conn.execute(ENTITIES_READ).fetchone()
        assert before is not None and after is not None
        # The person named, and the subject of each claim hit (three quokka claims), by key:
        # not t1's 3,001 entities (6,006 rows read before, twice for each claim hit).
        assert int(after[0]) - int(before[0]) <= 5, (before, after)
