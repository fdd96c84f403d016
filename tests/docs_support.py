"""The SQL examples of docs/: every fenced ```sql block, and one block found by its opening
line (tests that run a DBA snippet exactly as the docs print it)."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(r"```sql\n(.*?)```", re.DOTALL)


def sql_examples(path: Path) -> list[str]:
    return FENCE.findall(path.read_text())


def snippet(doc: str, opening: str) -> str:
    """The one SQL block of docs/<doc> that starts with ``opening``."""
    blocks = [block for block in sql_examples(DOCS / doc) if block.startswith(opening)]
    assert len(blocks) == 1, f"{doc}: {len(blocks)} blocks start with {opening!r}"
    return blocks[0]
