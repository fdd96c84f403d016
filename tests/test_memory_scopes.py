"""read_facts: spawn-tree visibility, scopes, filters, patterns, order, limits, known_at."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from .conftest import Database
from .support.caller import Caller

# root ─┬─ a ─── a1
#       └─ b ─── b1 ─── b11          other-root ─── o1
TREE = [
    ("root", None),
    ("a", "root"),
    ("a1", "a"),
    ("b", "root"),
    ("b1", "b"),
    ("b11", "b1"),
    ("other-root", None),
    ("o1", "other-root"),
]


@pytest.fixture
def forest(call: Caller) -> Caller:
    for session, parent in TREE:
        call(
            "store_fact",
            {"key": f"note/{session}", "value": session},
            session=session,
            parent=parent,
            agent=f"agent-{session}",
        )
    call("store_fact", {"key": "global/rule", "value": "be kind", "shared": True}, session="o1")
    return call


def keys(result: dict) -> list[str]:  # type: ignore[type-arg]
    return sorted(f["key"] for f in result["facts"])


IN_TREE = ["note/a", "note/a1", "note/b", "note/b1", "note/b11", "note/root"]


@pytest.mark.parametrize("session", ["root", "a", "a1", "b", "b1", "b11"])
def test_accessible_is_the_whole_spawn_tree_plus_shared(forest: Caller, session: str) -> None:
    assert keys(forest("read_facts", {}, session=session)) == ["global/rule", *IN_TREE]
    assert keys(forest("read_facts", {"scope": "descendants"}, session=session)) == [
        "global/rule",
        *IN_TREE,
    ]


def test_another_tree_sees_none_of_these_private_facts(forest: Caller) -> None:
    assert keys(forest("read_facts", {}, session="o1")) == [
        "global/rule",
        "note/o1",
        "note/other-root",
    ]
    assert keys(forest("read_facts", {}, session="unregistered")) == ["global/rule"]
    assert keys(forest("read_facts", {})) == ["global/rule"]  # no session: shared only


def test_scopes_shared_and_session(forest: Caller) -> None:
    assert keys(forest("read_facts", {"scope": "shared"}, session="b1")) == ["global/rule"]
    assert keys(forest("read_facts", {"scope": "session"}, session="b1")) == ["note/b1"]
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        forest("read_facts", {"scope": "session"})
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        forest("read_facts", {"scope": "all"}, session="b1")
    assert "unknown scope" in str(info.value)


def test_session_id_filter_is_spawn_tree_aware(forest: Caller) -> None:
    assert keys(forest("read_facts", {"session_id": "a1"}, session="b11")) == ["note/a1"]
    # A session outside the tree: none of its private facts, only shared ones it wrote.
    assert keys(forest("read_facts", {"session_id": "o1"}, session="b11")) == ["global/rule"]
    assert keys(forest("read_facts", {"agent_id": "agent-b"}, session="b11")) == ["note/b"]


def test_a_deleted_interior_session_does_not_hide_its_subtree(forest: Caller) -> None:
    forest("store_fact", {"key": "keep", "value": 1}, session="b11")
    forest("delete_session", {"session_id": "b1"}, kind="facts_manager")
    # b1 and b11 lost their session facts, but the tree is still one tree:
    assert keys(forest("read_facts", {}, session="a1")) == [
        "global/rule",
        "note/a",
        "note/a1",
        "note/b",
        "note/root",
    ]
    tree = forest.tool_conn("app")
    with tree.transaction():
        tree.execute("SELECT pgfacts.set_context(tenant => 't1', session_id => 'a1')")
        members = [r[0] for r in tree.execute("SELECT pgfacts.spawn_tree()").fetchall()]
    assert members == ["a", "a1", "b", "b1", "b11", "root"]


def test_order_is_most_recently_updated_first_then_key(call: Caller) -> None:
    call("store_fact", {"facts": [{"key": k, "value": 0} for k in ("c", "a", "b")]}, session="s")
    call("store_fact", {"key": "z", "value": 1}, session="s")
    call("store_fact", {"key": "b", "value": 2}, session="s")  # updated last
    order = [f["key"] for f in call("read_facts", {}, session="s")["facts"]]
    assert order[:2] == ["b", "z"]
    assert order[2:] == sorted(order[2:])  # the batch shares one instant or is in key order


def test_limit_default_max_and_bad_values(call: Caller) -> None:
    call("store_fact", {"facts": [{"key": f"k{i:03}", "value": i} for i in range(60)]}, session="s")
    assert call("read_facts", {}, session="s")["count"] == 50
    assert call("read_facts", {"limit": 7}, session="s")["count"] == 7
    assert call("read_facts", {"limit": 0}, session="s")["count"] == 0
    assert call("read_facts", {"limit": 1000}, session="s")["count"] == 60
    for bad in (-1, 1001, 2.5, "10", True):
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            call("read_facts", {"limit": bad}, session="s")


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("a*", ["a_b", "a%b", "a*b", "aXb", "abc"]),
        ("a%", ["a_b", "a%b", "a*b", "aXb", "abc"]),
        ("a_b", ["a_b"]),  # '_' is literal, not a single-character wildcard
        ("a\\%b", ["a%b"]),  # '\' escapes a wildcard
        ("a\\*b", ["a*b"]),
        ("*b", ["a%b", "a*b", "aXb", "a_b"]),
        ("abc", ["abc"]),
        ("", ["a%b", "a*b", "aXb", "a_b", "abc"]),
    ],
)
def test_key_patterns(call: Caller, pattern: str, expected: list[str]) -> None:
    call(
        "store_fact",
        {"facts": [{"key": k, "value": 1} for k in ("a_b", "a%b", "aXb", "abc", "a*b")]},
        session="s",
    )
    got = keys(call("read_facts", {"key_pattern": pattern}, session="s"))
    assert got == sorted(expected)


def test_tags_all_must_be_present(call: Caller) -> None:
    call(
        "store_fact",
        {
            "facts": [
                {"key": "one", "value": 1, "tags": ["ci", "build"]},
                {"key": "two", "value": 2, "tags": ["ci"]},
                {"key": "three", "value": 3},
            ]
        },
        session="s",
    )
    assert keys(call("read_facts", {"tags": ["ci"]}, session="s")) == ["one", "two"]
    assert keys(call("read_facts", {"tags": ["ci", "build"]}, session="s")) == ["one"]
    assert keys(call("read_facts", {"tags": ["nope"]}, session="s")) == []


def test_known_at_answers_what_the_session_saw_then(call: Caller, db: Database) -> None:
    call("store_fact", {"key": "state", "value": "v1"}, session="s")
    # The instant v1 became visible: every later write starts after it (no sleeps needed).
    between = datetime.fromisoformat(
        call("fact_history", {"key": "state"}, session="s")["versions"][0]["knownFrom"]
    )
    call("store_fact", {"key": "state", "value": "v2"}, session="s")
    call("store_fact", {"key": "later", "value": 1}, session="s")
    call("delete_fact", {"key": "later"}, session="s")
    then = call("read_facts", {"known_at": between.isoformat()}, session="s")
    assert [(f["key"], f["value"]) for f in then["facts"]] == [("state", "v1")]
    now = call("read_facts", {}, session="s")
    assert [(f["key"], f["value"]) for f in now["facts"]] == [("state", "v2")]
    future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("read_facts", {"known_at": future}, session="s")
    assert "in the future" in str(info.value)
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call("read_facts", {"known_at": "last tuesday"}, session="s")


def test_fact_history_lists_every_version(call: Caller) -> None:
    call("store_fact", {"key": "h", "value": 1}, session="s")
    call("store_fact", {"key": "h", "value": 1}, session="s")  # identical: no new version
    call("store_fact", {"key": "h", "value": 1, "tags": ["t"]}, session="s")
    call("store_fact", {"key": "h", "value": 2, "tags": ["t"]}, session="s")
    call("delete_fact", {"key": "h"}, session="s")
    versions = call("fact_history", {"key": "h"}, session="s")["versions"]
    assert [(v["value"], v["tags"], v["deleted"]) for v in versions] == [
        (1, [], False),
        (1, ["t"], False),
        (2, ["t"], False),
        (2, ["t"], True),
    ]
    etags = [v["etag"] for v in versions]
    assert etags[0] == etags[1] < etags[2] < etags[3]  # tags alone keep the etag
    assert [v["current"] for v in versions] == [False, False, False, True]
    for earlier, later in itertools.pairwise(versions):
        assert earlier["knownTo"] == later["knownFrom"]  # contiguous system time
    # Outside the spawn tree a session fact's history is empty, not an error.
    assert call("fact_history", {"key": "h", "session_id": "s"}, session="x")["versions"] == []
