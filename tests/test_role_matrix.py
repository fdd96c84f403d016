"""The role matrix (docs/role-matrix.md): the table is the install's grants, and every
function and tool, called as every kind, is allowed or refused exactly as it says."""

from __future__ import annotations

import re
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from . import role_matrix
from .conftest import KINDS, SCHEMA, Database
from .test_tool_schemas import SAMPLES, Last

# Every function of the API schema, with a call passing NULL for each argument: a kind
# the matrix allows gets past the grant and the kind check (whatever NULL then makes the
# function say), a kind it denies does not.
CALLS = f"""
SELECT p.proname, p.oid::regprocedure::text,
       format('SELECT * FROM %I.%I(%s)', n.nspname, p.proname,
              (SELECT coalesce(string_agg('NULL::' || format_type(t, NULL), ', '), '')
                 FROM unnest(p.proargtypes) AS t))
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = '{SCHEMA}' ORDER BY 1, 2"""

CONTEXT = f"SELECT {SCHEMA}.set_context(tenant => 't1', session_id => 's1', agent_kind => %s)"
GRANT_REFUSAL = "permission denied for function"
# require_kind's words, and require_writer's for a kind that only reads.
KIND_REFUSALS = re.compile(r"is not allowed for agent kind|^agent kind \S+ reads and \S+ nothing")


def _refusal(error: psycopg.Error | None) -> str | None:
    """Which wall refused a call: the grant, the kind check, or neither (None)."""
    if error is None or error.sqlstate != "42501":
        return None
    message = error.diag.message_primary or ""
    if GRANT_REFUSAL in message:
        return "grant"
    if KIND_REFUSALS.search(message):
        return "kind"
    return None


# Every attempt is rolled back, so the matrix's calls share one database (module_db).
def _attempt(conn: psycopg.Connection, kind: str, sql: str, *params: Any) -> str | None:
    try:
        with conn.transaction(force_rollback=True):
            conn.execute(CONTEXT, (kind,))
            conn.execute(sql, params)
    except psycopg.Error as error:
        assert not (error.sqlstate or "").startswith(("23", "XX")), (sql, kind, error)
        return _refusal(error)
    return None


def test_the_documented_matrix_is_the_grants(module_db: Database) -> None:
    with module_db.admin() as admin:
        kinds = role_matrix.kinds_of(admin)
        generated = role_matrix.render(kinds, role_matrix.matrix_rows(admin))
    assert sorted(kinds) == sorted(KINDS)  # the test logins cover every kind
    assert role_matrix.documented(f"{role_matrix.BEGIN}\n{generated}\n{role_matrix.END}") == (
        role_matrix.documented()
    ), "docs/role-matrix.md is stale: run `make schema` and commit it"


@pytest.fixture
def matrix() -> dict[str, list[str]]:
    kinds, rows = role_matrix.documented()
    assert sorted(kinds) == sorted(KINDS)
    return rows


def test_every_function_as_every_kind_is_allowed_or_refused_as_documented(
    module_db: Database, matrix: dict[str, list[str]]
) -> None:
    with module_db.connect("app") as conn:
        calls = conn.execute(CALLS).fetchall()
    assert len(calls) > 80
    problems = []
    connections = {login: module_db.connect(login) for login in (*KINDS, "app")}
    try:
        for name, signature, call in calls:
            allowed = matrix[f"`{name}()`"]
            for kind in KINDS:
                # The one-kind login meets the grant, the every-kind login the kind check
                # (a DBA's function, granted to no kind, the grant on both).
                for login, wall in ((kind, "grant"), ("app", "kind" if allowed else "grant")):
                    refused = _attempt(connections[login], kind, call)
                    expected = None if kind in allowed else wall
                    if refused != expected:
                        problems.append(f"{signature} as {kind} on {login}: {refused}")
    finally:
        for conn in connections.values():
            conn.close()
    assert problems == [], "\n".join(problems)


def test_every_tool_as_every_kind_is_allowed_or_refused_as_documented(
    module_db: Database, matrix: dict[str, list[str]]
) -> None:
    with module_db.connect("app") as conn:
        tools = [r[0] for r in conn.execute(f"SELECT name FROM {SCHEMA}_internal.tools")]
    assert len(tools) > 20
    # Arguments a call of each tool accepts (test_tool_schemas's first sample that needs no
    # earlier result), so that the refusal met is the kind's, not the arguments'.
    arguments: dict[str, dict[str, Any]] = {}
    for name, _kind, args in SAMPLES:
        if not any(isinstance(v, Last) for v in args.values()):
            arguments.setdefault(name, args)
    problems = []
    connections = {login: module_db.connect(login) for login in (*KINDS, "app")}
    try:
        for tool in tools:
            allowed = matrix[f"tool `{tool}`"]
            for kind in KINDS:
                for login in (kind, "app"):
                    refused = _attempt(
                        connections[login],
                        kind,
                        f"SELECT {SCHEMA}.call_tool(%s, %s, %s)",
                        tool,
                        Jsonb(arguments.get(tool, {})),
                        Jsonb({"tenant": "t1", "session_id": "s1", "agent_kind": kind}),
                    )
                    if (refused is None) != (kind in allowed):
                        problems.append(f"tool {tool} as {kind} on {login}: {refused}")
    finally:
        for conn in connections.values():
            conn.close()
    assert problems == [], "\n".join(problems)


def test_a_call_the_matrix_denies_is_refused_before_it_writes(db: Database) -> None:
    """A refusal is not a half-done write: a task agent's purge of tombstones, refused on
    either wall, leaves the tombstone in place."""
    with db.connect("app") as conn, conn.transaction():
        conn.execute(CONTEXT, ("agent",))
        conn.execute(f"SELECT {SCHEMA}.store_fact('doomed', '1', shared => true)")
        conn.execute(f"SELECT {SCHEMA}.delete_fact('doomed', shared => true)")
    for login in ("agent", "app"):
        with db.connect(login) as conn:
            assert _attempt(conn, "agent", f"SELECT {SCHEMA}.purge_tombstones_before(now())")
    with db.admin() as admin:
        row = admin.execute(
            f"SELECT count(*) FROM {SCHEMA}_internal.facts WHERE key = 'doomed' "
            "AND deleted_at IS NOT NULL"
        ).fetchone()
    assert row == (1,)
