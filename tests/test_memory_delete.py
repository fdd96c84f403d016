"""delete_fact and delete_session: soft deletes, ownership, patterns, spawn-tree cleanup."""

from __future__ import annotations

import psycopg
import pytest

from .conftest import Database, count_facts
from .support.caller import Caller


def test_exact_delete_is_soft_and_a_second_delete_is_a_no_op(call: Caller, db: Database) -> None:
    call("store_fact", {"key": "k", "value": 1}, session="s")
    assert call("delete_fact", {"key": "k"}, session="s") == {
        "key": "k",
        "shared": False,
        "deleted": True,
    }
    assert count_facts(db, "key = 'k' AND deleted_at IS NOT NULL") == 1
    with db.admin() as admin:
        before = admin.execute("SELECT etag, deleted_at FROM pgfacts_internal.facts").fetchone()
    assert call("delete_fact", {"key": "k"}, session="s")["deleted"] is False
    with db.admin() as admin:
        after = admin.execute("SELECT etag, deleted_at FROM pgfacts_internal.facts").fetchone()
    assert before == after
    assert call("delete_fact", {"key": "never"}, session="s")["deleted"] is False


def test_a_glob_looking_key_is_literal_without_pattern(call: Caller) -> None:
    call(
        "store_fact",
        {"facts": [{"key": "a/1", "value": 1}, {"key": "a/2", "value": 1}]},
        session="s",
    )
    assert call("delete_fact", {"key": "a/*"}, session="s")["deleted"] is False
    assert call("delete_fact", {"key": "a/*", "pattern": True}, session="s") == {
        "keyPattern": "a/*",
        "scope": "session",
        "deleted": 2,
    }


def test_agents_delete_only_shared_facts_they_stored(call: Caller) -> None:
    call("store_fact", {"key": "mine", "value": 1, "shared": True}, session="s1", agent="a1")
    call("store_fact", {"key": "yours", "value": 1, "shared": True}, session="s2", agent="a2")
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
        call("delete_fact", {"key": "yours", "shared": True}, session="s1", agent="a1")
    assert "belongs to another agent" in str(info.value)
    assert call("delete_fact", {"key": "mine", "shared": True}, session="s1", agent="a1")["deleted"]
    # A shared pattern delete by an agent leaves other agents' facts alone.
    result = call(
        "delete_fact", {"key": "*", "pattern": True, "shared": True}, session="s1", agent="a1"
    )
    assert result == {"keyPattern": "*", "scope": "shared", "deleted": 0}
    assert call("delete_fact", {"key": "yours", "shared": True}, kind="facts_manager")["deleted"]


def test_pattern_scope_all_is_for_the_facts_manager(call: Caller) -> None:
    call("store_fact", {"key": "tmp/1", "value": 1}, session="s1")
    call("store_fact", {"key": "tmp/2", "value": 1}, session="s2")
    call("store_fact", {"key": "tmp/3", "value": 1, "shared": True}, session="s3")
    result = call(
        "delete_fact",
        {"key": "tmp/*", "pattern": True, "scope": "all"},
        kind="facts_manager",
        login="facts_manager",
    )
    assert result == {"keyPattern": "tmp/*", "scope": "all", "deleted": 3}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"key": ""}, "non-empty"),
        ({"key": "k", "scope": "all"}, "scope applies only to pattern deletes"),
        ({"key": "k", "pattern": True, "scope": "everything"}, "unknown pattern-delete scope"),
        ({"key": "k", "pattern": "yes"}, "must be true or false"),
        ({}, "non-empty"),
    ],
)
def test_bad_deletes_are_refused(
    call: Caller, db: Database, args: dict[str, object], fragment: str
) -> None:
    call("store_fact", {"key": "k", "value": 1}, session="s")
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("delete_fact", args, session="s")
    assert fragment in str(info.value)
    assert count_facts(db, "deleted_at IS NULL") == 1


def test_delete_session_tombstones_the_subtree_and_keeps_shared(call: Caller) -> None:
    call("store_fact", {"key": "r", "value": 1}, session="root")
    call("store_fact", {"key": "c", "value": 1}, session="child", parent="root")
    call("store_fact", {"key": "g", "value": 1}, session="grandchild", parent="child")
    call("store_fact", {"key": "shared-by-child", "value": 1, "shared": True}, session="child")
    call("store_fact", {"key": "other", "value": 1}, session="unrelated")
    result = call("delete_session", {"session_id": "child"}, kind="facts_manager")
    assert result == {"sessionId": "child", "sessions": ["child", "grandchild"], "deleted": 2}
    visible = call("read_facts", {}, kind="tuner", login="tuner")
    assert sorted(f["key"] for f in visible["facts"]) == ["other", "r", "shared-by-child"]
    # Deleting again finds nothing new; the crawler sees the tombstones.
    again = call("delete_session", {"session_id": "child"}, kind="facts_manager")
    assert again["deleted"] == 0
    queue = call("facts_read_uncrawled", {"limit": 500}, kind="crawler", login="crawler")
    tombstones = sorted(f["key"] for f in queue["facts"] if f["deletedAt"])
    assert tombstones == ["c", "g"]
    # A deleted session cannot write again.
    with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState):
        call("store_fact", {"key": "late", "value": 1}, session="grandchild")


def test_a_session_parent_is_fixed_at_registration(call: Caller) -> None:
    call("store_fact", {"key": "x", "value": 1}, session="kid", parent="p1")
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("store_fact", {"key": "y", "value": 1}, session="kid", parent="p2")
    assert "registered with parent 'p1'" in str(info.value)
