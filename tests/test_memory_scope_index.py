"""A fact is unique by (tenant, scope, key), held by one index, facts_scope_idx: the
upsert's arbiter, and the index every path that finds facts by scope or scope key probes,
as the login an agent or crawler uses, at a size where the planner would notice a
sequential scan (12,000 facts over 12 sessions, a tenth shared). Scope-key lookups split
the key into its parts; a string that is not a scope key answers like an unknown one.
Writers racing on one key wait on the index and overwrite; batches lock in one order."""

from __future__ import annotations

import re
from collections.abc import Iterator

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .interleave import Step, backend_pid, wait_until_blocked
from .support.caller import Caller

ROWS = 12_000
SESSIONS = 12


def _load(db: Database) -> None:
    for n in range(SESSIONS):
        first = n * ROWS // SESSIONS + 1
        Caller(db, session=f"s{n}", kind="agent").rows(
            "SELECT pgfacts.store_facts(jsonb_agg(jsonb_build_object('key', 'k/' || i, "
            "'value', i, 'shared', i %% 10 = 0))) FROM generate_series(%s::int, %s::int) AS i",
            first,
            first + ROWS // SESSIONS - 1,
        )
    with db.admin() as admin:
        admin.execute("VACUUM ANALYZE pgfacts_internal.facts")
        for login in ("agent", "crawler"):
            for setting in (
                "session_preload_libraries = 'auto_explain'",
                "auto_explain.log_min_duration = 0",
                "auto_explain.log_nested_statements = on",
                "auto_explain.log_level = notice",
            ):
                admin.execute(
                    f"ALTER ROLE pgfacts_test_{login} IN DATABASE {db.name} SET {setting}"
                )


# One load for the three plan tests, on one worker: each reads keys the others do not
# write (a delete of k/1002, crawl marks in s3), and the load was most of their time.
SHARES_THE_LOAD = pytest.mark.xdist_group("scope_index_load")


@pytest.fixture(scope="module")
def loaded(module_db: Database) -> Iterator[Database]:
    _load(module_db)
    yield module_db


def _plans(db: Database, login: str, kind: str, session: str | None, sql: str) -> tuple:
    plans: list[str] = []
    with db.connect(login, autocommit=True) as conn:
        conn.add_notice_handler(lambda n: plans.append(n.message_primary or ""))
        with conn.transaction():
            conn.execute(
                "SELECT pgfacts.set_context('t1', session_id => %s, agent_kind => %s)",
                (session, kind),
            )
            rows = conn.execute(sql).fetchall()
    return rows, "\n".join(plans)


AGENT_PATHS = (
    # the spawn tree's session facts and the shared ones, by key range
    "SELECT * FROM pgfacts.read_facts('k/11*', scope => 'session')",
    "SELECT * FROM pgfacts.read_facts('k/10*', scope => 'shared')",
    "SELECT * FROM pgfacts.read_facts_by_scope_keys('{session:s1:k/1001,shared:k/1010}')",
    "SELECT * FROM pgfacts.fact_history('k/1001')",
    "SELECT pgfacts.delete_fact('k/1002')",
)


@SHARES_THE_LOAD
def test_agent_paths_probe_the_scope_index(loaded: Database) -> None:
    for sql in AGENT_PATHS:
        rows, text = _plans(loaded, "agent", "agent", "s1", sql)
        assert rows, sql
        assert "facts_scope_idx" in text, f"{sql}\n{text}"
        assert not re.findall(r"Seq Scan on facts\b", text), f"{sql}\n{text}"


@SHARES_THE_LOAD
def test_crawler_marks_by_scope_key_through_the_index(loaded: Database) -> None:
    sql = (
        "SELECT pgfacts.facts_set_crawled(scope_keys => "
        '\'[{"scopeKey": "session:s3:k/3001"}, {"scopeKey": "shared:k/3010"}]\')'
    )
    rows, text = _plans(loaded, "crawler", "crawler", None, sql)
    assert rows[0][0] == {"affected": 2, "skipped": 0}
    assert "facts_scope_idx" in text and not re.findall(r"Seq Scan on facts\b", text), text


@pytest.mark.parametrize(
    "scope_key",
    ["session:s1", "session::k/1001", "shared", "k/1001", "session:s1:", "other:k/1001", ""],
)
def test_a_string_that_is_not_a_scope_key_finds_nothing(db: Database, scope_key: str) -> None:
    agent = Caller(db, session="s1", kind="agent")
    agent.fact("k/1001", 1, shared=False)
    agent.fact("k/1001", 2, shared=True)
    assert agent.rows("SELECT * FROM pgfacts.read_facts_by_scope_keys(%s)", [scope_key]) == []


