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
