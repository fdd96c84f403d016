"""Results are read by name, and their Python types are the SQL result columns.

Every SQL API function returning a table has a frozen dataclass in ``pgfacts.rows`` with
its result columns' names, order and types (checked here against the catalog), and the
store method of that function returns a list of it. No statement re-declares an API
function's result columns by position (``AS r (a, b, c)`` after the call), in SQL or in
the Python package: a column added to a function would silently rename every later one.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import psycopg
import pytest

from pgfacts import api, rows
from pgfacts.client import AsyncFactStore, FactStore

from .conftest import SCHEMA, with_db

ROOT = Path(__file__).resolve().parent.parent

# The Python annotation of each SQL type a result column has (rows.py adds `| None`
# where SQL may leave a column NULL).
PYTHON_TYPE = {
    "bigint": "int",
    "integer": "int",
    "real": "float",
    "double precision": "float",
    "text": "str",
    "text[]": "list[str]",
    "boolean": "bool",
    "jsonb": "JSON",
    "timestamp with time zone": "datetime",
    "uuid": "UUID",
}

RESULT_COLUMNS = f"""
SELECT p.proname, p.proretset,
       coalesce(array(SELECT a.name FROM unnest(p.proargnames, p.proargmodes)
                          WITH ORDINALITY AS a (name, mode, n)
                       WHERE a.mode = 't' ORDER BY a.n), '{{}}'),
       coalesce(array(SELECT format_type(a.type, NULL)
                        FROM unnest(p.proallargtypes, p.proargmodes)
                             WITH ORDINALITY AS a (type, mode, n)
                       WHERE a.mode = 't' ORDER BY a.n), '{{}}'),
       format_type(p.prorettype, NULL)
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = '{SCHEMA}' ORDER BY 1
"""


@pytest.fixture(scope="module")
def result_columns(server_dsn: str, template_db: str) -> dict[str, tuple]:  # type: ignore[type-arg]
    with psycopg.connect(with_db(server_dsn, template_db)) as conn:
        return {row[0]: row[1:] for row in conn.execute(RESULT_COLUMNS).fetchall()}


def test_every_table_function_has_a_row_class_with_its_columns(
    result_columns: dict[str, tuple],  # type: ignore[type-arg]
) -> None:
    problems = []
    for name, (returns_set, columns, types, _rettype) in result_columns.items():
        row = rows.ROW_OF_FUNCTION.get(name)
        if not columns:
            if row is not None:
                problems.append(f"{name} returns no table, but rows.py gives it {row.__name__}")
            continue
        if row is None:
            problems.append(f"{name} returns a table {columns}: no row class in rows.py")
            continue
        assert returns_set, name
        fields = dataclasses.fields(row)
        if [f.name for f in fields] != columns:
            problems.append(f"{row.__name__} fields {[f.name for f in fields]} != {name} {columns}")
            continue
        for field, sql_type in zip(fields, types, strict=True):
            annotation = str(field.type).removesuffix(" | None")
            if PYTHON_TYPE.get(sql_type) != annotation:
                problems.append(f"{row.__name__}.{field.name}: {field.type} for SQL {sql_type}")
        if not row.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            problems.append(f"{row.__name__} is not frozen")
    stale = sorted(set(rows.ROW_OF_FUNCTION) - set(result_columns))
    assert problems == [] and stale == [], (problems, stale)


def test_every_table_function_method_returns_its_rows(
    result_columns: dict[str, tuple],  # type: ignore[type-arg]
) -> None:
    for name, row in rows.ROW_OF_FUNCTION.items():
        assert inspect.signature(getattr(api, name)).return_annotation == (
            f"Call[list[{row.__name__}]]"
        ), name
        for store in (FactStore, AsyncFactStore):
            assert getattr(store, name).__wrapped__ is getattr(api, name), (store, name)
    # SETOF a scalar: the values themselves.
    assert result_columns["spawn_tree"][3] == "text"
    assert inspect.signature(api.spawn_tree).return_annotation == "Call[list[str]]"


def _calls_with_column_lists(text: str) -> list[str]:
    """Calls of an API function followed by a column alias list: ``<schema>.f(...) [WITH
    ORDINALITY] AS x (...)``. Parentheses are matched, so arguments may nest."""
    found = []
    for match in re.finditer(r"(?:@schema@|\{schema\}|\bpgfacts)\.(\w+)\(", text):
        depth, i = 1, match.end()
        while depth and i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        if re.match(r"\s*(WITH\s+ORDINALITY\s+)?AS\s+\w+\s*\(", text[i:], re.IGNORECASE):
            found.append(match.group(1))
    return found


def test_no_statement_reads_an_api_function_by_position() -> None:
    sources = [*sorted((ROOT / "sql").rglob("*.sql")), ROOT / "python" / "pgfacts" / "queries.py"]
    found = {
        str(path.relative_to(ROOT)): calls
        for path in sources
        if (calls := _calls_with_column_lists(path.read_text()))
    }
    assert found == {}


def test_the_check_finds_a_positional_column_list() -> None:
    assert _calls_with_column_lists(
        "FROM @schema@.search(query => q, limit => coalesce(x, 1)) WITH ORDINALITY AS s (a, b)"
    ) == ["search"]
    assert _calls_with_column_lists("FROM @schema@.search(q) WITH ORDINALITY AS s;") == []