def test_the_same_key_is_one_fact_per_scope(db: Database) -> None:
    """Uniqueness is per scope: a session fact, the same key in another session and a
    shared one are three facts; a second write to any of them overwrites it."""
    for session in ("s1", "s2", "s1"):
        Caller(db, session=session, kind="agent").fact("same", session, shared=False)
    Caller(db, session="s2", kind="agent").fact("same", "shared", shared=True)
    Caller(db, session="s1", kind="agent").fact("same", "shared again", shared=True)
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT scope_key, value FROM pgfacts_internal.facts WHERE key = 'same' "
            "ORDER BY scope_key"
        ).fetchall()
        assert rows == [
            ("session:s1:same", "s1"),
            ("session:s2:same", "s2"),
            ("shared:same", "shared again"),
        ]
        with pytest.raises(psycopg.errors.UniqueViolation):
            admin.execute(
                "INSERT INTO pgfacts_internal.facts (tenant, scope_key, key, value, shared, "
                "session_id, created_at, updated_at, system_time) VALUES ('t1', "
                "'shared:same', 'same', '1', true, 'other', now(), now(), tstzrange(now(), NULL))"
            )


@SHARES_THE_LOAD
def test_reads_at_a_known_instant_use_indexes(loaded: Database) -> None:
    sql = "SELECT * FROM pgfacts.read_facts('k/11*', known_at => clock_timestamp())"
    rows, text = _plans(loaded, "agent", "agent", "s1", sql)
    assert rows
    assert not re.findall(r"Seq Scan on (facts|fact_versions)\b", text), text


def test_two_writers_racing_on_one_new_key_leave_one_fact_and_one_version(db: Database) -> None:
    """The second writer of a key that does not exist yet waits on the unique index for
    the first, then overwrites its fact (the upsert's arbiter is facts_scope_idx); the
    first value becomes the one earlier version."""
    first = db.connect("agent")
    second = db.connect("agent")
    for conn, session in ((first, "s1"), (second, "s2")):
        conn.execute("SELECT pgfacts.set_context('t1', session_id => %s)", (session,))
    first.execute("SELECT pgfacts.store_fact('race', '1', shared => true)")  # uncommitted
    with db.admin() as observer:
        racing = Step(
            lambda: second.execute(
                "SELECT pgfacts.store_fact('race', '2', shared => true)"
            ).fetchone()
        )
        wait_until_blocked(observer, backend_pid(second), racing)
        first.commit()
        racing.result()
        second.commit()
        rows = observer.execute(
            "SELECT scope_key, value, session_id FROM pgfacts_internal.facts WHERE key = 'race'"
        ).fetchall()
        versions = observer.execute(
            "SELECT value FROM pgfacts_internal.fact_versions WHERE key = 'race'"
        ).fetchall()
    assert rows == [("shared:race", 2, "s2")]
    assert versions == [(1,)]
    first.close()
    second.close()


def test_batches_over_the_same_keys_in_opposite_orders_do_not_deadlock(db: Database) -> None:
    """Every writer locks facts in scope-key order, whatever the order of its batch."""
    keys = [f"k{i}" for i in range(5)]
    first = db.connect("agent")
    second = db.connect("agent")
    for conn in (first, second):
        conn.execute("SELECT pgfacts.set_context('t1', session_id => 's1')")
    batch = [{"key": k, "value": 1, "shared": True} for k in keys]
    first.execute("SELECT pgfacts.store_facts(%s)", (Jsonb(batch[:3]),))
    with db.admin() as observer:
        racing = Step(
            lambda: second.execute(
                "SELECT pgfacts.store_facts(%s)", (Jsonb(list(reversed(batch))),)
            ).fetchone()
        )
        wait_until_blocked(observer, backend_pid(second), racing)
        first.execute("SELECT pgfacts.store_facts(%s)", (Jsonb(batch[3:]),))
        first.commit()
        racing.result()
        second.commit()
        count = observer.execute(
            "SELECT count(*) FROM pgfacts_internal.facts WHERE key LIKE 'k_'"
        ).fetchone()
    assert count == (5,)
    first.close()
    second.close()
