"""A memory scope per run (issue 25): set_context(memory_scope => agent | swarm | none).
Under none (incognito) every durable write is refused with PF011 and nothing is written,
while reads work; under swarm the sessions of one execution (a spawn tree) share
short-term memory: a session fact is the tree root's, read and overwritten by all."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import Context, FactStore, IncognitoWrite

from .conftest import Database
from .test_governance_redaction import counts

CONTEXT = (
    "SELECT pgfacts.set_context(tenant => %s, session_id => %s, agent_kind => %s, "
    "parent_session_id => %s, memory_scope => %s, agent_id => 'a1')"
)


class Run:
    """A caller whose every call runs in its own transaction under a memory scope."""

    def __init__(
        self,
        db: Database,
        scope: str = "agent",
        *,
        kind: str = "agent",
        session: str | None = "s1",
        parent: str | None = None,
        tenant: str = "t1",
    ) -> None:
        self.db, self.scope, self.kind = db, scope, kind
        self.session, self.parent, self.tenant = session, parent, tenant
        self.conn = db.connect("app")

    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with self.conn.transaction():
            self.conn.execute(
                CONTEXT, (self.tenant, self.session, self.kind, self.parent, self.scope)
            )
            return self.conn.execute(sql, params).fetchall()

    def one(self, sql: str, *params: Any) -> Any:
        rows = self.rows(sql, *params)
        return rows[0][0] if rows else None

    def refused(self, sql: str, *params: Any) -> psycopg.Error:
        before = counts(self.db)
        with pytest.raises(psycopg.Error) as info:
            self.rows(sql, *params)
        assert counts(self.db) == before, sql
        return info.value


def incognito(error: psycopg.Error, function: str) -> None:
    assert error.sqlstate == "PF011", error
    assert error.diag.message_primary == (
        f"{function} is a durable write, and this run's memory scope is none (incognito)"
    )
    assert "memory_scope => 'agent'" in (error.diag.message_hint or "")


@pytest.fixture
def seeded(db: Database) -> dict[str, Any]:
    """Something of every kind to read, written by an ordinary run."""
    op = Run(db, kind="operator")
    anna = op.one("SELECT pgfacts.ensure_entity('person', 'Anna')")
    op.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    claim = {"subject": anna, "predicate": "lives_in", "object": "Lviv", "valid_from": "2026-01-01"}
    episode = {"source_kind": "chat", "source_ref": "c1", "content_hash": "h1", "trust": "agent"}
    ingested = op.one("SELECT pgfacts.ingest(%s, %s)", Jsonb(episode), Jsonb([claim]))
    op.one("SELECT pgfacts.store_fact('notes/seen', '\"hello\"', shared => true)")
    op.one("SELECT pgfacts.graph_upsert_node('person', 'Ann')")
    op.one("SELECT pgfacts.graph_upsert_node('person', 'Bo')")
    return {"anna": anna, "claim": claim, "claim_id": ingested["outcomes"][0]["claim_id"]}


WRITES = [
    ("store_fact", "agent", "SELECT pgfacts.store_fact('k', '1')"),
    ("store_fact", "agent", "SELECT pgfacts.store_fact('k', '1', shared => true)"),
    ("store_facts", "agent", 'SELECT pgfacts.store_facts(\'[{"key": "k", "value": 1}]\')'),
    (
        "bulk_store_facts",
        "agent",
        'SELECT pgfacts.bulk_store_facts(records => \'[{"key": "k", "value": 1}]\')',
    ),
    ("delete_fact", "operator", "SELECT pgfacts.delete_fact('notes/seen', shared => true)"),
    ("facts_set_crawled", "crawler", "SELECT pgfacts.facts_set_crawled(key_prefix => 'notes')"),
    ("define_predicate", "operator", "SELECT pgfacts.define_predicate('works_at', 'many')"),
    ("ensure_entity", "operator", "SELECT pgfacts.ensure_entity('person', 'Bob')"),
    (
        "record_memory",
        "agent",
        'SELECT pgfacts.record_memory(\'chat\', \'c2\', \'[{"id": "t1", "text": "hi"}]\')',
    ),
    ("graph_upsert_node", "crawler", "SELECT pgfacts.graph_upsert_node('person', 'Cy')"),
    (
        "graph_upsert_edge",
        "crawler",
        "SELECT pgfacts.graph_upsert_edge('person:ann', 'person:bo', 'knows')",
    ),
    ("graph_delete_node", "facts_manager", "SELECT pgfacts.graph_delete_node('person:bo')"),
    ("register_embedding_model", "operator", "SELECT pgfacts.register_embedding_model('m', 384)"),
    ("set_setting", "operator", "SELECT pgfacts.set_setting('value_max_bytes', '100')"),
    ("set_redaction_placeholders", "operator", "SELECT pgfacts.set_redaction_placeholders('{}')"),
    ("delete_session", "facts_manager", "SELECT pgfacts.delete_session('s0')"),
]


@pytest.mark.parametrize(
    ("function", "kind", "sql"), WRITES, ids=[w[1] + ":" + w[2][15:45] for w in WRITES]
)
def test_incognito_refuses_every_durable_write_and_writes_nothing(
    db: Database, seeded: dict[str, Any], function: str, kind: str, sql: str
) -> None:
    Run(db, kind="agent", session="s0").one("SELECT pgfacts.store_fact('mine', '1')")
    incognito(Run(db, "none", kind=kind).refused(sql), function)
    # The same call in an ordinary run is written.
    Run(db, kind=kind).rows(sql)


def test_incognito_refuses_knowledge_writes(db: Database, seeded: dict[str, Any]) -> None:
    op = Run(db, "none", kind="operator")
    episode = {"source_kind": "chat", "source_ref": "c9", "content_hash": "h9", "trust": "agent"}
    claim = {**seeded["claim"], "object": "Kyiv", "valid_from": "2026-03-01"}
    incognito(op.refused("SELECT pgfacts.ingest(%s, %s)", Jsonb(episode), Jsonb([claim])), "ingest")
    incognito(op.refused("SELECT pgfacts.override('fix', %s)", Jsonb(claim)), "override")
    incognito(op.refused("SELECT pgfacts.retract(%s)", seeded["claim_id"]), "retract")
    incognito(op.refused("SELECT pgfacts.purge_source('chat', 'c1')"), "purge_source")


def test_incognito_reads_still_work(db: Database, seeded: dict[str, Any]) -> None:
    agent = Run(db, "none", session="reader", parent="s0")
    assert agent.one("SELECT count(*) FROM pgfacts.read_facts()") == 1
    assert agent.one("SELECT count(*) FROM pgfacts.search('hello')") >= 1
    assert agent.one("SELECT object_value FROM pgfacts.as_of(%s, 'lives_in')", seeded["anna"]) == (
        "Lviv"
    )
    assert agent.one("SELECT pgfacts.graph_neighbourhood('person:ann')")["nodes"]
    assert agent.one("SELECT pgfacts.context_pack('hello')") is not None
    assert agent.one("SELECT pgfacts.current_context() ->> 'memory_scope'") == "none"
    # The tool contract: the context's memory_scope passes through call_tool.
    with db.connect("app", autocommit=True) as conn:
        context = {"tenant": "t1", "session_id": "reader", "memory_scope": "none"}
        read = conn.execute(
            "SELECT pgfacts.call_tool('read_facts', '{}', %s)", (Jsonb(context),)
        ).fetchone()
        assert read is not None and len(read[0]["facts"]) == 1
        with pytest.raises(psycopg.Error) as info:
            conn.execute(
                "SELECT pgfacts.call_tool('store_fact', %s, %s)",
                (Jsonb({"key": "x", "value": 1}), Jsonb(context)),
            )
        incognito(info.value, "call_tool")


def test_an_unknown_memory_scope_is_refused(db: Database) -> None:
    for scope in ("private", "", "NONE", None):
        with pytest.raises(psycopg.Error) as info:
            Run(db, scope).rows("SELECT 1")  # type: ignore[arg-type]
        assert info.value.sqlstate == "22023"
        assert "agent" in (info.value.diag.message_hint or "")


def test_scope_none_after_a_write_in_one_transaction(db: Database) -> None:
    with db.connect("app") as conn:
        conn.execute("SELECT pgfacts.set_context('t1', 's1')")
        conn.execute("SELECT pgfacts.store_fact('first', '\"kept\"')")
        conn.execute("SELECT pgfacts.set_context('t1', 's1', memory_scope => 'none')")
        with pytest.raises(psycopg.Error) as info, conn.transaction():
            conn.execute("SELECT pgfacts.store_fact('second', '\"refused\"')")
        assert info.value.sqlstate == "PF011"
        assert conn.execute("SELECT count(*) FROM pgfacts.read_facts()").fetchone() == (1,)
        conn.commit()
    assert Run(db).one("SELECT count(*) FROM pgfacts.read_facts()") == 1


def test_the_client_and_the_tool_command_pass_the_scope(db: Database) -> None:
    context = Context(tenant="t1", session_id="s1", memory_scope="none")
    with FactStore(db.dsn("app"), context=context) as store:
        with pytest.raises(IncognitoWrite):
            store.store_fact("k", 1)
        with pytest.raises(IncognitoWrite):
            store.tools.store_fact("k", 1)
        assert store.read_facts() == []
    command = [sys.executable, "-m", "pgfacts", "tool", "store_fact", '{"key": "k", "value": 1}']
    command += ["--dsn", db.dsn("agent"), "--tenant", "t1", "--session", "s1"]
    refused = subprocess.run(
        [*command, "--memory-scope", "none"], capture_output=True, text=True, timeout=120
    )
    assert refused.returncode == 1 and "PF011" in refused.stderr
    stored = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert stored.returncode == 0 and json.loads(stored.stdout)["stored"] is True


# -- swarm ----------------------------------------------------------------------------------


def facts(run: Run, scope: str = "accessible") -> list[tuple[str, Any, str]]:
    return [
        (r[0], r[1], r[2])
        for r in run.rows(
            "SELECT key, value, scope_key FROM pgfacts.read_facts(scope => %s) ORDER BY scope_key",
            scope,
        )
    ]


def test_swarm_sessions_of_one_execution_share_short_term_memory(db: Database) -> None:
    root = Run(db, "swarm", session="root")
    child_a = Run(db, "swarm", session="a", parent="root")
    child_b = Run(db, "swarm", session="b", parent="root")
    grandchild = Run(db, "swarm", session="c", parent="b")
    root.one("SELECT pgfacts.store_fact('plan', '\"v1\"')")
    child_a.one("SELECT pgfacts.store_fact('plan', '\"v2\"')")  # overwrites the one fact
    # A parent registers before its children (an unknown parent would become a root).
    child_b.one('SELECT pgfacts.bulk_store_facts(records => \'[{"key": "bulk", "value": 4}]\')')
    grandchild.one('SELECT pgfacts.store_facts(\'[{"key": "step", "value": 3}]\')')
    shared = [
        ("bulk", 4, "session:root:bulk"),
        ("plan", "v2", "session:root:plan"),
        ("step", 3, "session:root:step"),
    ]
    for run in (root, child_a, child_b, grandchild):
        assert facts(run, "session") == shared
    # A session of the tree in the agent scope keeps its own short-term memory, and still
    # sees the execution's through its spawn tree.
    own = Run(db, "agent", session="a", parent="root")
    own.one("SELECT pgfacts.store_fact('plan', '\"mine\"')")
    assert facts(own, "session") == [("plan", "mine", "session:a:plan")]
    assert ("plan", "v2", "session:root:plan") in facts(own)
    # Scope session under swarm: the caller's own facts and the execution's.
    assert facts(child_a, "session") == [("plan", "mine", "session:a:plan"), *shared]
    # Another execution sees none of it.
    assert facts(Run(db, "swarm", session="other")) == []
    # A delete under swarm removes the execution's fact.
    child_b.one("SELECT pgfacts.delete_fact('plan')")
    assert [f[0] for f in facts(root, "session")] == ["bulk", "step"]


def test_swarm_child_not_yet_registered_reads_the_execution(db: Database) -> None:
    Run(db, "swarm", session="root").one("SELECT pgfacts.store_fact('plan', '\"v1\"')")
    newcomer = Run(db, "swarm", session="fresh", parent="root")
    assert facts(newcomer, "session") == [("plan", "v1", "session:root:plan")]
