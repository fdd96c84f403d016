"""A normalised picture of an install's schema objects.

``snapshot`` gives the rows the upgrade-equals-fresh tests compare (function bodies
included); ``render`` writes the same rows as the human-readable schema file that
``make schema`` commits (``schema/pgfacts.sql``: tables, constraints, indexes, policies,
grants, triggers, types, and functions by signature without their bodies). Both read the
catalog through the queries below.

``python -m tests.catalog [--check] [PATH]`` installs the migrations into a scratch
database and writes (or, with ``--check``, compares) the schema file.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

SCHEMA = "pgfacts"
SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schema" / "pgfacts.sql"

# An install's schemas are the schemas its owner role (<schema>_owner) owns: the migrations
# create pgfacts' two with AUTHORIZATION <schema>_owner, and a layer that makes one of its
# own (AGE keeps each graph in a schema of the graph's name) creates it as that role, so
# `\dn` shows a DBA which schemas an install holds. The schema file, the upgrade-equals-fresh
# comparison and every check of tests/lint_sql.py cover exactly these; the lint also fails
# on a schema of the install's database that is neither the install's nor listed below, so
# a new schema is checked or consciously set aside, never skipped.
INSTALL_SCHEMAS = """
    SELECT n.nspname FROM pg_namespace n
     WHERE n.nspowner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = %(owner)s)
     ORDER BY 1"""

# Schemas of an install's database that are not the install's, and why. PostgreSQL's own
# (pg_catalog, information_schema, pg_toast and the pg_temp_N / pg_toast_temp_N schemas of
# sessions) are left out by name.
FOREIGN_SCHEMAS = {
    # The extensions pgfacts needs and shares with every other install of the database
    # (migration 0001: btree_gist, vector, pg_trgm WITH SCHEMA public).
    "public": "shared extensions (btree_gist, vector, pg_trgm)",
    # AGE's own catalog (CREATE EXTENSION age), shared likewise; a graph's schema is not.
    "ag_catalog": "the age extension's catalog",
}

UNCLAIMED_SCHEMAS = """
    SELECT n.nspname, pg_get_userbyid(n.nspowner) FROM pg_namespace n
     WHERE n.nspowner <> coalesce((SELECT r.oid FROM pg_roles r WHERE r.rolname = %(owner)s), 0)
       AND n.nspname <> ALL(%(foreign)s)
       AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
       AND n.nspname !~ '^pg_(toast_)?temp_[0-9]+$'
     ORDER BY 1"""


# An install's graph schemas exist once a tenant's AGE projection is built (AGE keeps each
# graph in a schema of the graph's name, created as the owner): the schema file, the lint and
# the upgrade comparison build one for this tenant, so the label tables, their indexes and
# grants are checked like every other schema of the install.
SAMPLE_TENANT = "catalog-sample"


def sample_graph_schema(schema: str = SCHEMA) -> str:
    """The name of SAMPLE_TENANT's graph (graph_projection_name_of in sql/40_graph)."""
    return f"{schema}_g_" + hashlib.sha256(SAMPLE_TENANT.encode()).hexdigest()[:20]


def build_sample_projection(dsn: str, schema: str = SCHEMA) -> None:
    """Build SAMPLE_TENANT's (empty) AGE projection, as its operator."""
    with psycopg.connect(dsn) as conn:
        conn.execute(
            f"SELECT {schema}.set_context(tenant => %s, agent_kind => 'operator')",
            (SAMPLE_TENANT,),
        )
        conn.execute(f"SELECT {schema}.rebuild_graph_projection()")


def install_schemas(conn: psycopg.Connection, schema: str = SCHEMA) -> list[str]:
    """The schemas of the install named ``schema``: those its owner role owns."""
    rows = conn.execute(INSTALL_SCHEMAS, {"owner": f"{schema}_owner"}).fetchall()
    return [str(name) for (name,) in rows]


def unclaimed_schemas(conn: psycopg.Connection, schema: str = SCHEMA) -> list[tuple[str, str]]:
    """(schema, owner) of the database's schemas that are neither the install's nor in
    FOREIGN_SCHEMAS nor PostgreSQL's own."""
    rows = conn.execute(
        UNCLAIMED_SCHEMAS, {"owner": f"{schema}_owner", "foreign": list(FOREIGN_SCHEMAS)}
    ).fetchall()
    return [(str(name), str(owner)) for name, owner in rows]


