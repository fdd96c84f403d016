"""Agent kinds, reserved key prefixes, privileges for raw SQL, and tenant isolation."""

from __future__ import annotations

import psycopg
import pytest

from .conftest import Database, count_facts
from .support.caller import Caller


def test_tuner_reads_the_whole_tenant_and_writes_nothing(call: Caller, db: Database) -> None:
    call("store_fact", {"key": "private", "value": 1}, session="s1")
    call("store_fact", {"key": "intake/obs/s1", "value": 2, "shared": True}, session="s1")
    seen = call("read_facts", {}, login="tuner", kind="tuner", session="elsewhere")
    assert sorted(f["key"] for f in seen["facts"]) == ["intake/obs/s1", "private"]
    for name, args in [
        ("store_fact", {"key": "x", "value": 1, "shared": True}),
        ("delete_fact", {"key": "private"}),
        ("delete_session", {"session_id": "s1"}),
        ("facts_set_crawled", {"keyPrefix": "p"}),
    ]:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            call(name, args, login="tuner", kind="tuner", session="s1")
    # The app login holds every kind: acting as tuner still may not write.
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
        call("store_fact", {"key": "x", "value": 1, "shared": True}, kind="tuner")
    assert "tuner reads and writes nothing" in str(info.value)
    assert count_facts(db, "key = 'x'") == 0


def test_tuner_raw_sql_cannot_write_and_reads_only_its_tenant(call: Caller, db: Database) -> None:
    call("store_fact", {"key": "mine", "value": 1}, session="s1", tenant="t1")
    call("store_fact", {"key": "theirs", "value": 2}, session="s1", tenant="t2")
    with db.connect("tuner") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'tuner')")
        rows = conn.execute("SELECT tenant, key FROM pgfacts_internal.facts").fetchall()
        assert rows == [("t1", "mine")]
        for statement in [
            "UPDATE pgfacts_internal.facts SET value = '0'",
            "DELETE FROM pgfacts_internal.facts",
            "INSERT INTO pgfacts_internal.sessions (tenant, session_id) VALUES ('t1', 'z')",
            "SELECT pgfacts.store_fact('k', '1', shared => true)",
        ]:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
            conn.rollback()
            conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'tuner')")
    assert count_facts(db) == 2


def test_raw_sql_without_a_context_fails_closed(db: Database) -> None:
    with db.connect("tuner") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
        conn.execute("SELECT * FROM pgfacts_internal.facts")
    assert "no tenant in the caller context" in str(info.value)


def test_agents_have_no_raw_table_access_at_all(db: Database) -> None:
    for login in ("agent", "facts_manager", "crawler"):
        with db.connect(login) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM pgfacts_internal.facts")


def test_tenants_never_see_each_other(call: Caller) -> None:
    call("store_fact", {"key": "same", "value": "t1", "shared": True}, session="s", tenant="t1")
    call("store_fact", {"key": "same", "value": "t2", "shared": True}, session="s", tenant="t2")
    call("store_fact", {"key": "priv", "value": "t2"}, session="s", tenant="t2")
    for kind, login in (("agent", "agent"), ("tuner", "tuner"), ("facts_manager", "facts_manager")):
        seen = call("read_facts", {}, session="s", tenant="t1", kind=kind, login=login)
        assert [(f["key"], f["value"]) for f in seen["facts"]] == [("same", "t1")]
    deleted = call(
        "delete_fact",
        {"key": "*", "pattern": True, "scope": "all"},
        tenant="t1",
        kind="facts_manager",
    )
    assert deleted["deleted"] == 1
    assert call("read_facts", {}, session="s", tenant="t2")["count"] == 2


def test_claiming_an_ungranted_kind_by_raw_set_config_is_refused(db: Database) -> None:
    with db.connect("agent") as conn:
        conn.execute(
            "SELECT set_config('pgfacts.tenant', 't1', true), "
            "set_config('pgfacts.agent_kind', 'facts_manager', true)"
        )
        with pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
            conn.execute("SELECT pgfacts.delete_fact('k', pattern => true, scope => 'all')")
        assert "may not act as agent kind facts_manager" in str(info.value)


