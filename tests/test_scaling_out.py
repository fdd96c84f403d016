"""What keeps docs/scaling-out.md true: a tenant's rows can be distributed by `tenant`
(Citus's distribution column) because every key of a tenant-owned table includes it, and
every query an API call runs reaches a tenant-owned table through a condition on it, so a
distributed install routes each call to one tenant's shard."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from .catalog import install_schemas
from .conftest import SCHEMA, Database
from .docs_support import DOCS, sql_examples
from .support.caller import Caller
from .test_tool_schemas import SAMPLES, resolved, sample_setup

# Every primary key, unique and exclusion constraint, unique index and foreign key of a
# table with a tenant column, with the columns it lacks or the table it points at.
KEYS_WITHOUT_TENANT = """
    WITH tenant_tables AS (
        SELECT c.oid, n.nspname || '.' || c.relname AS name, a.attnum AS tenant_column
          FROM pg_class c
          JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant'
                             AND NOT a.attisdropped
         WHERE n.nspname = ANY(%(schemas)s) AND c.relkind IN ('r', 'p'))
    SELECT t.name, con.conname, con.contype::text
      FROM tenant_tables t
      JOIN pg_constraint con ON con.conrelid = t.oid AND con.contype IN ('p', 'u', 'x', 'f')
      LEFT JOIN tenant_tables target ON target.oid = con.confrelid
     WHERE NOT t.tenant_column = ANY(con.conkey)
        OR (con.contype = 'f' AND (
                target.oid IS NULL
             OR con.confkey[array_position(con.conkey, t.tenant_column)]
                IS DISTINCT FROM target.tenant_column))
    UNION ALL
    SELECT t.name, ic.relname, 'unique index'
      FROM tenant_tables t
      JOIN pg_index i ON i.indrelid = t.oid AND i.indisunique
      JOIN pg_class ic ON ic.oid = i.indexrelid
     WHERE NOT t.tenant_column = ANY(i.indkey::int2[])
     ORDER BY 1, 2"""


# Keys that are the database's, not a tenant's, and why (docs/scaling-out.md says where
# their tables live on a distributed install).
DATABASE_WIDE_KEYS = {
    # AGE names a graph once per database: the projection's name is unique across
    # tenants, and the table that records it stays on the coordinator with AGE.
    ("pgfacts_internal.graph_projections", "graph_projections_name_key"),
}


def test_every_key_of_a_tenant_table_includes_the_tenant(module_db: Database) -> None:
    with module_db.admin() as admin:
        schemas = install_schemas(admin)
        problems = admin.execute(KEYS_WITHOUT_TENANT, {"schemas": schemas}).fetchall()
        tables = admin.execute(
            "SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE a.attname = 'tenant' "
            "AND c.relkind IN ('r', 'p') AND n.nspname = ANY(%s)",
            (schemas,),
        ).fetchone()
    assert tables and tables[0] > 20  # the check saw the install's tables
    problems = [p for p in problems if (p[0], p[1]) not in DATABASE_WIDE_KEYS]
    assert problems == [], "keys a distributed table could not enforce: " + repr(problems)


def test_the_key_check_finds_a_key_without_the_tenant(db: Database) -> None:
    """The check above is not vacuous: a unique key on a tenant table without the tenant
    and a foreign key that ignores it are both reported."""
    with db.admin() as admin:
        admin.execute(f"CREATE TABLE {SCHEMA}_internal.probe_parent (tenant text, id int)")
        admin.execute(f"ALTER TABLE {SCHEMA}_internal.probe_parent ADD PRIMARY KEY (tenant, id)")
        admin.execute(
            f"CREATE TABLE {SCHEMA}_internal.probe_child (tenant text, id int UNIQUE, "
            f"parent int, other_tenant text, FOREIGN KEY (other_tenant, parent) "
            f"REFERENCES {SCHEMA}_internal.probe_parent (tenant, id))"
        )
        admin.execute(
            f"ALTER TABLE {SCHEMA}_internal.probe_child OWNER TO {SCHEMA}_owner; "
            f"ALTER TABLE {SCHEMA}_internal.probe_parent OWNER TO {SCHEMA}_owner"
        )
        found = admin.execute(KEYS_WITHOUT_TENANT, {"schemas": install_schemas(admin)}).fetchall()
    assert {(t.split(".")[1], kind) for t, _, kind in found if ".probe_" in t} == {
        ("probe_child", "u"),
        ("probe_child", "f"),
        ("probe_child", "unique index"),
    }


# -- the plans of the API's queries ------------------------------------------------------

PLAN_MESSAGE = re.compile(r"plan:\s*(\{.*\})\s*$", re.S)
SCAN_NODES = {"Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Tid Scan"}
CONDITIONS = ("Index Cond", "Recheck Cond", "Filter", "TID Cond")


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


JOIN_CONDITIONS = ("Hash Cond", "Merge Cond", "Join Filter")


def _untenanted_scans(
    plan: dict[str, Any], tenant_tables: set[str], joined_by: tuple[str, ...] = ()
) -> list[str]:
    """Scans of a tenant table whose conditions (a bitmap heap scan's: its index scans'
    too) do not name the tenant, nor does a join above them (a join by tenant, which a
    distributed install runs on the tenant's node)."""
    problems = []
    if plan["Node Type"] in SCAN_NODES:
        table = f"{plan['Schema']}.{plan['Relation Name']}"
        conditions = [str(plan.get(c, "")) for c in CONDITIONS] + list(joined_by)
        conditions += [str(n.get("Index Cond", "")) for n in _nodes(plan)]
        if table in tenant_tables and not any(re.search(r"\btenant\b", c) for c in conditions):
            problems.append(f"{plan['Node Type']} on {table}: {[c for c in conditions if c]}")
    joined_by += tuple(str(plan[c]) for c in JOIN_CONDITIONS if c in plan)
    for child in plan.get("Plans", []):
        problems += _untenanted_scans(child, tenant_tables, joined_by)
    return problems


@pytest.fixture
def explained(db: Database) -> Iterator[list[dict[str, Any]]]:
    """The plans of every statement the app login's sessions run in this database, nested
    statements included (auto_explain, sent to the client as LOG messages), with row level
    security off so that only the queries' own conditions show."""
    login = f"{SCHEMA}_test_app"
    with db.admin() as admin:
        for setting, value in (
            ("session_preload_libraries", "auto_explain"),
            ("auto_explain.log_min_duration", "0"),
            ("auto_explain.log_nested_statements", "on"),
            ("auto_explain.log_format", "json"),
            ("auto_explain.log_verbose", "on"),  # plans name each relation's schema
            ("client_min_messages", "log"),
        ):
            admin.execute(f"ALTER ROLE {login} IN DATABASE {db.name} SET {setting} = '{value}'")
        tables = admin.execute(
            "SELECT format('%%I.%%I', n.nspname, c.relname) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant' "
            "WHERE c.relkind = 'r' AND n.nspname = ANY(%s)",
            (install_schemas(admin),),
        ).fetchall()
        for (table,) in tables:
            admin.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    plans: list[dict[str, Any]] = []
    yield plans
    with db.admin() as admin:
        admin.execute(f"ALTER ROLE {login} IN DATABASE {db.name} RESET ALL")


def _tenant_tables(db: Database) -> set[str]:
    with db.admin() as admin:
        return {
            row[0]
            for row in admin.execute(
                "SELECT n.nspname || '.' || c.relname FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant' "
                "WHERE c.relkind = 'r' AND n.nspname = ANY(%s)",
                (install_schemas(admin),),
            )
        }


def _listen_for_plans(conn: psycopg.Connection, messages: list[str]) -> None:
    def collect(diagnostic: psycopg.errors.Diagnostic) -> None:
        if diagnostic.severity_nonlocalized == "LOG" and diagnostic.message_primary:
            messages.append(diagnostic.message_primary)

    conn.add_notice_handler(collect)


def _problems(
    messages: list[str], tenant_tables: set[str], explained: list[dict[str, Any]]
) -> dict[str, list[str]]:
    problems: dict[str, list[str]] = {}
    for message in messages:
        match = PLAN_MESSAGE.search(message)
        if not match:
            continue
        document = json.loads(match.group(1))
        explained.append(document)
        found = _untenanted_scans(document["Plan"], tenant_tables)
        if found:
            problems.setdefault(document.get("Query Text", "?")[:200], []).extend(found)
    return problems


def test_every_api_query_reaches_tenant_tables_through_the_tenant(
    db: Database, explained: list[dict[str, Any]]
) -> None:
    """Every tool's sample calls, as test_tool_schemas makes them: each plan of each
    statement they run scans a tenant table only through a condition on `tenant`."""
    messages: list[str] = []
    caller = Caller(db, session="s1")
    _listen_for_plans(caller.tool_conn("app"), messages)
    latest: dict[str, Any] = {}
    for name, kind, args in SAMPLES:
        if (setup := sample_setup(name, db)) is not None:
            latest.update(setup)
            continue
        latest.update(caller(name, resolved(args, latest), kind=kind))
    problems = _problems(messages, _tenant_tables(db), explained)
    assert len(explained) > 200, len(explained)  # the calls' statements were seen
    assert problems == {}, json.dumps(problems, indent=1)


def test_every_sql_api_example_reaches_tenant_tables_through_the_tenant(
    db: Database, explained: list[dict[str, Any]]
) -> None:
    """The SQL API reference's examples (docs/sql-api.md, as tests/test_docs.py runs them:
    knowledge, retrieval, the pipeline, governance): the same rule for their plans."""
    messages: list[str] = []
    with db.connect("app", autocommit=True) as conn:
        _listen_for_plans(conn, messages)
        cross_tenant = [
            name
            for (name,) in conn.execute(
                "SELECT DISTINCT p.proname FROM pg_proc p JOIN pg_namespace n "
                "ON n.oid = p.pronamespace WHERE n.nspname = %s "
                "AND p.prosrc LIKE '%%require_cross_tenant_operator%%'",
                (SCHEMA,),
            )
        ]
        assert "run_maintenance" in cross_tenant
        for example in sql_examples(DOCS / "sql-api.md"):
            # A superuser's snippet is no API call; an operator's call across tenants
            # (require_cross_tenant_operator) reads every tenant by design.
            if example.startswith("-- as superuser") or any(
                f"{SCHEMA}.{name}(" in example for name in cross_tenant
            ):
                continue
            try:
                conn.execute(example.encode())
            except psycopg.Error:
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    conn.execute("ROLLBACK")
    problems = _problems(messages, _tenant_tables(db), explained)
    assert len(explained) > 500, len(explained)
    assert problems == {}, json.dumps(problems, indent=1)


def test_the_plan_check_finds_a_scan_without_the_tenant(module_db: Database) -> None:
    """The check above is not vacuous: on real plans, a read of facts by key alone is
    reported and the same read within a tenant is not."""
    table = f"{SCHEMA}_internal.facts"
    with module_db.admin() as admin:
        admin.execute("SET enable_seqscan = off")

        def plan(where: str) -> dict[str, Any]:
            sql = f"EXPLAIN (VERBOSE, FORMAT JSON) SELECT * FROM {table} WHERE {where}"
            row = admin.execute(sql).fetchone()
            assert row is not None
            return dict(row[0][0]["Plan"])

        by_key = _untenanted_scans(plan("key = 'k'"), {table})
        within_tenant = _untenanted_scans(plan("tenant = 't1' AND key = 'k'"), {table})
    assert len(by_key) == 1 and table in by_key[0]
    assert within_tenant == []
