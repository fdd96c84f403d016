"""docs/security.md's hardening snippet, run as written: once the advisory lock functions
are taken from PUBLIC, a tenant login cannot take a lock (so a key seen in pg_locks cannot
be used to stall another tenant), and every pgfacts path that takes one still works for
it, because pgfacts' own roles take them inside its functions."""

from __future__ import annotations

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .docs_support import snippet
from .support.caller import Caller


def hardening_snippet() -> str:
    return snippet("security.md", "-- as superuser: tenant logins may no longer")


@pytest.fixture
def hardened(db: Database) -> Database:
    with db.admin() as admin:
        admin.execute(hardening_snippet().encode())
    return db


def test_a_tenant_login_can_no_longer_take_an_advisory_lock(hardened: Database) -> None:
    with hardened.connect("bound", autocommit=True) as conn:
        for sql in (
            "SELECT pg_advisory_lock(1)",
            "SELECT pg_try_advisory_xact_lock_shared(1)",
            "SELECT pg_advisory_unlock_all()",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)


def test_every_locking_path_still_works_for_tenant_logins(hardened: Database) -> None:
    agent = Caller(hardened, "bound", kind="agent", session="s1")
    agent.fact("a", 1, shared=False)
    agent.rows("SELECT pgfacts.store_facts(%s)", Jsonb([{"key": "b", "value": 2, "shared": True}]))
    assert agent.rows("SELECT key FROM pgfacts.read_facts(known_at => clock_timestamp())")
    assert agent.one("SELECT pgfacts.delete_fact('a')")["deleted"]

    manager = Caller(hardened, kind="facts_manager")
    manager.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    anna = manager.entity("Anna")
    outcome = manager.ingest(
        "doc/1",
        [{"subject": anna, "predicate": "lives_in", "object": "Kyiv", "valid_from": "2020-01-01"}],
    )
    assert outcome, outcome
    answers = agent.rows(
        "SELECT object_value FROM pgfacts.as_of(%s, 'lives_in', known_at => now())",
        anna,
    )
    assert answers == [("Kyiv",)]
    assert agent.rows("SELECT * FROM pgfacts.search('Kyiv', known_at => now())")
    operator = Caller(hardened, kind="operator")
    assert "purged_tombstones" in operator.one("SELECT pgfacts.run_maintenance()")