@pytest.mark.parametrize("kind", ["agent", "crawler"])
def test_reserved_prefixes_for_agents(call: Caller, kind: str) -> None:
    call(
        "store_fact",
        {"key": "config/facts-manager/ttl", "value": 1, "shared": True},
        kind="facts_manager",
    )
    # Agents may write intake observations but not read or delete them.
    call(
        "store_fact",
        {"key": "intake/topic/s1", "value": "obs", "shared": True},
        session="s1",
        kind=kind,
        login=kind,
    )
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call("read_facts", {"key_pattern": "intake/*"}, session="s1", kind=kind, login=kind)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call(
            "delete_fact",
            {"key": "intake/topic/s1", "shared": True},
            session="s1",
            kind=kind,
            login=kind,
        )
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call(
            "store_fact",
            {"key": "config/facts-manager/ttl", "value": 2, "shared": True},
            session="s1",
            kind=kind,
            login=kind,
        )
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call("store_fact", {"key": "tools/state", "value": 1}, session="s1", kind=kind, login=kind)
    # Unfiltered reads quietly leave the reserved keys out (before the limit, not after).
    visible = call("read_facts", {"limit": 1}, session="s1", kind=kind, login=kind)
    assert visible["count"] == 0
    manager = call("read_facts", {}, session="s1", kind="facts_manager")
    assert sorted(f["key"] for f in manager["facts"]) == [
        "config/facts-manager/ttl",
        "intake/topic/s1",
    ]


def test_tools_prefix_is_closed_to_every_kind(call: Caller) -> None:
    for kind in ("facts_manager", "operator"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            call("store_fact", {"key": "tools/x", "value": 1, "shared": True}, kind=kind)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            call("read_facts", {"key_pattern": "tools/*"}, kind=kind)


@pytest.mark.parametrize(
    ("kind", "tool", "args"),
    [
        ("agent", "facts_read_uncrawled", {}),
        ("agent", "facts_set_crawled", {"keyPrefix": "a"}),
        ("agent", "delete_session", {"session_id": "s"}),
        ("crawler", "delete_session", {"session_id": "s"}),
        ("agent", "delete_fact", {"key": "*", "pattern": True, "scope": "all"}),
        ("crawler", "delete_fact", {"key": "*", "pattern": True, "scope": "all"}),
        ("operator", "delete_fact", {"key": "*", "pattern": True, "scope": "all"}),
        ("operator", "facts_read_uncrawled", {}),
        ("tuner", "facts_read_uncrawled", {}),
    ],
)
def test_kind_denials(call: Caller, kind: str, tool: str, args: dict[str, object]) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call(tool, args, session="s", kind=kind, login=kind)


def test_key_access_is_the_documented_table(db: Database) -> None:
    """key_access, inlined SQL, answers docs/concepts.md's table for each namespace and
    kind (none, read, write or all)."""
    kinds = ["agent", "crawler", "facts_manager", "operator", "tuner"]
    expected = {
        "tools/x": ["none", "none", "none", "none", "none"],
        "config/facts-manager/x": ["none", "none", "all", "none", "read"],
        "intake/t/s": ["write", "write", "all", "write", "read"],
        "skills/deploy": ["read", "read", "all", "read", "read"],
        "asks/q": ["read", "read", "all", "read", "read"],
        "plain/k": ["all", "all", "all", "all", "read"],
        "toolsx/a": ["all", "all", "all", "all", "read"],
        "intake": ["all", "all", "all", "all", "read"],
    }
    with db.admin() as admin:
        for key, access in expected.items():
            rows = admin.execute(
                "SELECT pgfacts_internal.key_access(%s, kind) FROM unnest(%s::text[]) "
                "WITH ORDINALITY AS k (kind, n) ORDER BY n",
                (key, kinds),
            ).fetchall()
            assert [r[0] for r in rows] == access, key
        row = admin.execute(
            "SELECT pgfacts_internal.reserved_prefix(k) FROM unnest(%s::text[]) "
            "WITH ORDINALITY AS u (k, n) ORDER BY n",
            (["config/facts-manager/x", "asks/q", "plain/k"],),
        ).fetchall()
        assert [r[0] for r in row] == ["config/facts-manager/", "asks/", None]


def test_the_inlined_read_rule_agrees_with_key_access(db: Database) -> None:
    """readable_by restates key_access's read side so reads can inline it; they must agree."""
    keys = ["plain/k", "intake/t/s", "config/facts-manager/x", "tools/state", "intake", "toolsx/a"]
    kinds = ["agent", "facts_manager", "crawler", "tuner", "operator"]
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT k, kind, pgfacts_internal.readable_by(k, kind), "
            "pgfacts_internal.key_access(k, kind) IN ('read', 'all') "
            "FROM unnest(%s::text[]) AS k, unnest(%s::text[]) AS kind",
            (keys, kinds),
        ).fetchall()
    assert len(rows) == len(keys) * len(kinds)
    assert [r for r in rows if r[2] != r[3]] == []


