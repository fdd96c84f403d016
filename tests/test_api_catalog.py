"""The API catalog: every public function registered once, and every copy of it checked.

A layer declares who may call a function (register_api in its 99_grants.sql) and its tools
(register_tool in its 95_tools.sql). The copies a user reads are checked against the
database here: the COMMENT, the grants against the table in docs/sql-api.md, a section of
docs/sql-api.md, a method of both Python stores with the same parameter names, and each
tool's kinds against the grants of what it calls.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import psycopg
import pytest

import pgfacts
from pgfacts import errors
from pgfacts.client import AsyncFactStore, FactStore, Tools

from .conftest import KINDS, SCHEMA, Database

SQL_API = Path(__file__).resolve().parent.parent / "docs" / "sql-api.md"
KIND_ROW = re.compile(r"^\| `(\w+)` \| ([^|]+) \|$", re.MULTILINE)
# Set through the store's Context (set_context) or granted to no agent kind (DBA only).
NOT_CLIENT_METHODS = {
    "set_context",
    "current_context",
    "bind_tenant_login",
    "unbind_tenant_login",
    "allow_embedding_dimension",
}
# call_tool's context argument is the store's own Context.
STORE_SUPPLIED = {"call_tool": {"context"}}
# The reranking stage runs in the client, on the rows the SQL function returned
# (pgfacts.rerank): parameters of the method, not of the function.
CLIENT_ONLY = {
    "search": {"reranker", "rerank_top_n"},
    "context_pack": {"reranker", "rerank_top_n"},
}

API_FUNCTIONS = f"""
SELECT p.proname, p.oid::regprocedure::text,
       coalesce(p.proargnames[1:p.pronargs], '{{}}'),
       obj_description(p.oid, 'pg_proc'),
       array(SELECT k FROM unnest(%(kinds)s::text[]) AS k
              WHERE has_function_privilege('{SCHEMA}_' || k, p.oid, 'EXECUTE')),
       has_function_privilege('public', p.oid, 'EXECUTE')
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = '{SCHEMA}' ORDER BY 1
"""


@pytest.fixture(scope="module")
def catalog(server_dsn: str, template_db: str) -> dict[str, tuple]:  # type: ignore[type-arg]
    import psycopg

    from .conftest import with_db

    with psycopg.connect(with_db(server_dsn, template_db)) as conn:
        rows = conn.execute(API_FUNCTIONS, {"kinds": list(KINDS)}).fetchall()
        writers = conn.execute(f"SELECT {SCHEMA}_internal.writer_kinds()").fetchone()
    assert writers is not None
    functions = {row[0]: row[1:] for row in rows}
    functions["__writers__"] = (writers[0],)
    return functions


def documented_kinds(writers: list[str]) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    # The rows of the one table under "Who may call what" (other tables list codes).
    section = SQL_API.read_text().split("## Who may call what", 1)[1].split("\n## ", 1)[0]
    for name, cell in KIND_ROW.findall(section):
        cell = cell.strip()
        if cell.startswith("every kind"):
            table[name] = list(KINDS)
        elif cell.startswith("writers"):
            table[name] = list(writers)
        elif cell.startswith("none"):
            table[name] = []
        else:
            table[name] = [k.strip() for k in cell.split(",")]
    return table


def api_names(catalog: dict[str, tuple]) -> list[str]:  # type: ignore[type-arg]
    return sorted(name for name in catalog if not name.startswith("__"))


def test_every_api_function_has_a_comment(catalog: dict[str, tuple]) -> None:  # type: ignore[type-arg]
    missing = [name for name in api_names(catalog) if not (catalog[name][2] or "").strip()]
    assert missing == []


def test_grants_are_exactly_the_documented_kinds(catalog: dict[str, tuple]) -> None:  # type: ignore[type-arg]
    documented = documented_kinds(catalog["__writers__"][0])
    problems = []
    for name in api_names(catalog):
        signature, _args, _comment, granted, public = catalog[name]
        if public:
            problems.append(f"{signature}: executable by PUBLIC")
        if name not in documented:
            problems.append(f"{name}: not in the 'Who may call what' table of docs/sql-api.md")
        elif sorted(granted) != sorted(documented[name]):
            problems.append(f"{name}: granted to {granted}, documented for {documented[name]}")
    stale = sorted(set(documented) - set(api_names(catalog)))
    assert problems == [] and stale == [], (problems, stale)


def test_every_api_function_has_a_section_in_the_reference(catalog: dict[str, tuple]) -> None:  # type: ignore[type-arg]
    headings = "\n".join(
        line for line in SQL_API.read_text().splitlines() if line.startswith("### ")
    )
    missing = [name for name in api_names(catalog) if not re.search(rf"`{name}[(`]", headings)]
    assert missing == []


@pytest.mark.parametrize("store", [FactStore, AsyncFactStore], ids=["sync", "async"])
def test_every_api_function_has_a_client_method_with_its_parameters(
    catalog: dict[str, tuple],  # type: ignore[type-arg]
    store: type,
) -> None:
    problems = []
    for name in api_names(catalog):
        if name in NOT_CLIENT_METHODS:
            continue
        method = getattr(store, name, None)
        if method is None:
            problems.append(f"{store.__name__}.{name} is missing")
            continue
        sql_args = set(catalog[name][1]) - STORE_SUPPLIED.get(name, set())
        python_args = (
            set(inspect.signature(method).parameters) - {"self"} - CLIENT_ONLY.get(name, set())
        )
        if sql_args != python_args:
            problems.append(f"{store.__name__}.{name}{sorted(python_args)} != {sorted(sql_args)}")
    assert problems == []


def test_both_stores_offer_the_same_methods() -> None:
    def public(store: type) -> set[str]:
        return {name for name in dir(store) if not name.startswith("_")}

    assert public(FactStore) == public(AsyncFactStore)
    for name in ("with_context", "call_tool", "schema_version", "tool_definitions"):
        assert callable(getattr(FactStore, name, None)), name


def test_every_tool_kind_matches_the_grants_of_what_it_calls(db: Database) -> None:
    with db.connect("app") as conn:
        tools = conn.execute(
            f"SELECT t.name, t.api_functions, t.arguments, t.handler, d.value "
            f"FROM {SCHEMA}_internal.tools t "
            f"JOIN jsonb_array_elements({SCHEMA}.tool_definitions()) d "
            f"  ON d.value ->> 'name' = t.name ORDER BY t.position"
        ).fetchall()
        assert [t[0] for t in tools], "no tools registered"
        for name, functions, arguments, handler, definition in tools:
            allowed = [
                kind
                for kind in KINDS
                if all(
                    conn.execute(
                        "SELECT has_function_privilege(%s, %s::regprocedure, 'EXECUTE')",
                        (f"{SCHEMA}_{kind}", function),
                    ).fetchone()[0]  # type: ignore[index]
                    for function in functions
                )
            ]
            assert definition["kinds"] == allowed, name
            assert sorted(arguments) == sorted(definition["input_schema"]["properties"]), name
            assert handler.startswith(f"{SCHEMA}_internal."), name
            # Every tool is a method of the client's tools too.
            assert callable(getattr(Tools, name, None)), name


RESTRICTED_FUNCTIONS = f"""
SELECT p.oid::regprocedure::text,
       format('SELECT * FROM %%I.%%I(%%s)', n.nspname, p.proname,
              (SELECT coalesce(string_agg('NULL::' || format_type(t, NULL), ', '), '')
                 FROM unnest(p.proargtypes) AS t)),
       array(SELECT k FROM unnest(%(kinds)s::text[]) AS k
              WHERE NOT has_function_privilege('{SCHEMA}_' || k, p.oid, 'EXECUTE'))
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = '{SCHEMA}'
   AND cardinality(array(SELECT k FROM unnest(%(kinds)s::text[]) AS k
                          WHERE has_function_privilege('{SCHEMA}_' || k, p.oid, 'EXECUTE')))
       BETWEEN 1 AND cardinality(%(kinds)s::text[]) - 1
 ORDER BY 1
