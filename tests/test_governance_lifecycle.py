"""Expiry, usage and pruning of working-memory facts (issue 25, docs/governance.md).

A fact stored with ttl_seconds reads as absent on every read path once its expiry passes
(the one visibility rule, fact_visible), maintenance tombstones it so the crawler and the
tombstone purge follow; the reads that surface a fact record its use, maintenance folds
the uses into fact_usage; prune_facts keeps the newest or most used N per session or agent.
"""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database, count_facts
from .support.caller import Caller


def store(caller: Caller, key: str, value: Any, **kwargs: Any) -> Any:
    args = "".join(f", {name} => %s" for name in kwargs)
    return caller.one(
        f"SELECT pgfacts.store_fact(%s, %s{args})", key, Jsonb(value), *kwargs.values()
    )


def expire_now(db: Database, key: str) -> None:
    """Move a fact's expiry into the past, as the clock would (no write path runs)."""
    with db.admin() as admin:
        admin.execute(
            "UPDATE pgfacts_internal.facts SET expires_at = now() - interval '1 second' "
            "WHERE key = %s",
            (key,),
        )


def keys_read(caller: Caller, sql: str, *params: Any) -> list[str]:
    return sorted(row[0] for row in caller.rows(sql, *params))


def maintain(db: Database) -> dict[str, Any]:
    with db.connect("operator") as conn:
        row = conn.execute("SELECT pgfacts.run_maintenance()").fetchone()
    assert row is not None
    return dict(row[0])