_QUERIES = {
    "schemas": """
        SELECT n.nspname, r.rolname, n.nspacl::text, obj_description(n.oid, 'pg_namespace')
          FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY 1""",
    "relations": """
        SELECT n.nspname || '.' || c.relname, c.relkind, r.rolname, c.relacl::text,
               c.relrowsecurity, c.relforcerowsecurity, c.reloptions::text,
               obj_description(c.oid, 'pg_class'),
               EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                          AND d.objid = c.oid AND d.deptype = 'i')
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_roles r ON r.oid = c.relowner
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY 1""",
    "columns": """
        SELECT n.nspname || '.' || c.relname, a.attname, a.attnum,
               format_type(a.atttypid, a.atttypmod), a.attnotnull,
               pg_get_expr(d.adbin, d.adrelid), a.attidentity, a.attgenerated,
               col_description(c.oid, a.attnum)
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE n.nspname = ANY(%(schemas)s) AND a.attnum > 0 AND NOT a.attisdropped
         ORDER BY 1, 3""",
    "constraints": """
        SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid), c.contype
          FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY 1, 2""",
    "indexes": """
        SELECT schemaname || '.' || tablename, indexname, indexdef FROM pg_indexes
         WHERE schemaname = ANY(%(schemas)s) ORDER BY 1, 2""",
    "functions": """
        SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid), r.rolname,
               p.proacl::text, obj_description(p.oid, 'pg_proc')
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          JOIN pg_roles r ON r.oid = p.proowner
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY 1""",
    "signatures": """
        SELECT n.nspname || '.' || p.proname || '(' || pg_get_function_arguments(p.oid) || ')',
               pg_get_function_result(p.oid), l.lanname, p.prokind,
               CASE p.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE'
                    ELSE 'VOLATILE' END,
               p.proisstrict, p.prosecdef, p.proconfig, r.rolname, p.proacl::text,
               p.oid::regprocedure::text
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          JOIN pg_roles r ON r.oid = p.proowner JOIN pg_language l ON l.oid = p.prolang
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY p.oid::regprocedure::text""",
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
    "enums": """
        SELECT format_type(e.enumtypid, NULL), e.enumlabel
          FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
          JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE n.nspname = ANY(%(schemas)s) ORDER BY 1, e.enumsortorder""",
    "domains": """
        SELECT format_type(t.oid, NULL), format_type(t.typbasetype, t.typtypmod), t.typnotnull,
               t.typdefault,
               (SELECT string_agg(pg_get_constraintdef(c.oid), ' ' ORDER BY c.conname)
                  FROM pg_constraint c WHERE c.contypid = t.oid)
          FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE n.nspname = ANY(%(schemas)s) AND t.typtype = 'd' ORDER BY 1""",
}

Rows = dict[str, list[tuple[object, ...]]]


def snapshot(dsn: str, schema: str) -> Rows:
    with psycopg.connect(dsn) as conn:
        schemas = install_schemas(conn, schema)
        return {
            name: conn.execute(query, {"schemas": schemas}).fetchall()
            for name, query in _QUERIES.items()
        }


# aclitem privilege letters (PostgreSQL 17), in the order GRANT statements list them.
_PRIVILEGES = {
    "r": "SELECT",
    "a": "INSERT",
    "w": "UPDATE",
    "d": "DELETE",
    "D": "TRUNCATE",
    "x": "REFERENCES",
    "t": "TRIGGER",
    "m": "MAINTAIN",
    "X": "EXECUTE",
    "U": "USAGE",
    "C": "CREATE",
    "c": "CONNECT",
    "T": "TEMPORARY",
    "s": "SET",
    "A": "ALTER SYSTEM",
}
_RELKINDS = {
    "c": "TYPE",
    "r": "TABLE",
    "p": "TABLE",
    "v": "VIEW",
    "m": "MATERIALIZED VIEW",
    "S": "SEQUENCE",
}
_PRIVILEGE_ORDER = list(_PRIVILEGES.values())


