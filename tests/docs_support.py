"""The SQL examples of docs/: every fenced ```sql block, and one block found by its opening
line (tests that run a DBA snippet exactly as the docs print it).

A block shows its result in a last line ``-- <JSON>``: the value its last statement returns
(one row, one column). In it ``...`` stands for what is not shown: ``[...]`` any value,
``, ...}`` any further members of an object, ``, ...]`` any further items of an array.
"""

from __future__ import annotations

import json
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


SHOWN_RESULT = re.compile(r"\n-- ([\[{].*)\n?\Z")
_ANY = "\0any"  # [...]: any value
_MORE = "\0more"  # ..., in an object or an array: more not shown


def shown_result(example: str) -> str | None:
    """The result a block shows in its last line, as printed; None when it shows none."""
    match = SHOWN_RESULT.search(example)
    return match.group(1) if match else None


def parse_shown(text: str) -> object:
    marked = text.replace("[...]", json.dumps(_ANY))
    marked = re.sub(r",\s*\.\.\.\s*}", lambda _: f", {json.dumps(_MORE)}: true}}", marked)
    marked = re.sub(r",\s*\.\.\.\s*]", lambda _: f", {json.dumps(_MORE)}]", marked)
    return json.loads(marked)


def matches_shown(shown: object, actual: object) -> bool:
    """Whether a result is what the docs show, ``...`` standing for anything not shown."""
    if shown == _ANY:
        return True
    if isinstance(shown, dict):
        more = shown.get(_MORE) is True
        keys = {key for key in shown if key != _MORE}
        if not isinstance(actual, dict) or not (keys <= actual.keys()):
            return False
        if not more and keys != actual.keys():
            return False
        return all(matches_shown(shown[key], actual[key]) for key in keys)
    if isinstance(shown, list):
        more = bool(shown) and shown[-1] == _MORE
        items = shown[:-1] if more else shown
        if not isinstance(actual, list) or len(actual) < len(items):
            return False
        if not more and len(actual) != len(items):
            return False
        return all(matches_shown(s, a) for s, a in zip(items, actual, strict=False))
    return shown == actual
