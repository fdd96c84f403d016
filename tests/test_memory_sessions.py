"""Sessions registered and ended explicitly, and tenant bindings removed by a DBA."""

from __future__ import annotations

import psycopg
import pytest

from pgfacts import Context, FactStore, InvalidParameter, NotFound, PermissionDenied

from .conftest import Database


def test_register_and_end_a_session(db: Database) -> None:
    with FactStore(db.dsn("agent"), context=Context(tenant="t1", agent_id="planner")) as store:
        root = store.register_session("plan-1", agent_id="planner")
        assert root["session_id"] == "plan-1" and root["parent_session_id"] is None
        assert root["agent_id"] == "planner" and root["created_at"]
        child = store.register_session("work-1", parent_session_id="plan-1", agent_id="w")
        assert (child["parent_session_id"], child["agent_id"]) == ("plan-1", "w")
        assert store.register_session("work-1", parent_session_id="plan-1") == child  # idempotent
        with pytest.raises(InvalidParameter):
            store.register_session("work-1", parent_session_id="other-root")

        ended = store.end_session("work-1")
        assert ended["session_id"] == "work-1" and ended["ended_at"]
        assert store.end_session("work-1") == ended  # ending twice keeps the first instant
        in_tree = store.with_context(session_id="plan-1")
        assert sorted(in_tree.spawn_tree()) == ["plan-1", "work-1"]  # ended, still in the tree
        with pytest.raises(NotFound) as info:
            store.end_session("never-registered")
        assert info.value.sqlstate == "P0002"


def test_the_session_tree_in_tree_order_with_parents(db: Database) -> None:
    with FactStore(db.dsn("agent"), context=Context(tenant="t1", agent_id="p")) as store:
        store.register_session("root")
        for child, parent in (("b", "root"), ("a", "root"), ("a2", "a"), ("a1", "a")):
            store.register_session(child, parent_session_id=parent, agent_id=f"w-{child}")
        store.end_session("a1")
        manager = Context(tenant="t1", agent_kind="facts_manager")
        with FactStore(db.dsn("app"), context=manager) as cleaner:
            cleaner.delete_session("b")
        # Any member names the whole tree; rows come parent first, siblings by id.
        tree = store.session_tree("a2")
        assert [(n.tree_session_id, n.parent_session_id, n.depth) for n in tree] == [
            ("root", None, 0),
            ("a", "root", 1),
            ("a1", "a", 2),
            ("a2", "a", 2),
            ("b", "root", 1),
        ]
        assert [n.tree_session_id for n in tree] == [
            s for s in ("root", "a", "a1", "a2", "b") if s in store.spawn_tree("a2")
        ]
        by_id = {n.tree_session_id: n for n in tree}
        assert by_id["a1"].ended_at and not by_id["a2"].ended_at
        assert by_id["b"].deleted_at and by_id["a"].agent_id == "w-a"
        assert store.with_context(session_id="root").session_tree() == tree
        # Never registered: a tree of itself, nothing known.
        (alone,) = store.session_tree("nobody")
        assert (alone.tree_session_id, alone.depth, alone.created_at) == ("nobody", 0, None)
        for bad in ("has:colon", "x" * 300):
            with pytest.raises(InvalidParameter):
                store.session_tree(bad)
        with pytest.raises(InvalidParameter):
            store.session_tree()  # no session given, none in the context
    other = FactStore(db.dsn("agent"), context=Context(tenant="t2"))
    with other:
        assert [n.tree_session_id for n in other.session_tree("a2")] == ["a2"]  # t1's unseen


def test_the_tuner_cannot_register_or_end_sessions(db: Database) -> None:
    tuner = FactStore(db.dsn("tuner"), context=Context(tenant="t1", agent_kind="tuner"))
    with tuner, pytest.raises(PermissionDenied) as info:
        tuner.register_session("s")
    assert info.value.sqlstate == "42501"


def test_unbind_tenant_login_stops_the_login(db: Database) -> None:
    with db.connect("bound") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1')")  # bound by the harness
        conn.rollback()
    with db.admin() as admin:
        removed = admin.execute(
            "SELECT pgfacts.unbind_tenant_login('pgfacts_test_bound', 't1')"
        ).fetchone()
        again = admin.execute(
            "SELECT pgfacts.unbind_tenant_login('pgfacts_test_bound', 't1')"
        ).fetchone()
    assert removed is not None and removed[0]["removed"] is True
    assert again is not None and again[0]["removed"] is False
    with db.connect("bound") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT pgfacts.set_context(tenant => 't1')")
    # A DBA function: no agent kind may call it.
    with db.connect("app") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT pgfacts.unbind_tenant_login('pgfacts_test_bound', 't1')")
