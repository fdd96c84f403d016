"""The agent loops in examples/ run offline, as a reader runs them (a subprocess with
PGFACTS_DSN), against a fresh database through a login that holds only the agent kind: the
tools offered in each provider's format, each call through call_tool, a refused call read
back by the model and corrected."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Database

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    ("example", "refusal", "answer"),
    [
        ("agent_loop_openai.py", '"code": "22023"', "assistant: You use vim; I will remember it."),
        (
            "agent_loop_anthropic.py",
            "unknown scope 'everything'",
            "assistant: We chose postgres 17.",
        ),
    ],
)
def test_an_agent_loop_runs_offline(db: Database, example: str, refusal: str, answer: str) -> None:
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / example)],
        env={**os.environ, "PGFACTS_DSN": db.dsn("agent")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert [line.split(":", 1)[0] for line in lines] == [
        "tool store_fact",
        "tool read_facts",
        "tool read_facts",
        "assistant",
    ]
    assert '"stored": true' in lines[0]
    assert refusal in lines[1]
    assert '"count": 1' in lines[2]
    assert lines[3] == answer
    with db.admin() as admin:  # what the loop stored is in the database, one row
        assert admin.execute("SELECT count(*) FROM pgfacts_internal.facts").fetchone() == (1,)


def test_an_mcp_host_session_runs_offline(db: Database) -> None:
    """examples/mcp_host_session.py: the SDK's stdio client starts ``pgfacts mcp`` from the
    README's entry (flags and environment), one server process for the whole session."""
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "mcp_host_session.py"), "--tenant", "acme"],
        env={**os.environ, "PGFACTS_DSN": db.dsn("agent"), "PGFACTS_SESSION": "desktop"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    lines = dict(line.split(": ", 1) for line in run.stdout.splitlines())
    assert list(lines) == [
        "host entry",
        "initialize",
        "tools",
        "prompts",
        "resources",
        "call store_fact",
        "call read_facts",
        "call facts_search",
        "call read_facts refused (isError)",
    ]
    entry = json.loads(lines["host entry"])
    assert entry["args"] == ["mcp", "--tenant", "acme", "--kind", "agent"]
    tools = lines["tools"].split()
    # The agent kind's tools: working memory and search, not the crawl queue.
    assert {"store_fact", "read_facts", "facts_search", "graph_neighbourhood"} <= set(tools)
    assert "facts_read_uncrawled" not in tools and "delete_session" not in tools
    assert lines["prompts"] == "memory"
    assert json.loads(lines["call store_fact"])["stored"] is True
    [fact] = json.loads(lines["call read_facts"])  # read back as stored, in the session
    assert (fact["key"], fact["value"]) == ("user/editor", {"name": "vim", "since": 2019})
    assert fact["sessionId"] == "desktop"
    assert [hit["key"] for hit in json.loads(lines["call facts_search"])] == ["user/editor"]
    assert json.loads(lines["call read_facts refused (isError)"]) == {
        "sqlstate": "22023",
        "message": "read_facts takes scopeKeys alone (with limit), not with tags",
        "hint": "read by scopeKeys, or by the filters",
    }
    with db.admin() as admin:  # stored through the server, in its tenant and session
        assert admin.execute(
            "SELECT tenant, session_id, key, value FROM pgfacts_internal.facts"
        ).fetchall() == [("acme", "desktop", "user/editor", {"name": "vim", "since": 2019})]
