"""Every SQL example in docs/ runs, and fails only where the docs say it fails.

A block starting with ``-- as superuser`` is a DBA's snippet: it runs as the superuser in
a transaction that is rolled back (roles are cluster-wide). Every other block runs as a
non-superuser login holding every agent kind. A block that shows its result (a last line
``-- <JSON>``, docs_support.py) must return it.
"""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest

from .conftest import Database
from .docs_support import DOCS, matches_shown, parse_shown, shown_result, sql_examples

EXPECTED_ERROR = re.compile(r"^-- error: ([0-9A-Z]{5})")

DOC_FILES = [p for p in sorted(DOCS.glob("*.md")) if sql_examples(p)]


def _unclosed_sql_blocks(text: str) -> list[int]:
    """Lines opening a ```sql block before the previous block was closed (a lost fence makes
    the next block's prose part of an example)."""
    problems, open_at = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            if open_at is None:
                open_at = number
            elif line.strip() == "```":
                open_at = None
            else:
                problems.append(open_at)
                open_at = number
    return problems + ([open_at] if open_at is not None else [])


@pytest.mark.parametrize("doc", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_every_code_block_is_closed(doc: Path) -> None:
    assert _unclosed_sql_blocks(doc.read_text()) == [], doc.name


def test_the_fence_check_finds_a_lost_fence() -> None:
    assert _unclosed_sql_blocks("```sql\nSELECT 1;\n```\n\n```sql\nSELECT 2;\n## Next\n") == [5]
    assert _unclosed_sql_blocks("```sql\nSELECT 1;\n```sql\nSELECT 2;\n```\n") == [1]


@pytest.mark.parametrize("doc", DOC_FILES, ids=[p.name for p in DOC_FILES])
def test_sql_examples_run(db: Database, doc: Path) -> None:
    examples = sql_examples(doc)
    assert examples
    with db.connect("app", autocommit=True) as conn:
        for example in examples:
            expected = EXPECTED_ERROR.match(example)
            if example.startswith("-- as superuser"):
                with db.admin() as admin, admin.transaction(force_rollback=True):
                    admin.execute(example.encode())
            elif expected:
                with pytest.raises(psycopg.Error) as info:
                    conn.execute(example.encode())
                assert info.value.sqlstate == expected.group(1), example
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    conn.execute("ROLLBACK")
            else:
                cursor = conn.execute(example.encode())
                shown = shown_result(example)
                if shown is not None:
                    while cursor.nextset():  # the result of the last statement
                        pass
                    rows = cursor.fetchall()
                    assert len(rows) == 1 and len(rows[0]) == 1, (example, rows)
                    assert matches_shown(parse_shown(shown), rows[0][0]), (example, rows[0][0])
