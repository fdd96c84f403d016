"""Human review of working-memory facts (issue 25, sql/60_governance/56_fact_review.sql):
under a tenant's review key prefixes, a task agent's write of new content waits as a fact
candidate that no read sees, on every write path; a reviewer approves it (stored through the
memory write path, in the writer's session) or rejects it (memory stays as it was), each
decision audited; the facts manager and the operator write as before."""

from __future__ import annotations

import json
from typing import Any

import pytest
from psycopg.types.json import Jsonb
from typer.testing import CliRunner

from pgfacts.cli import app

from .conftest import Database
from .support.caller import Caller


def agent(db: Database, tenant: str = "t1", session: str = "s1") -> Caller:
    return Caller(db, tenant=tenant, kind="agent", session=session, agent="writer-1")


def reviewer(db: Database) -> Caller:
    return Caller(db, "reviewer", tenant="t1", kind="reviewer", agent="rev-1")


def review_prefixes(db: Database, prefixes: list[str]) -> Any:
    return Caller(db, tenant="t1").one("SELECT pgfacts.set_review_key_prefixes(%s)", prefixes)


def queue(db: Database) -> list[dict[str, Any]]:
    return list(reviewer(db).one("SELECT pgfacts.fact_review_queue()"))


def values(caller: Caller, pattern: str) -> list[Any]:
    return [r[0] for r in caller.rows("SELECT value FROM pgfacts.read_facts(%s)", pattern)]


def test_a_task_agent_s_write_under_a_prefix_waits_unseen(db: Database) -> None:
    writer = agent(db)
    writer.one("SELECT pgfacts.store_fact('policy/refunds', %s, shared => true)", Jsonb("30 days"))
    assert review_prefixes(db, ["policy/"]) == {"tenant": "t1", "prefixes": ["policy/"]}
    held = writer.one(
        "SELECT pgfacts.store_fact('policy/refunds', %s, shared => true)", Jsonb("365 days")
    )
    assert held == {
        "key": "policy/refunds",
        "shared": True,
        "scope": "shared",
        "stored": False,
        "held": True,
    }
    # Memory is as it was, on every read; the same value again is simply stored.
    assert values(writer, "policy/*") == ["30 days"]
    assert writer.rows("SELECT key FROM pgfacts.search('365')") == []
    again = writer.one(
        "SELECT pgfacts.store_fact('policy/refunds', %s, shared => true)", Jsonb("30 days")
    )
    assert again["stored"] is True and "held" not in again
    # Other keys, and the curators' writes, are not held.
    assert writer.one("SELECT pgfacts.store_fact('notes/x', '1', shared => true)")["stored"]
    manager = Caller(db, tenant="t1", kind="facts_manager")
    assert manager.one("SELECT pgfacts.store_fact('policy/sla', '\"4h\"', shared => true)")[
        "stored"
    ]
    (waiting,) = queue(db)
    assert {
        k: waiting[k] for k in ("key", "value", "writer_kind", "agent_id", "current_value")
    } == {
        "key": "policy/refunds",
        "value": "365 days",
        "writer_kind": "agent",
        "agent_id": "writer-1",
        "current_value": "30 days",
    }
    # Every write path: a batch and the bulk path hold it too; another tenant is untouched.
    batch = writer.one(
        "SELECT pgfacts.store_facts(%s)",
        Jsonb(
            [
                {"key": "policy/new", "value": 1, "shared": True},
                {"key": "misc/a", "value": 2, "shared": True},
            ]
        ),
    )
    assert [f.get("held", False) for f in batch["facts"]] == [True, False]
    writer.one(
        "SELECT pgfacts.bulk_store_facts(%s)",
        Jsonb([{"key": "policy/bulk", "value": 3, "shared": True}]),
    )
    assert values(writer, "policy/*") == ["4h", "30 days"]  # the manager's, and as it was
    assert [c["key"] for c in queue(db)] == ["policy/refunds", "policy/new", "policy/bulk"]
    other = agent(db, tenant="t2")
    assert other.one("SELECT pgfacts.store_fact('policy/x', '1', shared => true)")["stored"]