def _grants(acl: object, owner: str, target: str) -> list[str]:
    """GRANT statements for an ACL, sorted, leaving out what the owner holds by default."""
    if acl is None:
        return []
    items = re.findall(r'(?:"[^"]*"|[^{},])+', str(acl))
    by_grantee: dict[tuple[str, str], list[str]] = defaultdict(list)
    for item in items:
        grantee, rest = item.rsplit("=", 1)
        letters, grantor = rest.split("/", 1)
        grantee = grantee.strip('"') or "PUBLIC"
        if grantee == owner:
            continue
        i = 0
        while i < len(letters):
            privilege = _PRIVILEGES[letters[i]]
            if letters[i + 1 : i + 2] == "*":
                privilege += " (WITH GRANT OPTION)"
                i += 1
            by_grantee[(grantee, grantor.strip('"'))].append(privilege)
            i += 1
    # One statement per privilege list and grantor, naming every grantee that holds it.
    grantees: dict[tuple[str, str], list[str]] = defaultdict(list)
    for (grantee, grantor), privileges in sorted(by_grantee.items()):
        ordered = sorted(privileges, key=lambda p: _PRIVILEGE_ORDER.index(p.split(" (")[0]))
        grantees[(", ".join(ordered), grantor)].append(grantee)
    lines = []
    for (privileges, grantor), names in sorted(grantees.items()):
        by = "" if grantor == owner else f"  -- granted by {grantor}"
        lines.append(f"GRANT {privileges} ON {target} TO {', '.join(names)};{by}")
    return lines


def _comment(kind: str, name: str, text: object) -> list[str]:
    if text is None:
        return []
    quoted = str(text).replace("'", "''")
    return [f"COMMENT ON {kind} {name} IS '{quoted}';"]


def render(rows: Rows, superuser: str) -> str:
    """The schema file's text: deterministic (sorted, no OIDs), the superuser that ran the
    migrations written as <superuser>."""
    out = [
        "-- The installed pgfacts schema, normalised: written by `make schema` from a fresh",
        "-- install (tests/catalog.py); tests/test_schema_snapshot.py fails when it is stale.",
        "-- A reading aid, not a script: the migrations and sql/ build the database.",
        "-- Functions are listed by signature, without bodies (read those in sql/).",
        "",
    ]
    for name, owner, acl, comment in rows["schemas"]:
        out += [f"CREATE SCHEMA {name} AUTHORIZATION {owner};"]
        out += _grants(acl, str(owner), f"SCHEMA {name}")
        out += _comment("SCHEMA", str(name), comment)
    out.append("")

    for _, type_kind, formatted in rows["types"]:
        if type_kind == "e":
            labels = [f"'{label}'" for t, label in rows["enums"] if t == formatted]
            out += [f"CREATE TYPE {formatted} AS ENUM ({', '.join(labels)});", ""]
        elif type_kind == "d":
            for domain, base, not_null, default, checks in rows["domains"]:
                if domain == formatted:
                    extra = " NOT NULL" if not_null else ""
                    extra += f" DEFAULT {default}" if default is not None else ""
                    extra += f" {checks}" if checks else ""
                    out += [f"CREATE DOMAIN {formatted} AS {base}{extra};", ""]
        # composite types of tables are the tables themselves; c/r/m/p types are listed there

    columns = defaultdict(list)
    for relation, column, _, typ, not_null, default, identity, generated, comment in rows[
        "columns"
    ]:
        columns[relation].append((column, typ, not_null, default, identity, generated, comment))
    constraints = defaultdict(list)
    for relation, name, definition, _ in rows["constraints"]:
        constraints[relation].append((name, definition))
    indexes = defaultdict(list)
    for relation, name, definition in rows["indexes"]:
        if name not in dict(constraints[relation]):  # a constraint's own index
            indexes[relation].append(definition)
    policies = defaultdict(list)
    for nsp, table, name, permissive, roles, cmd, qual, check in rows["policies"]:
        policies[f"{nsp}.{table}"].append((name, permissive, roles, cmd, qual, check))
    triggers = defaultdict(list)
    for relation, _, definition in rows["triggers"]:
        triggers[relation].append(definition)

    for relation, kind, owner, acl, rls, force, options, comment, internal in rows["relations"]:
        if kind not in _RELKINDS or (kind == "S" and internal):
            continue  # indexes (below their table), composite types, identity sequences
        what = _RELKINDS[str(kind)]
        if kind in ("r", "p"):
            body = []
            for column, typ, not_null, default, identity, generated, _ in columns[relation]:
                line = f"    {column} {typ}"
                if identity:
                    line += (
                        f" GENERATED {'ALWAYS' if identity == 'a' else 'BY DEFAULT'} AS IDENTITY"
                    )
                elif generated:
                    line += f" GENERATED ALWAYS AS ({default}) STORED"
                elif default is not None:
                    line += f" DEFAULT {default}"
                if not_null:
                    line += " NOT NULL"
                body.append(line)
            for name, definition in constraints[relation]:
                body.append(f"    CONSTRAINT {name} {definition}")
            with_options = f" WITH ({str(options).strip('{}')})" if options else ""
            out += [f"CREATE TABLE {relation} (", ",\n".join(body), f"){with_options};"]
        elif kind == "c":
            fields = [f"    {column} {typ}" for column, typ, *_ in columns[relation]]
            out += [f"CREATE TYPE {relation} AS (", ",\n".join(fields), ");"]
        else:
            out.append(f"CREATE {what} {relation};")
        out.append(f"ALTER {what} {relation} OWNER TO {owner};")
        if rls:
            out.append(f"ALTER TABLE {relation} ENABLE ROW LEVEL SECURITY;")
        if force:
            out.append(f"ALTER TABLE {relation} FORCE ROW LEVEL SECURITY;")
        out += [f"{definition};" for definition in indexes[relation]]
        for name, permissive, roles, cmd, qual, check in policies[relation]:
            line = f"CREATE POLICY {name} ON {relation} AS {permissive} FOR {cmd}"
            line += f" TO {str(roles).strip('{}').replace(',', ', ')}"
            line += f" USING ({qual})" if qual is not None else ""
            line += f" WITH CHECK ({check})" if check is not None else ""
            out.append(line + ";")
        out += [f"{definition};" for definition in triggers[relation]]
        out += _grants(acl, str(owner), f"{what} {relation}")
        out += _comment(what, str(relation), comment)
        for column, *_, column_comment in columns[relation]:
            out += _comment("COLUMN", f"{relation}.{column}", column_comment)
        out.append("")

    kinds = {"f": "FUNCTION", "p": "PROCEDURE", "a": "AGGREGATE", "w": "FUNCTION"}
    for (
        signature,
        result,
        language,
        kind,
        volatility,
        strict,
        definer,
        config,
        owner,
        acl,
        ident,
    ) in rows["signatures"]:
        what = kinds[str(kind)]
        line = f"{what} {signature}"
        line += f"\n    RETURNS {result}" if result else ""
        line += f"\n    LANGUAGE {language} {volatility}"
        line += " STRICT" if strict else ""
        line += " SECURITY DEFINER" if definer else " SECURITY INVOKER"
        for setting in config or []:  # type: ignore[attr-defined]
            name, value = str(setting).split("=", 1)
            line += f"\n    SET {name} = {value}"
        out.append(f"CREATE {line};")
        out.append(f"ALTER {what} {ident} OWNER TO {owner};")
        out += _grants(acl, str(owner), f"{what} {ident}")
        if acl is None:  # the default: PUBLIC may execute
            out.append(f"-- {ident}: default privileges (EXECUTE to PUBLIC)")
        out.append("")

    text = "\n".join(out).rstrip("\n") + "\n"
    # The superuser's name depends on the server, not on pgfacts.
    return re.sub(rf"\b{re.escape(superuser)}\b", "<superuser>", text)


