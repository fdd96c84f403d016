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