def test_approval_stores_it_and_rejection_leaves_memory_as_it_was(db: Database) -> None:
    review_prefixes(db, ["policy/"])
    writer = agent(db)
    writer.one("SELECT pgfacts.store_fact('policy/a', '\"one\"')")  # a session fact of s1
    writer.one("SELECT pgfacts.store_fact('policy/b', '\"two\"', shared => true)")
    first, second = (c["candidate_id"] for c in queue(db))
    approved = reviewer(db).one("SELECT pgfacts.approve_fact(%s, note => 'ok')", first)
    assert approved == {
        "candidate_id": first,
        "status": "approved",
        "scope_key": "session:s1:policy/a",
        "stored": True,
    }
    assert values(writer, "policy/*") == ["one"]  # in the writer's own session
    assert values(agent(db, session="s2"), "policy/*") == []
    rejected = reviewer(db).one("SELECT pgfacts.reject_fact(%s)", second)
    assert rejected["status"] == "rejected" and rejected["stored"] is False
    assert queue(db) == []
    assert reviewer(db).refused("SELECT pgfacts.approve_fact(%s)", second) == "55000"
    # A later write of the approved key by the agent waits again.
    assert writer.one("SELECT pgfacts.store_fact('policy/a', '\"three\"')")["held"] is True
    tuner = Caller(db, tenant="t1", kind="tuner")
    audited = tuner.rows(
        "SELECT audit_operation, audit_target, audit_agent_id FROM pgfacts.audit() "
        "WHERE audit_operation LIKE 'review%%' OR audit_operation = 'set_review_key_prefixes' "
        "ORDER BY audit_id"
    )
    assert audited == [
        ("set_review_key_prefixes", "tenant:t1", None),
        ("review_approve", f"fact_candidate:{first}", "rev-1"),
        ("review_reject", f"fact_candidate:{second}", "rev-1"),
    ]


def test_who_may_set_read_and_decide(db: Database) -> None:
    review_prefixes(db, ["policy/"])
    agent(db).one("SELECT pgfacts.store_fact('policy/a', '1', shared => true)")
    (waiting,) = queue(db)
    for kind in ("agent", "crawler", "facts_manager", "tuner", "reviewer"):
        caller = Caller(db, tenant="t1", kind=kind, session="s1")
        assert caller.refused("SELECT pgfacts.set_review_key_prefixes('{x/}')") == "42501"
        assert caller.one("SELECT pgfacts.review_key_prefixes() -> 'prefixes'") == ["policy/"]
    for kind in ("agent", "crawler", "facts_manager", "tuner"):
        caller = Caller(db, tenant="t1", kind=kind, session="s1")
        assert caller.refused("SELECT pgfacts.approve_fact(%s)", waiting["candidate_id"]) == "42501"
    for kind in ("agent", "crawler", "facts_manager"):
        caller = Caller(db, tenant="t1", kind=kind, session="s1")
        assert caller.refused("SELECT pgfacts.fact_review_queue()") == "42501"
    other = Caller(db, "reviewer", tenant="t2", kind="reviewer")
    assert other.refused("SELECT pgfacts.approve_fact(%s)", waiting["candidate_id"]) == "P0002"


@pytest.mark.parametrize(
    ("sql", "params", "state"),
    [
        ("SELECT pgfacts.set_review_key_prefixes(NULL)", (), "22023"),
        ("SELECT pgfacts.set_review_key_prefixes(%s)", (["x"] * 65,), "22023"),
        ("SELECT pgfacts.set_review_key_prefixes(%s)", ([""],), "22023"),
        ("SELECT pgfacts.set_review_key_prefixes(%s)", (["a*"],), "22023"),
        ("SELECT pgfacts.set_review_key_prefixes(%s)", (["x" * 201],), "22023"),
        ("SELECT pgfacts.set_review_key_prefixes(%s)", ([None],), "22023"),
        ("SELECT pgfacts.approve_fact(NULL)", (), "22023"),
        ("SELECT pgfacts.approve_fact(424242)", (), "P0002"),
        ("SELECT pgfacts.reject_fact(1, note => %s)", ("x" * 2001,), "22023"),
        ("SELECT pgfacts.fact_review_queue(0)", (), "22023"),
    ],
)
def test_bad_fact_review_input_is_refused(
    db: Database, sql: str, params: tuple[Any, ...], state: str
) -> None:
    caller = Caller(db, tenant="t1")
    assert caller.refused(sql, *params) == state
    assert caller.one("SELECT pgfacts.review_key_prefixes() -> 'prefixes'") == []


def test_the_review_commands_take_held_facts_with_facts(db: Database) -> None:
    review_prefixes(db, ["policy/"])
    agent(db).one("SELECT pgfacts.store_fact('policy/a', '\"new\"', shared => true)")
    agent(db).one("SELECT pgfacts.store_fact('policy/b', '\"bad\"', shared => true)")

    def review(*args: str) -> Any:
        return CliRunner().invoke(
            app, ["review", *args, "--dsn", db.dsn("reviewer"), "--tenant", "t1", "--agent", "cli"]
        )

    listed = review("list", "--facts", "--json")
    assert listed.exit_code == 0, listed.output
    first, second = (c["candidate_id"] for c in json.loads(listed.output))
    table = review("list", "--facts")
    assert (
        table.exit_code == 0 and "policy/a" in table.output and "fact review queue" in table.output
    )
    approved = review("approve", str(first), "--facts", "--json")
    assert json.loads(approved.output)["status"] == "approved", approved.output
    rejected = review("reject", str(second), "--facts", "--note", "no", "--json")
    assert json.loads(rejected.output)["status"] == "rejected", rejected.output
    again = review("approve", str(second), "--facts")
    assert again.exit_code != 0 and "55000" in again.output
    assert values(agent(db), "policy/*") == ["new"]
