"""read_facts_page: read_facts' facts in key order, a page at a time after a cursor; every
fact exactly once however many there are, and its refusals."""

from __future__ import annotations

import json

import pytest

from pgfacts import Context, FactStore, InvalidParameter, PermissionDenied

from .conftest import Database
from .support.caller import Caller

PAGE = "SELECT scope_key, key FROM pgfacts.read_facts_page(%s, %s, %s, %s)"


def _all_pages(call: Caller, pattern: str | None, size: int, scope: str = "accessible") -> list:
    """Every row, page by page, each page after the last row of the one before."""
    rows: list[tuple[str, str]] = []
    after = None
    while True:
        page = call.rows(PAGE, pattern, after, size, scope)
        rows += page
        if len(page) < size:
            return rows
        after = page[-1][0]


def _byte_order(rows: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(scope_key, key) by key, then scope ('' shared, else the session id), as bytes."""
    ordered = sorted(rows, key=lambda r: (r[1].encode(), r[2].encode()))
    return [(scope_key, key) for scope_key, key, _ in ordered]


def test_pages_read_every_visible_fact_once_in_key_order(db: Database) -> None:
    agent = Caller(db, kind="agent", session="a", parent="root")
    # One key shared and private to two sessions; keys whose byte order is not a
    # collation's (upper case, `_`, non-ASCII, a prefix of another).
    keys = ["p/b", "p/B", "p/a_", "p/a", "p/é", "p/z", "p/ab", "p/a/b", "p/~"]
    for key in keys:
        agent("store_fact", {"key": key, "value": 1})
    for session in ("root", "other"):  # other: not in a's spawn tree
        Caller(db, kind="agent", session=session)("store_fact", {"key": "p/b", "value": 2})
    agent("store_fact", {"key": "p/b", "value": 3, "shared": True})
    agent("store_fact", {"key": "q/outside", "value": 4, "shared": True})

    visible = agent.rows(
        "SELECT scope_key, key, CASE WHEN shared THEN '' ELSE fact_session_id END "
        "FROM pgfacts.read_facts(key_pattern => 'p/*', \"limit\" => 1000)"
    )
    assert len(visible) == len(keys) + 2  # a's own, root's p/b (its parent), the shared p/b
    expected = _byte_order(visible)
    assert expected[:3] == [
        ("session:a:p/B", "p/B"),
        ("session:a:p/a", "p/a"),
        ("session:a:p/a/b", "p/a/b"),
    ]
    assert [r for r in expected if r[1] == "p/b"] == [
        ("shared:p/b", "p/b"),
        ("session:a:p/b", "p/b"),
        ("session:root:p/b", "p/b"),
    ]
    for size in (1, 2, 3, len(expected), 1000):
        assert _all_pages(agent, "p/*", size) == expected, size
    # The scope is read_facts' own: shared alone, the caller's session alone.
    assert _all_pages(agent, "p/*", 2, "shared") == [("shared:p/b", "p/b")]
    assert [r[0] for r in _all_pages(agent, None, 4, "session")] == [
        r[0] for r in expected if r[0].startswith("session:a:")
    ]
    # A cursor is a position, not a row that must exist: after a deleted or unknown key.
    assert agent.rows(PAGE, "p/*", "session:a:p/aa", 2, "accessible") == [
        ("session:a:p/ab", "p/ab"),
        ("shared:p/b", "p/b"),
    ]
    assert agent.rows(PAGE, "p/*", "shared:p/~", 5, "accessible") == [
        ("session:a:p/~", "p/~"),
        ("session:a:p/é", "p/é"),  # é is two bytes after ~
    ]
    assert agent.rows(PAGE, "p/*", "session:b:p/é", 5, "accessible") == []
    assert agent.rows(PAGE, "p/*", None, 0, "accessible") == []


def test_more_than_a_read_facts_window(db: Database) -> None:
    n = 2345
    with FactStore(db.dsn("agent"), context=Context(tenant="t1", session_id="s1")) as store:
        records = [{"key": f"big/{i:05d}", "value": {"i": i}} for i in range(n)]
        assert store.bulk_store_facts(records=records)["committed_count"] == n
        store.store_fact("big", 0)  # the prefix's own key is no row of big/*
        assert len(store.read_facts(key_pattern="big/*", limit=1000)) == 1000  # one window
        seen: list[str] = []
        after = None
        while True:
            page = store.read_facts_page(key_pattern="big/*", after=after, limit=1000)
            seen += [fact.key for fact in page]
            if len(page) < 1000:
                break
            after = page[-1].scope_key
        assert seen == [f"big/{i:05d}" for i in range(n)]


@pytest.mark.parametrize(
    ("call", "state"),
    [
        ("read_facts_page(after => 'big/1')", "22023"),  # a key, not a scope key
        ("read_facts_page(after => 'session::big/1')", "22023"),  # no session
        ("read_facts_page(after => 'shared:')", "22023"),  # no key
        ("read_facts_page(after => 'other:big/1')", "22023"),
        ('read_facts_page("limit" => 1001)', "22023"),
        ('read_facts_page("limit" => -1)', "22023"),
        ('read_facts_page("limit" => NULL)', "22023"),
        ("read_facts_page(scope => 'everything')", "22023"),
        ("read_facts_page(key_pattern => repeat('k', 1025))", "22023"),
        ("read_facts_page(key_pattern => 'intake/*')", "42501"),  # the agent may not read it
    ],
)
def test_bad_input_is_refused(db: Database, call: str, state: str) -> None:
    agent = Caller(db, kind="agent", session="s1")
    assert agent.refused(f"SELECT * FROM pgfacts.{call}") == state


def test_the_refusals_reach_the_client_with_their_hint(db: Database) -> None:
    with FactStore(db.dsn("agent"), context=Context(tenant="t1", session_id="s1")) as store:
        with pytest.raises(InvalidParameter) as bad:
            store.read_facts_page(after="big/1")
        assert "scope key" in bad.value.message and "previous page" in (bad.value.hint or "")
        with pytest.raises(PermissionDenied):
            store.read_facts_page(key_pattern="intake/*")
    assert json.dumps(bad.value.as_dict())  # what an agent would be shown
