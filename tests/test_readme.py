"""The README's Python snippets run as printed, in order, and answer what their comments say."""

from __future__ import annotations

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
    k, anna = namespace["k"], namespace["anna"]
    assert [c["object_value"] for c in k.as_of(anna, "lives_in", valid_at="2026-04-01")] == ["Kyiv"]
    now = k.search("where does Anna live now?")
    assert "Lviv" in now[0]["content"] and now[0]["current"] is True
    assert all("Kyiv" not in hit["content"] for hit in now if hit["current"])
    before = k.search("where did Anna live before?")
    past = [hit for hit in before if "Kyiv" in hit["content"]]
    assert past and past[0]["current"] is False
    assert any("Lviv" in hit["content"] for hit in before)
