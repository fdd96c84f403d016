"""tests/lint_sql.py and the schema file cover every schema of the install: a schema a layer
adds is checked as soon as it exists, and one the install does not own is reported."""

from __future__ import annotations

import psycopg
import pytest

from . import lint_sql
from .catalog import render, snapshot
from .conftest import Database


def owner_sql(db: Database, statements: str) -> None:
    """Run statements as the install's owner role, as the definitions are; a schema is
    created as a migration creates one (the superuser, AUTHORIZATION pgfacts_owner)."""
    with db.admin() as admin:
        admin.execute("CREATE SCHEMA IF NOT EXISTS pgfacts_graph AUTHORIZATION pgfacts_owner")
        admin.execute(f"SET ROLE pgfacts_owner; {statements}; RESET ROLE")


def test_an_installed_database_passes_the_lint(db: Database) -> None:
    assert lint_sql.check(db.admin_dsn_of_database()) == []


def test_a_table_in_a_new_schema_of_the_install_needs_a_tenant_and_forced_rls(
    db: Database,
) -> None:
    owner_sql(
        db,
        "CREATE TABLE pgfacts_graph.nodes (id bigint PRIMARY KEY)",
    )
    assert lint_sql.check(db.admin_dsn_of_database()) == [
        "table pgfacts_graph.nodes: no tenant column",
        "table pgfacts_graph.nodes: row level security not enabled and forced",
    ]
    owner_sql(
        db,
        "ALTER TABLE pgfacts_graph.nodes ADD COLUMN tenant text NOT NULL; "
        "ALTER TABLE pgfacts_graph.nodes ENABLE ROW LEVEL SECURITY",
    )
    assert lint_sql.check(db.admin_dsn_of_database()) == [
        "table pgfacts_graph.nodes: row level security not enabled and forced"
    ]
    owner_sql(db, "ALTER TABLE pgfacts_graph.nodes FORCE ROW LEVEL SECURITY")
    assert lint_sql.check(db.admin_dsn_of_database()) == []


def test_a_function_in_a_new_schema_of_the_install_pins_its_search_path(db: Database) -> None:
    owner_sql(
        db,
        "CREATE FUNCTION pgfacts_graph.one() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    )
    assert lint_sql.check(db.admin_dsn_of_database()) == [
        "pgfacts_graph.one(): function without SET search_path (an inlinable SQL helper says "
        "'(inlined)' in its COMMENT)"
    ]


def test_a_helper_said_to_be_inlined_is_inlined(db: Database) -> None:
    """An "(inlined)" helper the planner calls instead is reported: one declared IMMUTABLE
    whose body calls a stable function (pg_column_size here, as fact_search_doc did), and
    one with a sub-select; declared as volatile as its body, the first is inlined."""
    owner_sql(
        db,
        "CREATE FUNCTION pgfacts_internal.size_of(v jsonb) RETURNS int LANGUAGE sql IMMUTABLE "
        "AS 'SELECT pg_catalog.pg_column_size(v)'; "
        "COMMENT ON FUNCTION pgfacts_internal.size_of(jsonb) IS 'Its size (inlined)'; "
        "CREATE FUNCTION pgfacts_internal.any_fact(t text) RETURNS boolean LANGUAGE sql STABLE "
        "AS 'SELECT EXISTS (SELECT 1 FROM pgfacts_internal.facts f WHERE f.tenant = t)'; "
        "COMMENT ON FUNCTION pgfacts_internal.any_fact(text) IS 'Whether (inlined)'",
    )
    said = "its COMMENT says '(inlined)' but the planner calls it (make it as volatile as its "
    said += "body, or give it a SET search_path and drop the word)"
    assert lint_sql.check(db.admin_dsn_of_database()) == [
        f"pgfacts_internal.any_fact(text): {said}",
        f"pgfacts_internal.size_of(jsonb): {said}",
    ]
    owner_sql(db, "ALTER FUNCTION pgfacts_internal.size_of(jsonb) STABLE")
    assert lint_sql.check(db.admin_dsn_of_database()) == [
        f"pgfacts_internal.any_fact(text): {said}"
    ]


def test_a_schema_the_install_does_not_own_is_reported(db: Database) -> None:
    with db.admin() as admin:
        admin.execute("CREATE SCHEMA stray; CREATE TABLE stray.t (id int)")
        owner = admin.execute("SELECT current_user").fetchone()
    assert owner is not None
    assert lint_sql.check(db.admin_dsn_of_database()) == [
        f"schema stray (owned by {owner[0]}) is neither the install's (owned by "
        "pgfacts_owner) nor in tests/catalog.py FOREIGN_SCHEMAS: create it as the owner "
        "role, or list it there with the reason"
    ]


def test_an_object_of_the_install_outside_its_schemas_is_reported(db: Database) -> None:
    with db.admin() as admin:
        admin.execute(
            "CREATE TABLE public.loose (id int); ALTER TABLE public.loose OWNER TO pgfacts_owner"
        )
    assert lint_sql.check(db.admin_dsn_of_database()) == [
        "relation loose: owned by pgfacts_owner outside the install's schemas"
    ]


def test_an_exemption_that_matches_no_table_is_reported(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(lint_sql.NO_RLS_TABLES, "pgfacts_internal.gone", "a removed table")
    assert lint_sql.check(db.admin_dsn_of_database()) == [
        "NO_RLS_TABLES lists pgfacts_internal.gone, which matches no table: remove it"
    ]


def test_the_schema_file_shows_every_schema_of_the_install(db: Database) -> None:
    owner_sql(
        db,
        "CREATE TABLE pgfacts_graph.nodes (id bigint PRIMARY KEY)",
    )
    with psycopg.connect(db.admin_dsn_of_database()) as conn:
        row = conn.execute("SELECT current_user").fetchone()
    assert row is not None
    text = render(snapshot(db.admin_dsn_of_database(), "pgfacts"), str(row[0]))
    assert "CREATE SCHEMA pgfacts_graph AUTHORIZATION pgfacts_owner;" in text
    assert "CREATE TABLE pgfacts_graph.nodes (" in text
