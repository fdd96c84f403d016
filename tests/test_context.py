"""The caller context: set once per transaction, validated, checked against role grants."""

from __future__ import annotations

import psycopg
import pytest

from .conftest import Database


def set_context(conn: psycopg.Connection, **kwargs: object) -> dict[str, object]:
    args = {
        "tenant": "t1",
        "session_id": None,
        "agent_id": None,
        "agent_kind": "agent",
        "parent_session_id": None,
        **kwargs,
    }
    row = conn.execute(
        "SELECT pgfacts.set_context(tenant => %(tenant)s, session_id => %(session_id)s, "
        "agent_id => %(agent_id)s, agent_kind => %(agent_kind)s, "
        "parent_session_id => %(parent_session_id)s)",
        args,
    ).fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


def test_context_round_trip_and_transaction_scope(db: Database) -> None:
    with db.connect("agent") as conn:
        ctx = set_context(conn, tenant="acme", session_id="s1", agent_id="a1")
        assert ctx == {
            "tenant": "acme",
            "session_id": "s1",
            "agent_id": "a1",
            "agent_kind": "agent",
            "parent_session_id": None,
            "memory_scope": "agent",
        }
        assert conn.execute("SELECT pgfacts.current_context()").fetchone() == (ctx,)
        conn.commit()
        # A new transaction starts with no caller: nothing leaks through a pooled connection.
        empty = conn.execute("SELECT pgfacts.current_context()").fetchone()
        assert empty is not None and empty[0]["tenant"] is None


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"tenant": ""}, "tenant must be a non-empty string"),
        ({"tenant": None}, "tenant must be a non-empty string"),
        ({"tenant": "x" * 129}, "tenant is longer than 128"),
        ({"session_id": " "}, "session_id must be 1 to 256 bytes"),
        ({"session_id": "a:b"}, "without ':'"),
        ({"agent_kind": "wizard"}, "unknown agent kind"),
        ({"parent_session_id": "p"}, "parent_session_id needs a session_id"),
    ],
)
def test_bad_context_is_refused(db: Database, kwargs: dict[str, object], fragment: str) -> None:
    with db.connect("app") as conn:
        with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
            set_context(conn, **kwargs)
        assert fragment in str(info.value)
        assert info.value.sqlstate == "22023"


@pytest.mark.parametrize("kind", ["facts_manager", "crawler", "tuner", "operator"])
def test_a_kind_must_be_granted(db: Database, kind: str) -> None:
    with db.connect("agent") as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
            set_context(conn, agent_kind=kind)
        assert info.value.diag.message_hint == f"GRANT pgfacts_{kind} TO pgfacts_test_agent"
    with db.connect(kind) as conn:
        assert set_context(conn, agent_kind=kind)["agent_kind"] == kind


def test_a_role_without_pgfacts_grants_cannot_call_the_api(db: Database) -> None:
    with db.connect("nobody") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        set_context(conn)


def test_internal_tables_are_not_granted_to_agent_kinds(db: Database) -> None:
    with db.connect("app") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM pgfacts_internal.schema_ledger")


# The context checks are inlined expressions with a checked slow path: settings written by
# raw set_config() (not by set_context) must take that path and get its precise answers.
RAW_SETTINGS = (
    "SELECT set_config('pgfacts.tenant', %s, true), set_config('pgfacts.agent_kind', %s, true), "
    "set_config('pgfacts.session_id', %s, true)"
)


@pytest.mark.parametrize(
    ("login", "tenant", "kind", "session", "sqlstate", "fragment"),
    [
        ("app", "", "agent", "s1", "42501", "no tenant in the caller context"),
        ("app", "bad tenant", "agent", "s1", "22023", "not a valid tenant name"),
        ("app", "x" * 129, "agent", "s1", "22023", "tenant is longer than 128"),
        ("app", "-lead", "agent", "s1", "22023", "not a valid tenant name"),
        ("app", "t\u00e4", "agent", "s1", "22023", "not a valid tenant name"),
        ("app", "t1", "bogus", "s1", "42501", "may not act as agent kind 'bogus'"),
        ("agent", "t1", "operator", "s1", "42501", "may not act as agent kind operator"),
        ("bound", "t2", "agent", "s1", "42501", "may not act for tenant 't2'"),
        ("app", "t1", "agent", "victim:tree", "22023", "session_id must be 1 to 256 bytes"),
        ("app", "t1", "agent", "   ", "22023", "session_id must be 1 to 256 bytes"),
    ],
)
def test_raw_settings_take_the_checked_path(
    db: Database, login: str, tenant: str, kind: str, session: str, sqlstate: str, fragment: str
) -> None:
    with db.connect(login) as conn:
        conn.execute(RAW_SETTINGS, (tenant, kind, session))
        with pytest.raises(psycopg.Error) as info:
            conn.execute("SELECT pgfacts.store_fact('k', '1')")
        assert info.value.sqlstate == sqlstate, info.value
        assert fragment in str(info.value)
    with db.admin() as admin:
        assert admin.execute("SELECT count(*) FROM pgfacts_internal.facts").fetchone() == (0,)


def test_a_raw_tenant_of_128_characters_is_accepted(db: Database) -> None:
    tenant = "T" * 127 + "."
    with db.connect("app") as conn:
        conn.execute(RAW_SETTINGS, (tenant, "agent", "s1"))
        conn.execute("SELECT pgfacts.store_fact('k', '1')")
        conn.commit()
    with db.admin() as admin:
        assert admin.execute("SELECT tenant FROM pgfacts_internal.facts").fetchone() == (tenant,)


def test_a_raw_session_setting_is_used_in_its_normal_form(db: Database) -> None:
    with db.connect("app") as conn:
        conn.execute(RAW_SETTINGS, ("t1", "agent", "session-abc"))
        assert conn.execute("SELECT pgfacts.store_fact('k', '1')").fetchone()
        conn.commit()
    with db.admin() as admin:
        row = admin.execute("SELECT session_id, scope_key FROM pgfacts_internal.facts").fetchone()
    assert row == ("abc", "session:abc:k")
