"""tests/lint_layers.py: a layer's SQL names nothing a later layer defines."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import lint_layers


@pytest.fixture(autouse=True)
def nothing_allowed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The made-up trees below need none of the checkout's allow-entries."""
    if "tmp_path" in request.fixturenames:
        monkeypatch.setattr(lint_layers, "ALLOWED", {})


def tree(root: Path, files: dict[str, str]) -> tuple[Path, Path]:
    """sql/ and migrations/ folders holding files (paths relative to root)."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "migrations").mkdir(exist_ok=True)
    return root / "sql", root / "migrations"


def function(name: str, body: str) -> str:
    return (
        f"CREATE OR REPLACE FUNCTION @schema@_internal.{name}() RETURNS int\n"
        f"LANGUAGE plpgsql AS $fn$\nBEGIN\n{body}\nEND\n$fn$;\n"
    )


def test_the_checkout_keeps_its_layers_in_order() -> None:
    assert lint_layers.check() == []


def test_a_function_naming_a_later_layers_function_is_reported(tmp_path: Path) -> None:
    sql, migrations = tree(
        tmp_path,
        {
            "sql/00_base/10_a.sql": function(
                "early",
                "    -- a comment may name @schema@_internal.late freely\n"
                "    RETURN @schema@_internal.late();",
            ),
            "sql/10_next/10_b.sql": function("late", "    RETURN @schema@_internal.early();"),
        },
    )
    assert lint_layers.check(sql, migrations) == [
        "sql/00_base/10_a.sql:5: @schema@_internal.early (00_base) names "
        "@schema@_internal.late, first defined in 10_next (sql/10_next/10_b.sql)"
    ]


def test_a_function_naming_a_later_layers_table_is_reported(tmp_path: Path) -> None:
    sql, migrations = tree(
        tmp_path,
        {
            "sql/00_base/10_a.sql": function(
                "early", "    RETURN (SELECT count(*) FROM @schema@_internal.later_rows);"
            ),
            "sql/10_next/10_b.sql": "SELECT 1;\n",
            "migrations/0040_next_rows.sql": "-- Rows of the next layer.\n-- Layer: 10_next\n\n"
            "CREATE TABLE @schema@_internal.later_rows (tenant text);\n",
        },
    )
    assert lint_layers.check(sql, migrations) == [
        "sql/00_base/10_a.sql:4: @schema@_internal.early (00_base) names "
        "@schema@_internal.later_rows, first defined in 10_next "
        "(migrations/0040_next_rows.sql)"
    ]


@pytest.mark.parametrize(
    ("header", "problem"),
    [
        (
            "-- Rows.\n",
            "migration 0040_rows.sql creates @schema@_internal.rows but says no layer: start "
            "it with a comment line '-- Layer: NN_name'",
        ),
        (
            "-- Rows.\n-- Layer: 20_nowhere\n",
            "migration 0040_rows.sql: '-- Layer:' must name one of ['00_base']",
        ),
    ],
)
def test_a_new_migration_that_creates_objects_names_its_layer(
    tmp_path: Path, header: str, problem: str
) -> None:
    sql, migrations = tree(
        tmp_path,
        {
            "sql/00_base/10_a.sql": "SELECT 1;\n",
            "migrations/0040_rows.sql": header + "CREATE TABLE @schema@_internal.rows (a int);\n",
        },
    )
    assert lint_layers.check(sql, migrations) == [problem]


def test_an_allow_entry_no_reference_needs_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sql, migrations = tree(tmp_path, {"sql/00_base/10_a.sql": function("a", "    RETURN 1;")})
    monkeypatch.setattr(lint_layers, "ALLOWED", {("@schema@_internal.a", "@schema@.x"): "why"})
    assert lint_layers.check(sql, migrations) == [
        "ALLOWED lists @schema@_internal.a naming @schema@.x, which no longer happens: remove it"
    ]
