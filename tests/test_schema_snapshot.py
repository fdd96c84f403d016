"""schema/pgfacts.sql is the installed schema of this checkout (``make schema`` writes it)."""

from __future__ import annotations

import difflib

from .catalog import SCHEMA_FILE, current_schema_text


def test_the_committed_schema_file_is_current() -> None:
    current = current_schema_text()
    committed = SCHEMA_FILE.read_text() if SCHEMA_FILE.exists() else ""
    if committed != current:
        diff = "".join(
            list(
                difflib.unified_diff(
                    committed.splitlines(keepends=True),
                    current.splitlines(keepends=True),
                    "schema/pgfacts.sql (committed)",
                    "fresh install",
                )
            )[:60]
        )
        raise AssertionError(
            "schema/pgfacts.sql is stale: run `make schema` and commit the file.\n" + diff
        )


def test_the_schema_file_is_deterministic() -> None:
    assert current_schema_text() == current_schema_text()
