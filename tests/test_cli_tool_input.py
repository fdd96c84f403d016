"""``pgfacts tool NAME -`` and ``@FILE``: arguments from standard input or a file, for values
over the kernel's limit on one command-line argument (about 2 MB)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from psycopg.types.json import Jsonb

from .conftest import Database

CLI = [sys.executable, "-m", "pgfacts", "tool"]
BIG = 3 * 1024 * 1024  # over the ~2 MB a single argument may hold


def tool(
    db: Database, name: str, args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, name, args, "--dsn", db.dsn("agent"), "--tenant", "acme", "--session", "s1"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_value_over_the_argument_limit_goes_through_standard_input(db: Database) -> None:
    with db.connect("operator") as conn:  # the default cap is 1 MB; one transaction
        conn.execute("SELECT pgfacts.set_context(tenant => 'acme', agent_kind => 'operator')")
        conn.execute("SELECT pgfacts.set_setting('value_max_bytes', %s)", (Jsonb(4 * BIG),))
    value = "x" * BIG
    stored = tool(db, "store_fact", "-", stdin=json.dumps({"key": "big", "value": value}))
    assert stored.returncode == 0, stored.stderr
    assert json.loads(stored.stdout)["stored"] is True
    with db.connect("agent") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 'acme', session_id => 's1')")
        row = conn.execute(
            "SELECT length(value #>> '{}') FROM pgfacts.read_facts(key_pattern => 'big')"
        ).fetchone()
    assert row == (BIG,)


def test_arguments_from_a_file(db: Database, tmp_path: Path) -> None:
    args = tmp_path / "args.json"
    args.write_text(json.dumps({"key": "from-file", "value": {"n": 1}}))
    stored = tool(db, "store_fact", f"@{args}")
    assert stored.returncode == 0, stored.stderr
    read = tool(db, "read_facts", "-", stdin='{"key_pattern": "from-*"}')
    assert read.returncode == 0, read.stderr
    assert [f["value"] for f in json.loads(read.stdout)["facts"]] == [{"n": 1}]


def test_a_missing_file_is_a_clear_22023_error(db: Database, tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    result = tool(db, "store_fact", f"@{missing}")
    assert result.returncode == 1 and result.stdout == ""
    error = json.loads(result.stderr)
    assert error["code"] == "22023"
    assert str(missing) in error["message"] and "No such file" in error["message"]


def test_standard_input_that_is_not_json_is_22023(db: Database) -> None:
    result = tool(db, "store_fact", "-", stdin="{oops")
    assert result.returncode == 1
    assert json.loads(result.stderr)["code"] == "22023"
