"""SQL lint that needs a live database (run by ``make lint``).

Installs the real migrations into a scratch database and checks:
* plpgsql_check over every PL/pgSQL function (trigger functions with their table): zero errors;
* every function of the API schema has a COMMENT (the comments are the SQL API reference);
* every function pins its search_path; SECURITY DEFINER ones are not executable by PUBLIC;
* no function body runs past 120 lines: a rule buried in a long body has no name;
* every table has a ``tenant`` column and ENABLEd and FORCEd row level security (the
  migration ledger, which holds no tenant data, is the one exception).
"""

from __future__ import annotations

import sys
import uuid

import psycopg

from pgfacts import migrate, resolve_dsn

from .conftest import with_db

SCHEMA = "pgfacts"
# Install-level tables that hold no tenant data: the migration ledger and the tool registry.
NO_TENANT_TABLES = {"schema_ledger", "tools"}
# Inlinable SQL helpers (evaluated per row, or on every call: the caller context, lock keys,
# checks) carry no SET clause, which would stop inlining, and qualify every name instead.
# Each says so with "(inlined)" in its COMMENT, so a new one needs no list here.
INLINED_MARKER = "(inlined)"

PLPGSQL_FUNCTIONS = """
SELECT p.oid, p.oid::regprocedure::text, p.prorettype = 'trigger'::regtype,
       (SELECT t.tgrelid FROM pg_trigger t WHERE t.tgfoid = p.oid LIMIT 1)
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  JOIN pg_language l ON l.oid = p.prolang
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
SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity,
       EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant'
                  AND NOT a.attisdropped)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = ANY(%(schemas)s) AND c.relkind IN ('r', 'p') AND NOT c.relispartition
 ORDER BY 1
"""


def check(dsn: str) -> list[str]:
    problems: list[str] = []
    schemas = [SCHEMA, f"{SCHEMA}_internal"]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS plpgsql_check")
        for oid, name, is_trigger, relid in conn.execute(
            PLPGSQL_FUNCTIONS, {"schemas": schemas}
        ).fetchall():
            if is_trigger and relid is None:
                problems.append(f"{name}: trigger function attached to no table")
                continue
            rows = conn.execute(
                "SELECT level, message, lineno, hint FROM plpgsql_check_function_tb("
                "%(oid)s, relid => coalesce(%(relid)s, 0)::oid, fatal_errors => false, "
                "extra_warnings => false)",
                {"oid": oid, "relid": relid},
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
        for name, lines in conn.execute(LONG_BODIES, {"schemas": schemas}).fetchall():
            problems.append(
                f"{name}: body of {lines} lines (at most {MAX_BODY_LINES}); give its rules "
                "named functions of their own"
            )
        for (name,) in conn.execute(PUBLIC_DEFINERS, {"schemas": schemas}).fetchall():
            problems.append(f"{name}: SECURITY DEFINER function executable by PUBLIC")
        for table, rls, forced, has_tenant in conn.execute(TABLES, {"schemas": schemas}).fetchall():
            if table in NO_TENANT_TABLES:
                continue
            if not has_tenant:
                problems.append(f"table {table}: no tenant column")
            if not (rls and forced):
                problems.append(f"table {table}: row level security not enabled and forced")
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