def test_the_crawler_reads_every_session_as_every_read_path_shows_it(call: Caller) -> None:
    """The crawler's reach is one rule: a session fact of another spawn tree that search
    finds for it, read_facts, fact history and the scope-key read show it too; an agent of
    that other tree sees none of them, and reserved keys stay closed to the crawler."""
    call("store_fact", {"key": "notes/zebrafish", "value": "zebrafish habitat"}, session="s1")
    call(
        "store_fact",
        {"key": "intake/zebrafish", "value": "zebrafish intake", "shared": True},
        session="s1",
    )
    crawler = {"login": "crawler", "kind": "crawler", "session": "crawl-1"}
    found = call("facts_search", {"query": "zebrafish"}, **crawler)  # type: ignore[arg-type]
    assert [h["key"] for h in found["facts"]] == ["notes/zebrafish"]
    read = call("read_facts", {"key_pattern": "notes/*"}, **crawler)  # type: ignore[arg-type]
    assert [f["key"] for f in read["facts"]] == ["notes/zebrafish"]
    scope_key = read["facts"][0]["scopeKey"]
    by_key = call("read_facts", {"scopeKeys": [scope_key]}, **crawler)  # type: ignore[arg-type]
    assert [f["key"] for f in by_key["facts"]] == ["notes/zebrafish"]
    other = call("read_facts", {"key_pattern": "notes/*"}, session="s2")
    assert other["facts"] == []
    assert call("facts_search", {"query": "zebrafish"}, session="s2")["facts"] == []


@pytest.mark.parametrize("kind", ["agent", "crawler", "facts_manager", "operator", "tuner"])
def test_search_and_read_facts_see_the_same_facts_in_every_scope(call: Caller, kind: str) -> None:
    """fact_visibility is the one rule: for each kind and scope, the facts search finds are
    the facts read_facts shows (shared scope: only shared facts, even for a kind that sees
    every session)."""
    call("store_fact", {"key": "notes/kestrel-own", "value": "a kestrel nests"}, session="s1")
    call("store_fact", {"key": "notes/kestrel-other", "value": "the kestrel hunts"}, session="s9")
    call(
        "store_fact",
        {"key": "notes/kestrel-shared", "value": "kestrel eggs hatch", "shared": True},
        session="s9",
    )
    login = "app"
    for scope in ("accessible", "shared", "session", "descendants"):
        read = call(
            "read_facts",
            {"key_pattern": "notes/*", "scope": scope},
            login=login,
            kind=kind,
            session="s1",
        )
        found = call(
            "facts_search",
            {"query": "kestrel", "scope": scope, "limit": 50},
            login=login,
            kind=kind,
            session="s1",
        )
        assert sorted(f["key"] for f in found["facts"]) == sorted(
            f["key"] for f in read["facts"]
        ), (kind, scope)
        if scope == "shared":
            assert [f["key"] for f in read["facts"]] == ["notes/kestrel-shared"]
