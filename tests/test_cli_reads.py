"""The DBA's read commands through the CLI runner against the real server: each prints what
its one API call answers (a table, --json, --nl), as the caller the flags name, and an
error as its SQLSTATE, message and hint with exit 1."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from pgfacts.cli import app

from .conftest import Database
from .support.caller import Caller
from .support.knowledge import lives, person


def pgfacts(db: Database, *args: str, login: str = "app", tenant: str = "k1") -> Any:
    runner = CliRunner()
    return runner.invoke(app, [*args, "--dsn", db.dsn(login), "--tenant", tenant])


def lines(output: str) -> list[Any]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_history_as_of_explain_and_changes_print_the_api_answers(k: Caller, db: Database) -> None:
    anna = person(k, "Anna")
    since = k.now()
    k.ingest("note-1", [lives(anna, "Kyiv", "2026-01-01")])
    k.ingest("note-2", [lives(anna, "Lviv", "2026-03-01")])

    history = pgfacts(db, "history", str(anna), "lives_in", "--json")
    assert history.exit_code == 0, history.output
    rows = json.loads(history.stdout)
    assert sorted(r["object_value"] for r in rows) == ["Kyiv", "Kyiv", "Lviv"]
    assert len(rows) == len(k.history(anna, "lives_in"))  # the same rows claim_history gives

    as_lines = pgfacts(db, "as-of", str(anna), "lives_in", "--valid-at", "2026-02-01", "--nl")
    assert as_lines.exit_code == 0, as_lines.output
    (row,) = lines(as_lines.stdout)
    assert row["object_value"] == "Kyiv"

    table = pgfacts(db, "history", str(anna), "lives_in")
    assert table.exit_code == 0 and "Lviv" in table.stdout and "history of" in table.stdout

    claim_id = rows[0]["claim_id"]
    explained = pgfacts(db, "explain", str(claim_id), "--json")
    assert explained.exit_code == 0, explained.output
    assert json.loads(explained.stdout) == k.one("SELECT pgfacts.explain_claim(%s)", claim_id)

    changes = pgfacts(db, "changes", "--since", since.isoformat(), "--nl")
    assert changes.exit_code == 0, changes.output
    assert {c["claim_id"] for c in lines(changes.stdout)} >= {r["claim_id"] for r in rows}


def test_search_and_stats_read_as_the_caller(db: Database) -> None:
    manager = Caller(db, tenant="k1", kind="facts_manager")
    manager("store_fact", {"key": "ops/deploy", "value": "deploy with blue green", "shared": True})
    owner = Caller(db, tenant="k1", session="s9")
    owner("store_fact", {"key": "notes/private", "value": "blue green secret"})

    tuner = pgfacts(db, "search", "blue green", "--nl")  # the tuner by default: every session
    assert tuner.exit_code == 0, tuner.output
    assert {h["ref"] for h in lines(tuner.stdout)} >= {
        "shared:ops/deploy",
        "session:s9:notes/private",
    }
    agent = pgfacts(db, "search", "blue green", "--kind", "agent", "--session", "other", "--nl")
    assert agent.exit_code == 0, agent.output
    assert [h["ref"] for h in lines(agent.stdout)] == ["shared:ops/deploy"]  # not s9's note

    stats = pgfacts(db, "stats", "--json")
    assert stats.exit_code == 0, stats.output
    assert json.loads(stats.stdout) == manager.one("SELECT pgfacts.facts_stats()")
    assert pgfacts(db, "stats").exit_code == 0


def test_sessions_draws_the_spawn_tree(db: Database) -> None:
    root = Caller(db, tenant="k1", session="plan")
    root("store_fact", {"key": "x", "value": 1})
    Caller(db, tenant="k1", session="work-a", parent="plan")("store_fact", {"key": "x", "value": 1})
    Caller(db, tenant="k1", session="deep", parent="work-a")("store_fact", {"key": "x", "value": 1})
    drawn = pgfacts(db, "sessions", "deep")
    assert drawn.exit_code == 0, drawn.output
    shown = [line.strip("│├└─ ") for line in drawn.stdout.splitlines()]
    assert [s.split()[0] for s in shown if s] == ["plan", "work-a", "deep"]
    assert drawn.stdout.index("work-a") < drawn.stdout.index("deep")
    rows = json.loads(pgfacts(db, "sessions", "plan", "--json").stdout)
    assert [(r["tree_session_id"], r["depth"]) for r in rows] == [
        ("plan", 0),
        ("work-a", 1),
        ("deep", 2),
    ]


def test_audit_lists_the_changes_with_their_filters(db: Database) -> None:
    writer = Caller(db, tenant="k1", session="s1", agent="bot-1")
    writer("store_fact", {"key": "notes/a", "value": 1})
    writer("store_fact", {"key": "notes/b", "value": 2})
    listed = pgfacts(db, "audit", "--operation", "store", "--nl")
    assert listed.exit_code == 0, listed.output
    rows = lines(listed.stdout)
    assert {r["audit_target"] for r in rows} == {"session:s1:notes/a", "session:s1:notes/b"}
    assert {r["audit_agent_id"] for r in rows} == {"bot-1"}
    one = pgfacts(db, "audit", "--target", "session:s1:notes/b", "--json")
    assert [r["audit_target"] for r in json.loads(one.stdout)] == ["session:s1:notes/b"]
    assert pgfacts(db, "audit").exit_code == 0  # the table
    refused = pgfacts(db, "audit", "--kind", "agent", "--session", "s1")
    assert refused.exit_code == 1 and "error 42501:" in refused.stderr  # task agents may not


@pytest.mark.parametrize(
    ("args", "sqlstate"),
    [
        (["explain", "999999"], "P0002"),
        (["sessions", "has:colon"], "22023"),
        (["changes", "--since", "not a time"], "22007"),
        (["search", "x", "--limit", "0"], "22023"),
        (["stats", "--kind", "agent"], "42501"),  # facts_stats is not an agent's
    ],
)
def test_errors_print_sqlstate_message_and_hint_and_exit_1(
    db: Database, args: list[str], sqlstate: str
) -> None:
    human = pgfacts(db, *args)
    assert human.exit_code == 1
    assert f"error {sqlstate}:" in human.stderr, human.stderr
    machine = pgfacts(db, *args, "--json")
    assert machine.exit_code == 1 and machine.stdout == ""
    assert json.loads(machine.stderr)["code"] == sqlstate


def test_a_tenant_is_required_and_formats_exclude_each_other(db: Database) -> None:
    runner = CliRunner()
    missing = runner.invoke(app, ["stats", "--dsn", db.dsn()], env={"PGFACTS_TENANT": ""})
    assert missing.exit_code == 1 and "22023" in missing.stderr
    both = pgfacts(db, "stats", "--json", "--nl")
    assert both.exit_code == 1 and "exclude" in both.stderr
