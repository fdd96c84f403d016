"""SQL lint that needs a live database (run by ``make lint``).

Installs the real migrations into a scratch database and checks:
* plpgsql_check over every PL/pgSQL function (trigger functions with their table): zero errors;
* every function of the API schema has a COMMENT (the comments are the SQL API reference);
* every function pins its search_path; SECURITY DEFINER ones are not executable by PUBLIC;
* no function body runs past 120 lines: a rule buried in a long body has no name;
* every table has a ``tenant`` column and ENABLEd and FORCEd row level security, but for
  the tables in NO_RLS_TABLES, each with the reason it cannot carry them;
* every schema of the database is the install's (owned by its owner role, see
  tests/catalog.py) or one of catalog.FOREIGN_SCHEMAS, and the install owns nothing outside
  its schemas.

Every check but the comments' (an API schema's) covers every schema of the install, not a
list of names: a schema a layer adds is checked from its first migration.
"""

from __future__ import annotations

import sys
import uuid

import psycopg

from pgfacts import migrate, resolve_dsn

from .catalog import (
    build_sample_projection,
    install_schemas,
    sample_graph_schema,
    unclaimed_schemas,
)
from .conftest import with_db

SCHEMA = "pgfacts"
# Tables of the install that carry no tenant column and no row level security, and why:
# each holds no tenant's data. A key "<schema>.*" would set aside every table of a schema
# (say, a graph's label tables, whose tenants another rule keeps apart); say why there.
# An entry that matches no table is reported, so the list stays the tables it names.
NO_RLS_TABLES = {
    # The migration ledger: which files were applied, for the whole install.
    f"{SCHEMA}_internal.schema_ledger": "the migration ledger",
    # The agent tools every layer registers: the install's, the same for every tenant.
    f"{SCHEMA}_internal.tools": "the tool registry",
    # The settings every layer registers (names, types, bounds, defaults); tenants' values
    # are in settings, which carries both.
    f"{SCHEMA}_internal.setting_definitions": "the settings registry",
    # The claim gates later layers register with the knowledge write path: the install's.
    f"{SCHEMA}_internal.claim_gates": "the claim gate registry",
    # The item kinds later layers serve to search: the install's.
    f"{SCHEMA}_internal.search_item_sources": "the search item source registry",
    # A tenant's AGE projection (the lint builds one for catalog.SAMPLE_TENANT): AGE's label
    # tables, whose columns AGE fixes (id, properties; start_id, end_id) and which Cypher
    # reads without row level security. The graph is the tenant's alone: its name derives
    # from the tenant, only the owner writes it, agents have no access to it or to cypher().
    f"{sample_graph_schema(SCHEMA)}.*": "a tenant's AGE projection (label tables)",
}
# Inlinable SQL helpers (evaluated per row, or on every call: the caller context, lock keys,
# checks) carry no SET clause, which would stop inlining, and qualify every name instead.
# Each says so with "(inlined)" in its COMMENT, so a new one needs no list here.
INLINED_MARKER = "(inlined)"

PLPGSQL_FUNCTIONS = """
SELECT p.oid, p.oid::regprocedure::text, p.prorettype = 'trigger'::regtype,
       t.tgrelid, t.tgoldtable, t.tgnewtable
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  JOIN pg_language l ON l.oid = p.prolang
  -- A statement trigger's transition tables are checked under the names it gives them.
  LEFT JOIN LATERAL (SELECT t.tgrelid, t.tgoldtable, t.tgnewtable FROM pg_trigger t
                      WHERE t.tgfoid = p.oid LIMIT 1) AS t ON true
 WHERE n.nspname = ANY(%(schemas)s) AND l.lanname = 'plpgsql'
 ORDER BY 2
"""

UNCOMMENTED = """
SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = %(api)s AND obj_description(p.oid, 'pg_proc') IS NULL ORDER BY 1
"""

