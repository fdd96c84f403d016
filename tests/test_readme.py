"""The README's Python snippets run as printed, in order, and answer what their comments say."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import Database

README = Path(__file__).resolve().parent.parent / "README.md"
FENCE = re.compile(r"```python\n(.*?)```", re.DOTALL)


def test_the_readme_python_snippets_run_and_show_what_they_say(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = FENCE.findall(README.read_text())
    assert len(blocks) == 4  # working memory, knowledge, retrieval, installing
    monkeypatch.setenv("PGFACTS_DSN", db.dsn("app"))
    namespace: dict[str, Any] = {}
    for block in blocks:
        # The install snippet's placeholder DSN is this test's database (as its owner).
        block = block.replace('"postgresql://..."', repr(db.admin_dsn_of_database()))
        exec(compile(block, str(README), "exec"), namespace)
    assert namespace["draft"].value == {"words": 420}
    k, anna = namespace["k"], namespace["anna"]
    assert [c.object_value for c in k.as_of(anna, "lives_in", valid_at="2026-04-01")] == ["Kyiv"]
    now = k.search("where does Anna live now?")
    assert "Lviv" in now[0].content and now[0].current is True
    assert all("Kyiv" not in hit.content for hit in now if hit.current)
    before = k.search("where did Anna live before?")
    past = [hit for hit in before if "Kyiv" in hit.content]
    assert past and past[0].current is False
    assert any("Lviv" in hit.content for hit in before)


PYTHON_DOC = README.parent / "docs" / "python.md"


def test_the_python_doc_snippets_run(
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    blocks = FENCE.findall(PYTHON_DOC.read_text())
    assert len(blocks) == 6  # the two surfaces, typed rows, async, bulk, LangGraph, rerank
    monkeypatch.setenv("PGFACTS_DSN", db.dsn("app"))
    monkeypatch.chdir(tmp_path)  # the bulk snippet writes its files where it runs
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, str(PYTHON_DOC), "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("shared:notes/deploy True 1.6")  # a lone hit: z 0 + tie term
    assert printed[1] == "shared:notes/deploy"
    assert printed[2] == "Kyiv 2026-01-01 None"
    assert printed[3].startswith("[('notes/a', 1), ")
    assert printed[5] == "1 1 ['']"  # after the async block's two lines: bulk writes
    assert printed[6:11] == [  # the LangGraph store
        "{'n': 1, 'text': 'likes green tea'}",
        "['m2']",
        "m1",
        "[('users', 'u/1', 'memories')]",
        "langgraph/users/u~2F1/memories/m1",
    ]
    assert printed[11:] == ["notes/charts True"]  # reranking: the same hits, re-ordered
    assert json.loads((tmp_path / "harvest.failed.json").read_text())[0]["key"] == ""
