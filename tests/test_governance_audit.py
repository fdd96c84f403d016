"""The mutation audit (issue 25, sql/60_governance): every change to memory appends one
audit row in its own transaction, with who, when (the instant the data carries), the
operation, the target and the before and after (content as digests only); the rows are
append-only for every role, tenant-isolated, readable by the tuner and the operator only,
and purged only by the operator within the retention."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller, raises

COLUMNS = (
    "audit_operation, audit_target, db_role, audit_session_id, audit_agent_id, "
    "audit_agent_kind, before, after, at"
)


def audit_rows(db: Database, tenant: str = "t1", **filters: Any) -> list[dict[str, Any]]:
    """The tenant's audit rows, oldest first, read as its operator."""
    args = "".join(f", {name} => %s" for name in filters)
    rows = Caller(db, tenant=tenant).rows(
        f'SELECT {COLUMNS} FROM pgfacts.audit("limit" => 10000{args}) ORDER BY audit_id',
        *filters.values(),
    )
    names = [c.strip() for c in COLUMNS.split(",")]
    found = [dict(zip(names, row, strict=True)) for row in rows]
    # The template binds the test login "bound" to t1 (conftest): that row predates the test.
    return [r for r in found if r["audit_target"] != "login:pgfacts_test_bound"]


def operations(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(r["audit_operation"], r["audit_target"]) for r in rows]