"""


def test_every_restricted_function_refuses_an_ungranted_kind_first(db: Database) -> None:
    """The grants stop a login holding one kind; a login holding several (an app server)
    passes them whatever kind its context claims, so each function granted to some kinds
    only checks the claimed kind itself, before anything else: called with NULL for every
    argument by the multi-kind login claiming each kind it is not granted to, it is 42501."""
    with db.connect("app") as conn:
        functions = conn.execute(RESTRICTED_FUNCTIONS, {"kinds": list(KINDS)}).fetchall()
    assert len(functions) > 10, functions
    problems = []
    with db.connect("app", autocommit=True) as conn:
        for signature, call, ungranted in functions:
            for kind in ungranted:
                try:
                    with conn.transaction():
                        conn.execute(
                            "SELECT pgfacts.set_context(tenant => 't1', session_id => 's1', "
                            "agent_kind => %s)",
                            (kind,),
                        )
                        conn.execute(call)
                except psycopg.Error as exc:
                    if exc.sqlstate != "42501":
                        problems.append(
                            f"{signature} as {kind}: {exc.sqlstate} {exc.diag.message_primary}"
                        )
                else:
                    problems.append(f"{signature} as {kind}: not refused")
    assert problems == [], "\n".join(problems)


def test_every_error_class_is_exported() -> None:
    classes = [
        name
        for name, value in vars(errors).items()
        if inspect.isclass(value)
        and value.__module__ == errors.__name__
        and issubclass(value, (errors.PgfactsError, Warning))
    ]
    assert classes
    assert sorted(set(classes) - set(pgfacts.__all__)) == []