UNPINNED = """
SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = ANY(%(schemas)s)
   AND NOT EXISTS (SELECT 1 FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%%')
   AND NOT (p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'sql')
            AND strpos(coalesce(obj_description(p.oid, 'pg_proc'), ''), %(inlined)s) > 0)
 ORDER BY 1
"""

# Each "(inlined)" helper as the planner sees a call of it with parameters for arguments:
# inlined, the plan shows its body; called, its name (a body with a sub-select or an
# aggregate, or a body less immutable than the function says, is never inlined).
INLINED = """
SELECT p.oid::regprocedure::text, n.nspname || '.' || p.proname, p.proretset,
       coalesce((SELECT string_agg(format('$%%s::%%s', a.i, format_type(a.t, NULL)), ', '
                                   ORDER BY a.i)
                   FROM unnest(p.proargtypes::oid []) WITH ORDINALITY AS a (t, i)), '')
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = ANY(%(schemas)s)
   AND strpos(coalesce(obj_description(p.oid, 'pg_proc'), ''), %(inlined)s) > 0
 ORDER BY 1
"""


def not_inlined(conn: psycopg.Connection, schemas: list[str]) -> list[str]:
    found = []
    rows = conn.execute(INLINED, {"schemas": schemas, "inlined": INLINED_MARKER}).fetchall()
    for signature, name, returns_set, arguments in rows:
        call = f"{name}({arguments})"
        query = f"SELECT * FROM {call}" if returns_set else f"SELECT {call}"
        plan = "\n".join(
            line for (line,) in conn.execute(f"EXPLAIN (GENERIC_PLAN, VERBOSE) {query}")
        )
        if f"{name}(" in plan or f"Function Scan on {name}" in plan:
            found.append(signature)
    return found


MAX_BODY_LINES = 120
LONG_BODIES = f"""
SELECT p.oid::regprocedure::text, array_length(string_to_array(p.prosrc, E'\\n'), 1) - 1
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = ANY(%(schemas)s)
   AND array_length(string_to_array(p.prosrc, E'\\n'), 1) - 1 > {MAX_BODY_LINES}
 ORDER BY 1
"""

PUBLIC_DEFINERS = """
SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = ANY(%(schemas)s) AND p.prosecdef
   AND has_function_privilege('public', p.oid, 'EXECUTE') ORDER BY 1
"""

TABLES = """
SELECT n.nspname || '.' || c.relname, c.relrowsecurity, c.relforcerowsecurity,
       EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant'
                  AND NOT a.attisdropped)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = ANY(%(schemas)s) AND c.relkind IN ('r', 'p') AND NOT c.relispartition
 ORDER BY 1
"""


# Objects the install's owner owns outside the install's schemas (but its tables' TOAST
# tables): no check would see them.
STRAYS = """
SELECT 'relation ' || c.oid::regclass::text FROM pg_class c
 WHERE c.relowner = %(owner)s::regrole AND c.relnamespace::regnamespace::text <> ALL(%(schemas)s)
   AND c.relnamespace <> 'pg_toast'::regnamespace
UNION ALL
SELECT 'function ' || p.oid::regprocedure::text FROM pg_proc p
 WHERE p.proowner = %(owner)s::regrole AND p.pronamespace::regnamespace::text <> ALL(%(schemas)s)
 ORDER BY 1
"""


def check_schemas(conn: psycopg.Connection) -> list[str]:
    """A schema no check covers, or an object of the install outside its schemas."""
    problems = [
        f"schema {name} (owned by {owner}) is neither the install's (owned by {SCHEMA}_owner) "
        "nor in tests/catalog.py FOREIGN_SCHEMAS: create it as the owner role, or list it "
        "there with the reason"
        for name, owner in unclaimed_schemas(conn, SCHEMA)
    ]
    schemas = install_schemas(conn, SCHEMA)
    for required in (SCHEMA, f"{SCHEMA}_internal"):
        if required not in schemas:
            problems.append(f"schema {required} is not owned by {SCHEMA}_owner: nothing checked")
    for (name,) in conn.execute(
        STRAYS, {"owner": f"{SCHEMA}_owner", "schemas": schemas}
    ).fetchall():
        problems.append(f"{name}: owned by {SCHEMA}_owner outside the install's schemas")
    return problems