def test_each_working_memory_change_leaves_one_row(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1", agent="a1")
    agent.fact("notes/a", {"v": 1})
    agent.fact("notes/a", {"v": 2}, tags=["t"])
    agent.fact("notes/b", "b")
    agent.fact("notes/c", "c")
    agent.fact("mine", "m", shared=False)
    agent.one("SELECT pgfacts.delete_fact('notes/a', shared => true)")
    agent.one("SELECT pgfacts.delete_fact('notes/b*', shared => true, pattern => true)")
    manager = Caller(db, kind="facts_manager", agent="fm")
    manager.one("SELECT pgfacts.delete_session('s1')")
    crawler = Caller(db, kind="crawler", agent="cr")
    crawler.one("SELECT pgfacts.facts_set_crawled(key_prefix => 'notes/c')")
    manager.one("SELECT pgfacts.purge_tombstones(ttl_seconds => 100000)")  # none reconciled
    tombstone = audit_rows(db, operation="delete")[0]["after"]["etag"]
    manager.one(
        "SELECT pgfacts.facts_set_crawled(scope_keys => %s)",
        Jsonb([{"scopeKey": "shared:notes/a", "etag": tombstone}]),
    )
    manager.one("SELECT pgfacts.purge_tombstones(ttl_seconds => 100000)")

    rows = audit_rows(db)
    assert operations(rows) == [
        ("store", "shared:notes/a"),
        ("store", "shared:notes/a"),
        ("store", "shared:notes/b"),
        ("store", "shared:notes/c"),
        ("store", "session:s1:mine"),
        ("delete", "shared:notes/a"),
        ("delete_pattern", "shared:notes/b"),
        ("session_cleanup", "session:s1:mine"),
        ("crawl_mark", "shared:notes/c"),
        ("crawl_mark", "shared:notes/a"),
        ("purge", "shared:notes/a"),
    ]
    first, second = rows[0], rows[1]
    assert (first["db_role"], first["audit_session_id"], first["audit_agent_id"]) == (
        "pgfacts_test_app",
        "s1",
        "a1",
    )
    assert first["audit_agent_kind"] == "agent" and first["before"] is None
    assert second["before"] == first["after"]
    assert second["after"]["tags"] == ["t"] and second["after"]["etag"] > first["after"]["etag"]
    assert rows[5]["after"]["deleted"] is True and rows[5]["before"]["deleted"] is False
    assert rows[7]["audit_agent_kind"] == "facts_manager"
    assert rows[8]["audit_agent_id"] == "cr" and rows[8]["after"]["crawled_at"] is not None
    assert rows[10]["after"] is None and rows[10]["before"]["value_sha256"].startswith("sha256:")
    # When: the instant the fact's versions carry.
    known = Caller(db).rows(
        "SELECT known_from FROM pgfacts.fact_history('notes/a', shared => true) ORDER BY 1"
    )
    assert [r["at"] for r in rows if r["audit_operation"] in ("store", "delete")][:2] == [
        known[0][0],
        known[1][0],
    ]


def _knowledge(op: Caller) -> tuple[int, str]:
    ann = op.entity("Ann")
    op.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    return ann, "lives_in"


def test_each_knowledge_change_leaves_its_rows_at_the_commit_instant(db: Database) -> None:
    op = Caller(db, agent="op")
    ann, predicate = _knowledge(op)
    first = op.ingest(
        "r1",
        [{"subject": ann, "predicate": predicate, "object": "Paris", "valid_from": "2020-01-01"}],
    )
    claim = first["outcomes"][0]["claim_id"]
    started = op.one(
        "SELECT lower(system_time) FROM pgfacts_internal.claims WHERE claim_id = %s", claim
    )
    op.one("SELECT pgfacts.retract(%s)", claim)
    op.one("SELECT pgfacts.restore(%s)", claim)
    op.one(
        "SELECT pgfacts.override('fix-1', %s)",
        Jsonb(
            {"subject": ann, "predicate": predicate, "object": "Rome", "valid_from": "2024-01-01"}
        ),
    )
    op.one("SELECT pgfacts.purge_source('note', 'r1')")

    rows = audit_rows(db)
    ops = [r["audit_operation"] for r in rows]
    # An ingest's claim decisions, then its episode (the order of the commit stamp's moves).
    assert ops[:2] == ["claim_decision", "ingest"]
    assert ops[2:4] == ["retract", "restore"]
    assert set(ops[4:-2]) == {"claim_decision"} and ops[-2:] == ["override", "purge_source"]
    decision, ingest = rows[0], rows[1]
    assert ingest["audit_target"] == f"episode:{first['episode_id']}"
    assert decision["audit_target"] == f"claim:{claim}"
    assert decision["after"]["decision"] == "inserted"
    # When: the claim's system time starts at the commit instant the audit rows carry.
    assert ingest["at"] == decision["at"] == started
    assert rows[2]["audit_target"] == f"claim:{claim}" and rows[2]["after"]["retracted"] is True
    assert rows[3]["before"]["retracted"] is True and rows[3]["after"]["retracted"] is False
    # The override supersedes Paris from 2024 on: Rome inserted, Paris retired, its
    # 2020-2024 part copied.
    assert sorted(r["after"]["decision"] for r in rows[4:-2]) == ["copied", "inserted", "retired"]
    assert decision["after"]["episodes"] == [first["episode_id"]]
    purge = rows[-1]
    assert purge["audit_target"].startswith("source:note:sha256:")
    assert purge["after"]["episodes"] == 1


def test_graph_memory_model_setting_and_login_changes_leave_one_row_each(db: Database) -> None:
    op = Caller(db, agent="op")
    op.one("SELECT pgfacts.graph_upsert_node('person', 'Ana')")
    op.one("SELECT pgfacts.graph_upsert_node('person', 'Bo')")
    op.one("SELECT pgfacts.graph_upsert_edge('person:ana', 'person:bo', 'knows')")
    op.one("SELECT pgfacts.graph_delete_edge('person:ana', 'person:bo', 'know')")
    op.one("SELECT pgfacts.graph_delete_node('person:ana')")
    op.one("SELECT pgfacts.graph_delete_node('person:bo')")
    op.one(
        "SELECT pgfacts.record_memory('chat', 'c/1', %s)",
        Jsonb([{"id": "1", "text": "Ana likes tea"}]),
    )
    op.one("SELECT pgfacts.register_embedding_model('toy-4', 4)")
    op.one("SELECT pgfacts.set_setting('confidence_floor', '0.7')")
    op.one("SELECT pgfacts.set_setting('confidence_floor', '0.6')")
    with db.admin() as admin:
        admin.execute("SELECT pgfacts.bind_tenant_login('pgfacts_test_agent', 't1')")
        admin.execute("SELECT pgfacts.unbind_tenant_login('pgfacts_test_agent', 't1')")
    rows = audit_rows(db)
    ana, bo, edge = rows[0]["audit_target"], rows[1]["audit_target"], rows[2]["audit_target"]
    assert operations(rows)[:6] == [
        ("graph_node_write", ana),
        ("graph_node_write", bo),
        ("graph_edge_write", edge),
        ("graph_edge_delete", edge),
        ("graph_node_delete", ana),
        ("graph_node_delete", bo),
    ]
    assert rows[0]["after"]["node_key"] == "person:ana" and rows[4]["after"] is None
    assert rows[2]["after"]["predicate"] == "knows" and rows[3]["before"] == rows[2]["after"]
    rows = rows[4:]
    memory = rows[2]
    assert memory["audit_operation"] == "record_memory" and memory["after"]["lines"] == 1
    assert "Ana likes tea" not in str(memory)
    assert operations(rows)[3:] == [
        ("register_embedding_model", "embedding_model:toy-4"),
        ("set_setting", "setting:confidence_floor"),
        ("set_setting", "setting:confidence_floor"),
        ("bind_tenant_login", "login:pgfacts_test_agent"),
        ("unbind_tenant_login", "login:pgfacts_test_agent"),
    ]
    assert (rows[5]["before"], rows[5]["after"]) == ({"value": 0.7}, {"value": 0.6})
    assert rows[6]["audit_agent_kind"] is None  # a DBA's call: no caller context


def test_a_rolled_back_write_leaves_no_row(db: Database) -> None:
    op = Caller(db)
    ann, predicate = _knowledge(op)
    before = len(audit_rows(db))
    with db.connect("app") as conn:
        conn.execute("SELECT pgfacts.set_context('t1', agent_kind => 'operator')")
        conn.execute("SELECT pgfacts.store_fact('x', '1', shared => true)")
        episode = {"source_kind": "note", "source_ref": "r", "content_hash": "h"}
        claims = [
            {"subject": ann, "predicate": predicate, "object": "X", "valid_from": "2020-01-01"}
        ]
        conn.execute("SELECT pgfacts.ingest(%s, %s)", (Jsonb(episode), Jsonb(claims)))
        conn.rollback()
    assert len(audit_rows(db)) == before


def test_the_audit_is_append_only_for_every_role(db: Database) -> None:
    Caller(db).fact("k", 1)
    statements = [
        "UPDATE pgfacts_internal.audit_log SET target = 'forged'",
        "DELETE FROM pgfacts_internal.audit_log",
        "TRUNCATE pgfacts_internal.audit_log",
    ]
    with db.admin() as admin:
        for role in ("pgfacts_owner", None):  # the owner's API role, and the superuser
            for statement in statements:
                with pytest.raises(psycopg.Error) as info, admin.transaction():
                    admin.execute("SELECT set_config('pgfacts.tenant', 't1', true)")
                    if role:
                        admin.execute(f"SET LOCAL ROLE {role}")
                    admin.execute(statement)
                assert info.value.sqlstate == "42501", (role, statement)
    operator = Caller(db)
    for statement in statements:
        assert operator.refused(statement) == "42501"
    assert len(audit_rows(db)) == 1


def test_an_audit_row_names_an_operation_of_its_shape(db: Database) -> None:
    # The shape check (migration 0058): a lower-case letter, then up to 63 lower-case letters
    # or underscores. Written without a bounded repetition, it must refuse what that did.
    def append(conn: psycopg.Connection, operation: str) -> None:
        conn.execute(
            "INSERT INTO pgfacts_internal.audit_log (tenant, at, operation, target, db_role) "
            "VALUES ('t1', now(), %s, 'k', 'r')",
            (operation,),
        )

    refused = ["", "Store", "_store", "store-x", "stor e", "1store", "caf\u00e9", "s" * 65]
    with db.admin() as admin:
        for operation in refused:
            with pytest.raises(psycopg.errors.CheckViolation), admin.transaction():
                append(admin, operation)
        for operation in ["s", "store_x", "s" * 64]:
            with admin.transaction(force_rollback=True):
                append(admin, operation)


@pytest.mark.parametrize("kind", ["agent", "crawler", "facts_manager"])
def test_a_task_agent_cannot_read_the_audit(db: Database, kind: str) -> None:
    Caller(db).fact("k", 1)
    agent = Caller(db, kind=kind)
    assert agent.refused("SELECT * FROM pgfacts.audit()") == "42501"
    # A login holding this kind only has no SELECT on the table either.
    alone = Caller(db, login=kind, kind=kind)
    assert alone.refused("SELECT * FROM pgfacts_internal.audit_log") == "42501"
    raises("42501", agent, "audit")
    tuner = Caller(db, kind="tuner")
    assert tuner.one("SELECT count(*) FROM pgfacts.audit(operation => 'store')") == 1
    assert tuner("audit", {"operation": "store"})["count"] == 1


def test_another_tenant_sees_none_of_it(db: Database) -> None:
    Caller(db).fact("k", 1)
    other = Caller(db, tenant="t2", kind="tuner")
    assert other.one("SELECT count(*) FROM pgfacts.audit()") == 0
    assert other.one("SELECT count(*) FROM pgfacts_internal.audit_log") == 0
    tuner = Caller(db, kind="tuner")
    assert tuner.one("SELECT count(*) FROM pgfacts_internal.audit_log") == tuner.one(
        "SELECT count(*) FROM pgfacts.audit()"
    )
    assert tuner.one("SELECT count(*) FROM pgfacts.audit(operation => 'store')") == 1


def test_a_purge_leaves_digests_not_content(db: Database) -> None:
    op = Caller(db)
    ann, predicate = _knowledge(op)
    secret = "lives at 221B Baker Street"
    op.ingest(
        "private/diary",
        [
            {
                "subject": ann,
                "predicate": predicate,
                "object": secret,
                "valid_from": "2020-01-01",
                "text": secret,
                "quote": secret,
            }
        ],
        content="h1",
    )
    op.fact("diary", secret)
    op.one("SELECT pgfacts.delete_fact('diary', shared => true)")
    op.one("SELECT pgfacts.purge_source('note', 'private/diary')")
    op.one("SELECT pgfacts.purge_tombstones(ttl_seconds => 1)")  # nothing reconciled yet
    with db.admin() as admin:
        dump = admin.execute("SELECT string_agg(a::text, ' ') FROM pgfacts_internal.audit_log a")
        text = dump.fetchone()[0]  # type: ignore[index]
    assert secret not in text and "private/diary" not in text, [
        line for line in text.split(") (") if secret in line or "private/diary" in line
    ]
    purge = audit_rows(db, operation="purge_source")[0]
    assert purge["before"]["source_ref_sha256"].startswith("sha256:")


def test_the_audit_purge_is_the_operators_bounded_by_retention_and_audited(db: Database) -> None:
    op = Caller(db)
    op.fact("k", 1)
    op.one("SELECT pgfacts.set_setting('audit_retention_days', '10')")
    with db.admin() as admin:
        admin.execute(
            "INSERT INTO pgfacts_internal.audit_log (tenant, at, operation, target, db_role) "
            "VALUES ('t1', now() - interval '30 days', 'store', 'shared:old', 'x'), "
            "('t2', now() - interval '30 days', 'store', 'shared:old', 'x')"
        )
        with pytest.raises(psycopg.Error) as info:
            admin.execute("DELETE FROM pgfacts_internal.audit_log WHERE target = 'shared:old'")
        assert info.value.sqlstate == "42501"
    assert Caller(db, kind="facts_manager").refused("SELECT pgfacts.purge_audit_log()") == "42501"
    raises("22023", op.one, "SELECT pgfacts.purge_audit_log(before => now() - interval '1 day')")
    assert op.one("SELECT pgfacts.purge_audit_log()")["purged"] == 1
    rows = audit_rows(db)
    assert [r["audit_operation"] for r in rows] == ["store", "set_setting", "purge_audit_log"]
    assert rows[-1]["after"]["purged"] == 1 and rows[-1]["after"]["retention_days"] == 10
    assert len(audit_rows(db, tenant="t2")) == 1  # another tenant's rows stay


def test_the_switch_turns_capture_off_and_is_itself_audited(db: Database) -> None:
    op = Caller(db)
    op.one("SELECT pgfacts.set_setting('audit_enabled', '0')")
    op.fact("k", 1)
    op.one("SELECT pgfacts.delete_fact('k', shared => true)")
    assert operations(audit_rows(db)) == [("set_setting", "setting:audit_enabled")]


BAD_FILTERS = [
    "operation => 'rename'",
    "since => now(), until => now() - interval '1 day'",
    '"limit" => 0',
    '"limit" => 10001',
    "target => ''",
    "session_id => 'a:b'",
    "agent_id => E'a\\x01'",
]


def test_bad_filter_input_is_22023(module_db: Database) -> None:
    tuner = Caller(module_db, kind="tuner")
    for bad in BAD_FILTERS:
        assert tuner.refused(f"SELECT * FROM pgfacts.audit({bad})") == "22023", bad
    raises("22023", tuner, "audit", {"operation": "rename"})


def test_a_corroboration_is_a_claim_decision(db: Database) -> None:
    op = Caller(db)
    ann, predicate = _knowledge(op)
    claim = {"subject": ann, "predicate": predicate, "object": "Paris", "valid_from": "2020-01-01"}
    first = op.ingest("r1", [claim])
    second = op.ingest("r2", [claim])
    assert second["outcomes"][0]["outcome"] == "corroborated"
    rows = audit_rows(db)[2:]
    decisions = [r["after"]["decision"] for r in rows if r["audit_operation"] == "claim_decision"]
    assert "corroborated" in decisions, rows
    corroborated = next(r for r in rows if r["after"].get("decision") == "corroborated")
    assert corroborated["after"]["episodes"] == [second["episode_id"]]
    assert corroborated["audit_target"] == f"claim:{first['outcomes'][0]['claim_id']}"