@contextmanager
def scratch_install(schema: str = SCHEMA, install: bool = True) -> Iterator[str]:
    """A scratch database with the migrations installed (unless not install); dropped
    afterwards."""
    from pgfacts import migrate, resolve_dsn

    server = resolve_dsn()
    name = f"pgfacts_schema_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    try:
        params = conninfo_to_dict(server)
        params["dbname"] = name
        dsn = make_conninfo(**params)
        if install:
            migrate(dsn, schema)
            build_sample_projection(dsn, schema)
        yield dsn
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def current_schema_text(schema: str = SCHEMA) -> str:
    """The schema file's text for a fresh install of this checkout."""
    with scratch_install(schema) as dsn:
        with psycopg.connect(dsn) as conn:
            row = conn.execute("SELECT current_user").fetchone()
        assert row is not None
        return render(snapshot(dsn, schema), str(row[0]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("path", nargs="?", type=Path, default=SCHEMA_FILE)
    args = parser.parse_args()
    text = current_schema_text()
    if args.check:
        if not args.path.exists() or args.path.read_text() != text:
            print(f"{args.path} is stale: run `make schema` and commit it", file=sys.stderr)
            return 1
        return 0
    args.path.parent.mkdir(parents=True, exist_ok=True)
    args.path.write_text(text)
    print(f"wrote {args.path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
