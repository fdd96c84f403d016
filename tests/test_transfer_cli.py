"""pgfacts export and pgfacts import through the CLI runner against the real server, as the
README's "Moving a tenant" runs them: export to a file, import elsewhere with a progress
bar and a summary, the same bytes exported again; a refusal printed as its SQLSTATE,
message and hint with exit 1; rejected lines with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from pgfacts.cli import app

from .conftest import Database
from .support.caller import Caller


def pgfacts(db: Database, *args: str) -> Result:
    return CliRunner().invoke(app, [*args, "--dsn", db.dsn()])


def test_a_tenant_moves_with_two_commands(db: Database, tmp_path: Path) -> None:
    op = Caller(db, tenant="old", kind="operator", session="s1")
    op.fact("notes/a", "first", shared=True)
    op.fact("notes/a", "second", shared=True)
    op.fact("notes/b", {"n": 1}, shared=False)
    dump = tmp_path / "old.jsonl"

    exported = pgfacts(db, "export", "--tenant", "old", "--out", str(dump))
    assert exported.exit_code == 0, exported.output
    assert "exported tenant old" in exported.stderr

    imported = pgfacts(db, "import", str(dump), "--tenant", "new", "--batch-size", "2")
    assert imported.exit_code == 0, imported.output
    lines = len(dump.read_text().splitlines())
    assert f"{lines}/{lines}" in imported.stderr  # the progress bar
    assert "lossless" in imported.stdout and f"{lines} of {lines}" in imported.stdout

    again = pgfacts(db, "export", "--tenant", "new")
    assert again.exit_code == 0
    assert again.stdout_bytes == dump.read_bytes()

    refused = pgfacts(db, "import", str(dump), "--tenant", "new")
    assert refused.exit_code == 1
    assert "error PT001: a pgfacts export is restored into an empty tenant only" in (refused.stderr)
    assert "hint: import it under a new tenant name" in refused.stderr


def test_plain_import_reports_rejects_and_exits_2(db: Database, tmp_path: Path) -> None:
    source = tmp_path / "facts.jsonl"
    source.write_text(
        json.dumps({"type": "fact", "key": "a", "value": 1, "shared": True})
        + "\n"
        + json.dumps({"type": "fact", "key": "", "value": 1, "shared": True})
        + "\n"
    )
    result = pgfacts(db, "import", str(source), "--tenant", "plain", "--json")
    assert result.exit_code == 2, result.output
    answer = json.loads(result.stdout)
    assert (answer["inserted"], answer["rejected"]) == (1, 1)
    rejects = Path(answer["rejects_file"])
    assert rejects == tmp_path / "facts.jsonl.rejects.jsonl"
    assert json.loads(rejects.read_text())["_error"]["reason"] == "bad_key"


def test_errors_print_their_sqlstate(db: Database, tmp_path: Path) -> None:
    nothing_open = pgfacts(db, "import", "--abandon", "--tenant", "quiet")
    assert nothing_open.exit_code == 1
    assert "error P0002: no import into this tenant is open" in nothing_open.stderr

    missing = pgfacts(db, "import", str(tmp_path / "nope.jsonl"), "--tenant", "quiet")
    assert missing.exit_code == 1 and "no such file" in missing.stderr

    no_tenant = CliRunner(env={"PGFACTS_TENANT": ""}).invoke(app, ["export", "--dsn", db.dsn()])
    assert no_tenant.exit_code == 1 and "no tenant" in no_tenant.stderr
