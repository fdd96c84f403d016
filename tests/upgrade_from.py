"""Upgrade an install of an earlier release to this checkout and compare it with a fresh one.

``python -m tests.upgrade_from REV`` (``make upgrade-check FROM=REV``) takes the migrations
and definitions of git revision REV, installs them in a scratch database, migrates it with
this checkout, and diffs its schema file (``tests.catalog.render``) against a fresh
install's. The test suite's upgrade test walks the migrations one by one without the
definitions of each release; this one starts from what a user of REV really has: old
functions, old grants and ledger rows included.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

import psycopg

from pgfacts import migrate

from .catalog import (
    SCHEMA,
    build_sample_projection,
    current_schema_text,
    render,
    scratch_install,
    snapshot,
)

REPO = Path(__file__).resolve().parent.parent


def release_files(rev: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", rev, "migrations", "sql"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def upgraded_schema_text(rev: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        release_files(rev, Path(tmp))
        with scratch_install(SCHEMA, install=False) as dsn:
            migrate(
                dsn,
                SCHEMA,
                migrations_dir=Path(tmp) / "migrations",
                definitions_dir=Path(tmp) / "sql",
            )
            migrate(dsn, SCHEMA)
            build_sample_projection(dsn, SCHEMA)
            with psycopg.connect(dsn) as conn:
                row = conn.execute("SELECT current_user").fetchone()
            assert row is not None
            return render(snapshot(dsn, SCHEMA), str(row[0]))


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: python -m tests.upgrade_from GIT-REV", file=sys.stderr)
        return 2
    upgraded = upgraded_schema_text(sys.argv[1])
    fresh = current_schema_text()
    diff = list(
        difflib.unified_diff(
            fresh.splitlines(),
            upgraded.splitlines(),
            "fresh install",
            f"upgraded from {sys.argv[1]}",
            lineterm="",
        )
    )
    print("\n".join(diff) if diff else f"upgraded from {sys.argv[1]} equals a fresh install")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