def test_an_expired_fact_reads_as_absent_on_every_read_path(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1", agent="a1")
    store(agent, "notes/lease", "alpha lease held", shared=True, ttl_seconds=1)
    store(agent, "notes/keep", "alpha keep forever", shared=True)
    reads = {
        "read_facts": "SELECT key FROM pgfacts.read_facts()",
        "read_facts by pattern": "SELECT key FROM pgfacts.read_facts('notes/lease')",
        "read_facts_page": "SELECT key FROM pgfacts.read_facts_page()",
        "read_facts_by_scope_keys": "SELECT key FROM pgfacts.read_facts_by_scope_keys("
        "ARRAY['shared:notes/lease', 'shared:notes/keep'])",
        "search": "SELECT key FROM pgfacts.search('alpha')",
        "find_keys": "SELECT key FROM pgfacts.find_keys('notes/lease')",
        "context_pack": "SELECT i ->> 'key' FROM jsonb_array_elements("
        "pgfacts.context_pack('alpha') -> 'items') AS i",
    }
    before = {name: keys_read(agent, sql) for name, sql in reads.items()}
    assert all("notes/lease" in keys for keys in before.values()), before
    time.sleep(1.1)  # the real expiry, once: the other tests move it instead
    after = {name: keys_read(agent, sql) for name, sql in reads.items()}
    assert all("notes/lease" not in keys for keys in after.values()), after
    assert after["read_facts"] == ["notes/keep"] and after["search"] == ["notes/keep"]
    # The history still has it (as it has a deleted fact's), and the operator's raw view
    # shows it marked expired.
    assert agent.one("SELECT count(*) FROM pgfacts.fact_history('notes/lease', shared => true)")
    operator = Caller(db, kind="operator")
    assert operator.one(
        "SELECT expires_at < now() FROM pgfacts_internal.facts WHERE key = 'notes/lease'"
    )


def test_maintenance_purges_expired_facts_of_every_tenant(db: Database) -> None:
    for tenant in ("t1", "t2"):
        agent = Caller(db, tenant=tenant, kind="agent", session="s1")
        store(agent, "task/lock", "held", ttl_seconds=3600)
        store(agent, "task/plan", "ship")
    expire_now(db, "task/lock")
    assert maintain(db)["expired_facts"] == 2
    assert count_facts(db, "key = 'task/lock'") == 0
    assert count_facts(db, "key = 'task/plan' AND deleted_at IS NULL") == 2
    assert maintain(db)["expired_facts"] == 0
    # Purged as a tombstone is: audited as a purge, the last version kept in the history.
    tuner = Caller(db, kind="tuner")
    assert tuner.one(
        "SELECT array_agg(audit_operation ORDER BY audit_id) FROM pgfacts.audit("
        "target => 'session:s1:task/lock')"
    ) == ["store", "purge"]
    agent = Caller(db, kind="agent", session="s1")
    assert agent.one("SELECT count(*) FROM pgfacts.fact_history('task/lock')") == 1


def test_an_expired_fact_s_graph_evidence_reads_as_stale(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1")
    store(agent, "svc/ledger", "the ledger service", shared=True, ttl_seconds=3600)
    agent.one(
        "SELECT pgfacts.graph_upsert_node('service', 'ledger', evidence => %s)",
        ["shared:svc/ledger"],
    )
    stale = "SELECT stale_evidence FROM pgfacts.graph_search_nodes(kind => 'service')"
    assert agent.one(stale) == []
    expire_now(db, "svc/ledger")
    assert agent.one(stale) == ["shared:svc/ledger"]


def test_a_later_store_sets_or_ends_the_expiry(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1")
    store(agent, "k", 1, ttl_seconds=60)
    expiry = "SELECT expires_at - now() FROM pgfacts_internal.facts WHERE key = 'k'"
    operator = Caller(db, kind="operator")
    first = operator.one(expiry)
    assert 50 < first.total_seconds() <= 60
    store(agent, "k", 1, ttl_seconds=3600)  # the same value: a new expiry, no new version
    assert operator.one(expiry).total_seconds() > 3000
    assert agent.one("SELECT count(*) FROM pgfacts.fact_history('k')") == 1
    expire_now(db, "k")
    assert agent.rows("SELECT key FROM pgfacts.read_facts('k')") == []
    store(agent, "k", 1)  # stored again without a ttl: alive, and for good
    assert operator.one(expiry) is None
    assert agent.rows("SELECT key FROM pgfacts.read_facts('k')") == [("k",)]


def test_the_batch_and_bulk_writes_take_a_ttl_too(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1")
    agent.one(
        "SELECT pgfacts.store_facts(%s)", Jsonb([{"key": "a", "value": 1, "ttl_seconds": 60}])
    )
    result = agent.one(
        "SELECT pgfacts.bulk_store_facts(records => %s)",
        Jsonb([{"key": "b", "value": 2, "ttl_seconds": 60}, {"key": "c", "value": 3}]),
    )
    assert result["committed_count"] == 2
    assert count_facts(db, "expires_at > now() + interval '50 seconds'") == 2
    assert count_facts(db, "key = 'c' AND expires_at IS NULL") == 1


@pytest.mark.parametrize("ttl", [0, -5, 1.5, "60", 1000000000])
def test_a_bad_ttl_is_refused_and_nothing_is_written(db: Database, ttl: Any) -> None:
    agent = Caller(db, kind="agent", session="s1")
    batch = [{"key": "fine", "value": 1}, {"key": "bad", "value": 2, "ttl_seconds": ttl}]
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        agent.one("SELECT pgfacts.store_facts(%s)", Jsonb(batch))
    assert info.value.diag.message_primary == (
        "fact 2 ('bad'): ttl_seconds must be a whole number of seconds from 1 to 999999999"
    )
    assert count_facts(db) == 0


def usage(db: Database) -> dict[str, tuple[int, bool]]:
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT f.key, u.use_count, u.last_used_at <= now() FROM pgfacts_internal.fact_usage u "
            "JOIN pgfacts_internal.facts f USING (tenant, fact_id)"
        ).fetchall()
    return {key: (count, past) for key, count, past in rows}


def pending_uses(db: Database) -> int:
    with db.admin() as admin:
        row = admin.execute("SELECT count(*) FROM pgfacts_internal.fact_uses").fetchone()
    assert row is not None
    return int(row[0])


def test_reads_that_surface_a_fact_record_its_use_and_maintenance_folds_them(
    db: Database,
) -> None:
    agent = Caller(db, kind="agent", session="s1")
    store(agent, "notes/a", "alpha one", shared=True)
    store(agent, "notes/b", "beta two", shared=True)
    agent.rows("SELECT * FROM pgfacts.search('alpha')")
    agent.rows("SELECT pgfacts.context_pack('alpha')")
    agent.rows("SELECT * FROM pgfacts.read_facts_by_scope_keys(ARRAY['shared:notes/a'])")
    agent.rows("SELECT * FROM pgfacts.read_facts_by_scope_keys(ARRAY['shared:notes/b'])")
    agent.rows("SELECT * FROM pgfacts.read_facts()")  # a listing surfaces nothing by name
    assert usage(db) == {} and pending_uses(db) > 0
    assert maintain(db)["folded_fact_uses"] == 2
    counts = usage(db)
    # search once, context_pack's search once (not its trace's history ranking), by key
    # once; beta by key once
    assert counts["notes/b"] == (1, True) and counts["notes/a"][0] == 3
    assert pending_uses(db) == 0
    agent.rows("SELECT * FROM pgfacts.read_facts_by_scope_keys(ARRAY['shared:notes/b'])")
    maintain(db)
    assert usage(db)["notes/b"][0] == 2


def test_usage_is_not_recorded_when_off_or_read_only(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1")
    store(agent, "notes/a", "alpha one", shared=True)
    with db.connect("app") as conn:
        conn.execute("BEGIN READ ONLY")
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'agent')")
        rows = conn.execute("SELECT key FROM pgfacts.search('alpha')").fetchall()
        assert rows == [("notes/a",)]
        conn.execute("COMMIT")
    assert pending_uses(db) == 0
    Caller(db, kind="operator").one("SELECT pgfacts.set_setting('usage_tracking', '0')")
    agent.rows("SELECT * FROM pgfacts.search('alpha')")
    assert pending_uses(db) == 0
    Caller(db, tenant="t2", kind="agent").rows("SELECT * FROM pgfacts.search('alpha')")
    assert pending_uses(db) == 0  # t2 has no such fact: nothing surfaced, nothing recorded


def session_keys(db: Database, session: str) -> list[str]:
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT key FROM pgfacts_internal.facts "
            "WHERE tenant = 't1' AND session_id = %s AND deleted_at IS NULL ORDER BY key",
            (session,),
        ).fetchall()
    return [r[0] for r in rows]


def test_prune_keeps_the_newest_or_most_used_per_session(db: Database) -> None:
    for session in ("s1", "s2"):
        agent = Caller(db, kind="agent", session=session, agent=f"agent-{session}")
        for n in range(1, 6):
            store(agent, f"step/{n}", n)
    other_tenant = Caller(db, tenant="t2", kind="agent", session="s1")
    store(other_tenant, "step/1", 1)
    manager = Caller(db, kind="facts_manager")
    assert manager.one("SELECT pgfacts.prune_facts(3, session_id => 's1')") == {
        "pruned": 2,
        "keep": 3,
        "per": "session",
        "keep_by": "newest",
    }
    assert session_keys(db, "s1") == ["step/3", "step/4", "step/5"]
    assert len(session_keys(db, "s2")) == 5  # another session: untouched
    # Most used: the two oldest of s2 are read by key, so they are what stays.
    reader = Caller(db, kind="agent", session="s2")
    reader.rows("SELECT 1 FROM pgfacts.read_facts_by_scope_keys(ARRAY['session:s2:step/1'])")
    reader.rows(
        "SELECT 1 FROM pgfacts.read_facts_by_scope_keys("
        "ARRAY['session:s2:step/1', 'session:s2:step/2'])"
    )
    pruned = manager.one(
        "SELECT pgfacts.prune_facts(2, per => 'agent', keep_by => 'most_used', "
        "agent_id => 'agent-s2')"
    )
    assert pruned["pruned"] == 3
    assert session_keys(db, "s2") == ["step/1", "step/2"]
    assert count_facts(db, "tenant = 't2' AND deleted_at IS NULL") == 1
    # keep 0 prunes a whole group; a pruned fact is a tombstone, audited as a delete
    assert manager.one("SELECT pgfacts.prune_facts(0, session_id => 's1')")["pruned"] == 3
    assert session_keys(db, "s1") == []


@pytest.mark.parametrize(
    ("sql", "state"),
    [
        ("SELECT pgfacts.prune_facts(1, per => 'tenant')", "22023"),
        ("SELECT pgfacts.prune_facts(1, keep_by => 'oldest')", "22023"),
        ("SELECT pgfacts.prune_facts(-1)", "22023"),
        ("SELECT pgfacts.prune_facts(NULL)", "22023"),
    ],
)
def test_prune_refuses_bad_arguments(db: Database, sql: str, state: str) -> None:
    assert Caller(db, kind="operator").refused(sql) == state


def test_prune_is_for_managers_and_operators_of_a_tenant(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1")
    store(agent, "k", 1)
    assert agent.refused("SELECT pgfacts.prune_facts(0)") == "42501"
    # no caller context: no tenant to prune
    with db.connect("facts_manager") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT pgfacts.prune_facts(0)")
    with db.connect("app") as conn:
        row = conn.execute(
            "SELECT has_function_privilege('public', "
            "'pgfacts.prune_facts(integer,text,text,text,text)', 'EXECUTE'), "
            "prosecdef FROM pg_proc WHERE proname = 'prune_facts'"
        ).fetchone()
    assert row == (False, True)
    assert count_facts(db, "deleted_at IS NULL") == 1


LIKES = (
    "SELECT array_agg(object_value #>> '{}' ORDER BY object_value) FROM pgfacts.current_claims(%s)"
)


def backdate(db: Database, table: str, where: str) -> None:
    """Make rows look recorded two days ago, as the clock would."""
    with db.admin() as admin:
        admin.execute(
            f"UPDATE pgfacts_internal.{table} SET recorded_at = now() - interval '2 days' "
            f"WHERE {where}"
        )


def knowledge_with_history(db: Database, tenant: str) -> tuple[Caller, int]:
    operator = Caller(db, tenant=tenant, kind="operator")
    operator.one("SELECT pgfacts.define_predicate('likes', 'many')")
    ann = operator.entity("ann")
    for ref, content, thing in [
        ("n/old", "v1", "tea"),
        ("n/mixed", "v1", "cake"),
        ("n/mixed", "v2", "pie"),
        ("n/new", "v1", "coffee"),
    ]:
        operator.ingest(
            ref,
            [{"subject": ann, "predicate": "likes", "object": thing, "valid_from": "2024-01-01"}],
            content=content,
        )
    lines = Jsonb([{"id": "l1", "text": "ann likes tea"}])
    for ref in ("chat/old", "chat/new"):
        operator.one("SELECT pgfacts.record_memory('chat', %s, %s)", ref, lines)
    return operator, ann


def test_retention_purges_old_episodes_through_the_purge_path_and_old_memories(
    db: Database,
) -> None:
    operator, ann = knowledge_with_history(db, "t1")
    knowledge_with_history(db, "t2")  # no retention set: untouched
    backdate(
        db, "episodes", "source_ref = 'n/old' OR (source_ref = 'n/mixed' AND content_hash = 'v1')"
    )
    backdate(db, "memories", "source_ref = 'chat/old'")
    with db.connect("operator") as conn:
        assert conn.execute("SELECT * FROM pgfacts.retention_backlog()").fetchall() == []
    # A day, which the anchor's minimum could not say; 0 (the default) keeps for ever.
    operator.one("SELECT pgfacts.set_setting('episode_retention_seconds', '86400')")
    operator.one("SELECT pgfacts.set_setting('memory_retention_seconds', '86400')")
    with db.connect("operator") as conn:
        backlog = conn.execute("SELECT * FROM pgfacts.retention_backlog()").fetchall()
    assert backlog == [("t1", 2, 1)]  # t2 sets none, and t2's rows are backdated too

    result = operator.one("SELECT pgfacts.apply_retention()")
    assert result == {"episodes": 2, "sources": 2, "slots_rebuilt": 2, "memories": 1}
    assert operator.one(LIKES, ann) == ["coffee", "pie"]
    assert operator.rows("SELECT * FROM pgfacts.verify_slot(%s, 'likes')", ann) == []
    with db.admin() as admin:
        memories = admin.execute(
            "SELECT tenant, source_ref FROM pgfacts_internal.memories ORDER BY 1, 2"
        ).fetchall()
    assert memories == [("t1", "chat/new"), ("t2", "chat/new"), ("t2", "chat/old")]
    assert operator.one("SELECT count(*) FROM pgfacts.audit(operation => 'purge_source')") == 2
    other = Caller(db, tenant="t2", kind="operator")
    assert other.one(LIKES, other.entity("ann")) == ["coffee", "pie", "tea"]
    with db.connect("operator") as conn:
        assert conn.execute("SELECT * FROM pgfacts.retention_backlog()").fetchall() == []
    assert operator.one("SELECT pgfacts.apply_retention()")["episodes"] == 0


def test_the_worker_s_maintenance_applies_each_tenant_s_retention(db: Database) -> None:
    from pgfacts.client import FactStore
    from pgfacts.worker import WorkerTotals, _maintain

    operator, ann = knowledge_with_history(db, "t1")
    backdate(db, "episodes", "source_ref = 'n/old'")
    operator.one("SELECT pgfacts.set_setting('episode_retention_seconds', '3600')")
    said: list[str] = []
    with FactStore(db.dsn("operator")) as store:
        _maintain(store, WorkerTotals(), said.append, once=True)
    assert said[0].startswith("maintenance: ")
    assert said[1].startswith("retention 't1': ") and '"episodes": 1' in said[1]
    assert operator.one(LIKES, ann) == ["coffee", "pie"]


def test_retention_is_the_operator_s(db: Database) -> None:
    for kind in ("agent", "facts_manager", "tuner"):
        assert Caller(db, kind=kind).refused("SELECT pgfacts.apply_retention()") == "42501"
    assert Caller(db, kind="operator").refused("SELECT pgfacts.apply_retention(0)") == "22023"
    with db.connect("facts_manager") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM pgfacts.retention_backlog()")
