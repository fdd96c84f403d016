"""The agent loops in examples/ run offline, as a reader runs them (a subprocess with
PGFACTS_DSN), against a fresh database through a login that holds only the agent kind: the
tools offered in each provider's format, each call through call_tool, a refused call read
back by the model and corrected."""

from __future__ import annotations

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
