"""Every SQL example in docs/ runs, and fails only where the docs say it fails.

A block starting with ``-- as superuser`` is a DBA's snippet: it runs as the superuser in
a transaction that is rolled back (roles are cluster-wide). Every other block runs as a
non-superuser login holding every agent kind.
"""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest

from .conftest import Database
from .docs_support import DOCS, sql_examples

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
                conn.execute(example.encode())
