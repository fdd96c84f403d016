"""Defensive JSON decoding for everything the database returns.

The database refuses values nested over 64 levels (``fact_problem``: ``value_too_deep``),
but a value stored before that cap, or written by raw SQL, can still be deeper than
Python's recursion limit, and ``json.loads`` would then raise ``RecursionError`` for every
read that returns it. ``loads`` decodes such a document anyway: each array or object
nested deeper than ``MAX_DEPTH`` arrives as its JSON text (a ``str``), everything above it
as usual. Nothing else changes, and the fast path is ``json.loads`` itself.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 64  # the database's own limit: sql/10_memory/40_store.sql (fact_problem)


def loads(data: str | bytes | bytearray | memoryview) -> Any:
    """``json.loads`` that never raises ``RecursionError`` on deeply nested input."""
    try:
        return json.loads(data if not isinstance(data, memoryview) else bytes(data))
    except RecursionError:
        text = bytes(data).decode() if not isinstance(data, str) else data
        return json.loads(cut_deep(text, MAX_DEPTH))


def cut_deep(text: str, max_depth: int) -> str:
    """``text`` with every container nested deeper than ``max_depth`` replaced by a JSON
    string holding its text. One pass, no recursion (``text`` must be valid JSON)."""
    out: list[str] = []
    depth = 0
    start = 0  # where the pending, already copied, part of text begins
    cut_at = -1  # where the container being cut opened
    in_string = False
    escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth == max_depth + 1:
                cut_at = i
        elif ch in "]}":
            if depth == max_depth + 1:
                out.append(text[start:cut_at])
                out.append(json.dumps(text[cut_at : i + 1]))
                start = i + 1
            depth -= 1
    out.append(text[start:])
    return "".join(out)
