"""agent_prompt / `pgfacts prompt`: the memory section of a system prompt follows what the
caller can do: its kind's tools (a tuner is told it only reads), the tenant's embedding model
(search by meaning), and without skill search a capped slice of the skills it may read."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from psycopg.types.json import Jsonb

from .conftest import KINDS, Database
from .support.caller import Caller, raises


def prompt(c: Caller, max_skills: int = 5) -> str:
    return c.one("SELECT pgfacts.agent_prompt(%s)", max_skills)  # type: ignore[no-any-return]


def tools_of(c: Caller) -> set[str]:
    definitions = c.one("SELECT pgfacts.tool_definitions()")
    return {d["name"] for d in definitions if c.kind in d["kinds"]}


@pytest.mark.parametrize("kind", KINDS)
def test_the_prompt_names_only_tools_the_kind_may_call(db: Database, kind: str) -> None:
    c = Caller(db, kind=kind, session="s1")
    text = prompt(c)
    named = set(re.findall(r"`([a-z_]+)`", text)) - {"key_pattern", "session_id", "scopeKeys"}
    assert text.startswith("## Memory\n") and named <= tools_of(c), named - tools_of(c)
    writes = "store_fact" in tools_of(c)
    assert ("`store_fact` keeps a fact in your session" in text) is writes
    assert ("You read memory but do not write it" in text) is (not writes)
    assert ("`search_skills`" in text) is ("search_skills" in tools_of(c))


def test_search_by_meaning_only_with_an_embedding_model(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1")
    assert "by their words" in prompt(agent) and "by meaning" not in prompt(agent)
    Caller(db, kind="operator").one("SELECT pgfacts.register_embedding_model('m', 384)")
    assert "by meaning as well as by words" in prompt(agent)
    other = Caller(db, tenant="t2", kind="agent", session="s1")
    assert "by their words" in prompt(other)  # another tenant's model changes nothing here


def test_without_skill_search_a_capped_slice_of_readable_skills_is_pushed(db: Database) -> None:
    writer = Caller(db, kind="facts_manager", session="s1")  # the curator of skills/
    for n in range(8):
        value = Jsonb({"name": f"skill {n}", "description": f"how to do thing {n}"})
        writer.one("SELECT pgfacts.store_fact(%s, %s, shared => true)", f"skills/s{n}", value)
    writer.one(
        "SELECT pgfacts.store_fact('skills/plain', '\"a plain text skill\"', shared => true)"
    )
    writer.one("SELECT pgfacts.store_fact('skills/mine', '\"not shared\"')")
    manager = Caller(db, kind="facts_manager", session="s2")  # no search_skills
    text = prompt(manager, 3)
    section = text.split("### Skills\n\n", 1)[1].splitlines()
    assert section == [  # the three updated last (read_facts' order), by key
        "- `skills/plain`: a plain text skill",
        "- `skills/s6`: how to do thing 6",
        "- `skills/s7`: how to do thing 7",
    ]
    assert "### Skills" not in prompt(manager, 0)
    agent = Caller(db, kind="agent", session="s1")
    assert "### Skills" not in prompt(agent)  # search_skills instead of the push
    for bad in (-1, 51):
        raises("22023", manager.one, "SELECT pgfacts.agent_prompt(%s)", bad)


def test_the_cli_prints_the_callers_prompt(db: Database) -> None:
    caller = Caller(db, kind="tuner", session="s1")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pgfacts",
            "prompt",
            "--tenant",
            "t1",
            "--kind",
            "tuner",
            "--session",
            "s1",
        ],
        env={**os.environ, "PGFACTS_DSN": db.dsn("app")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == prompt(caller)
