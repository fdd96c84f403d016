"""A normalised picture of an install's schema objects, for upgrade-equals-fresh tests."""

from __future__ import annotations

import psycopg

_QUERIES = {
    "schemas": """
        SELECT n.nspname, r.rolname, n.nspacl::text, obj_description(n.oid, 'pg_namespace')
          FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY 1""",
    "relations": """
        SELECT c.relname, c.relkind, r.rolname, c.relacl::text, c.relrowsecurity,
               c.relforcerowsecurity, c.reloptions::text, obj_description(c.oid, 'pg_class')
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_roles r ON r.oid = c.relowner
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY n.nspname, 1""",
    "columns": """
        SELECT c.relname, a.attname, a.attnum, format_type(a.atttypid, a.atttypmod),
               a.attnotnull, pg_get_expr(d.adbin, d.adrelid), a.attidentity, a.attgenerated,
               col_description(c.oid, a.attnum)
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE n.nspname = ANY(%(schemas)s) AND a.attnum > 0 AND NOT a.attisdropped
         ORDER BY n.nspname, 1, 3""",
    "constraints": """
        SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)
          FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY 1, 2""",
    "indexes": """
        SELECT indexname, indexdef FROM pg_indexes
         WHERE schemaname = ANY(%(schemas)s) ORDER BY schemaname, 1""",
    "functions": """
        SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid), r.rolname,
               p.proacl::text, obj_description(p.oid, 'pg_proc')
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          JOIN pg_roles r ON r.oid = p.proowner
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY 1""",
    "policies": """
        SELECT schemaname, tablename, policyname, permissive, roles::text, cmd, qual, with_check
          FROM pg_policies WHERE schemaname = ANY(%(schemas)s) ORDER BY 1, 2, 3""",
    "triggers": """
        SELECT t.tgrelid::regclass::text, t.tgname, pg_get_triggerdef(t.oid)
          FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = ANY(%(schemas)s) AND NOT t.tgisinternal ORDER BY 1, 2""",
    "types": """
        SELECT t.typname, t.typtype, format_type(t.oid, NULL)
          FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE n.nspname = ANY(%(schemas)s) AND t.typtype <> 'b' ORDER BY 1""",
}


def snapshot(dsn: str, schema: str) -> dict[str, list[tuple[object, ...]]]:
    schemas = [schema, f"{schema}_internal"]
    with psycopg.connect(dsn) as conn:
        return {
            name: conn.execute(query, {"schemas": schemas}).fetchall()
            for name, query in _QUERIES.items()
        }