def check_tables(conn: psycopg.Connection, schemas: list[str]) -> list[str]:
    """Every table carries a tenant and forced row level security, or says why not."""
    problems = []
    exempted = set()
    for table, rls, forced, has_tenant in conn.execute(TABLES, {"schemas": schemas}).fetchall():
        exemption = next(
            (k for k in (table, table.split(".")[0] + ".*") if k in NO_RLS_TABLES), None
        )
        if exemption is not None:
            exempted.add(exemption)
            continue
        if not has_tenant:
            problems.append(f"table {table}: no tenant column")
        if not (rls and forced):
            problems.append(f"table {table}: row level security not enabled and forced")
    for stale in sorted(set(NO_RLS_TABLES) - exempted):
        problems.append(f"NO_RLS_TABLES lists {stale}, which matches no table: remove it")
    return problems


def check(dsn: str) -> list[str]:
    # A graph schema exists once a tenant's projection does: build the sample tenant's.
    build_sample_projection(dsn, SCHEMA)
    with psycopg.connect(dsn, autocommit=True) as conn:
        problems = check_schemas(conn)
        schemas = install_schemas(conn, SCHEMA)
        conn.execute("CREATE EXTENSION IF NOT EXISTS plpgsql_check")
        for oid, name, is_trigger, relid, old_table, new_table in conn.execute(
            PLPGSQL_FUNCTIONS, {"schemas": schemas}
        ).fetchall():
            if is_trigger and relid is None:
                problems.append(f"{name}: trigger function attached to no table")
                continue
            rows = conn.execute(
                "SELECT level, message, lineno, hint FROM plpgsql_check_function_tb("
                "%(oid)s, relid => coalesce(%(relid)s, 0)::oid, fatal_errors => false, "
                "extra_warnings => false, oldtable => %(old)s, newtable => %(new)s)",
                {"oid": oid, "relid": relid, "old": old_table, "new": new_table},
            ).fetchall()
            for level, message, lineno, hint in rows:
                if level == "error":
                    problems.append(f"{name} line {lineno}: {message} {hint or ''}".strip())
                else:
                    print(f"note: {name} line {lineno}: {level}: {message}", file=sys.stderr)
        for (name,) in conn.execute(UNCOMMENTED, {"api": SCHEMA}).fetchall():
            problems.append(f"{name}: public function without COMMENT ON FUNCTION")
        for (name,) in conn.execute(
            UNPINNED, {"schemas": schemas, "inlined": INLINED_MARKER}
        ).fetchall():
            problems.append(
                f"{name}: function without SET search_path (an inlinable SQL helper says "
                f"{INLINED_MARKER!r} in its COMMENT)"
            )
        for name in not_inlined(conn, schemas):
            problems.append(
                f"{name}: its COMMENT says {INLINED_MARKER!r} but the planner calls it (make it "
                "as volatile as its body, or give it a SET search_path and drop the word)"
            )
        for name, lines in conn.execute(LONG_BODIES, {"schemas": schemas}).fetchall():
            problems.append(
                f"{name}: body of {lines} lines (at most {MAX_BODY_LINES}); give its rules "
                "named functions of their own"
            )
        for (name,) in conn.execute(PUBLIC_DEFINERS, {"schemas": schemas}).fetchall():
            problems.append(f"{name}: SECURITY DEFINER function executable by PUBLIC")
        problems += check_tables(conn, schemas)
    return problems


def main() -> int:
    server = resolve_dsn()
    name = f"pgfacts_lint_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    try:
        dsn = with_db(server, name)
        migrate(dsn, SCHEMA)
        problems = check(dsn)
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    for problem in problems:
        print(f"sql lint: {problem}", file=sys.stderr)
    print(f"sql lint: {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
