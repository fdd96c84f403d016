"""An agent loop with pgfacts' tools in the Anthropic Messages format, offline.

The model is scripted (no network, no SDK): ``ScriptedModel.respond`` answers each turn
with what a Messages response carries, ``content`` blocks of type ``tool_use`` and
``stop_reason`` "tool_use" while it works. The loop is the part an application writes:
offer the tools (``tools.anthropic`` over ``tool_definitions()``), run each ``tool_use``
through ``call_tool``, answer with one user message of ``tool_result`` blocks
(``is_error`` for a refusal, whose SQLSTATE, message and hint the model reads), and stop
at ``end_turn``.

    python examples/agent_loop_anthropic.py         # against the local runtime
    PGFACTS_DSN=postgresql://... python examples/agent_loop_anthropic.py
"""

from __future__ import annotations

import json
import sys
import uuid
from typing import Any

from pgfacts import Context, FactStore, PgfactsError, tools


class ScriptedModel:
    """Plays a model that shares a team decision, mistypes a scope, corrects it and answers."""

    def __init__(self) -> None:
        self.turn = 0

    def respond(self, messages: list[dict[str, Any]], offered: list[dict[str, Any]]) -> dict:
        assert {t["name"] for t in offered} >= {"store_fact", "read_facts"}
        self.turn += 1
        results = [b for b in messages[-1]["content"] if isinstance(b, dict)]
        # What it read decides what it does next: the example fails if pgfacts changes.
        if self.turn == 2:
            assert not results[0]["is_error"], results
        if self.turn == 3:
            refused = json.loads(results[0]["content"])
            assert results[0]["is_error"] and refused["code"] == "22023", results
        uses = {
            1: [("store_fact", {"key": "decisions/db", "value": "postgres 17", "shared": True})],
            2: [("read_facts", {"scope": "everything", "key_pattern": "decisions/*"})],
            3: [("read_facts", {"scope": "shared", "key_pattern": "decisions/*"})],
        }.get(self.turn)
        if uses is None:
            found = json.loads(results[0]["content"])
            return {
                "role": "assistant",
                "content": [{"type": "text", "text": f"We chose {found['facts'][0]['value']}."}],
                "stop_reason": "end_turn",
            }
        return {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": f"toolu_{self.turn}_{n}", "name": name, "input": args}
                for n, (name, args) in enumerate(uses)
            ],
            "stop_reason": "tool_use",
        }


def tool_result(store: FactStore, use: dict[str, Any]) -> dict[str, Any]:
    """One ``tool_use`` block answered: the tool's JSON, or the refusal marked as an error."""
    try:
        content, is_error = json.dumps(store.call_tool(use["name"], use["input"])), False
    except PgfactsError as refused:
        content, is_error = json.dumps(refused.as_dict()), True
    return {
        "type": "tool_result",
        "tool_use_id": use["id"],
        "content": content,
        "is_error": is_error,
    }


def main() -> None:
    context = Context(tenant=f"example-{uuid.uuid4().hex[:6]}", session_id="chat-1")
    with FactStore(context=context) as store:
        offered = tools.anthropic(tools.for_kind(store.tool_definitions(), context.agent_kind))
        model = ScriptedModel()
        messages: list[dict[str, Any]] = [
            {"role": "user", "content": "Note for the team that we chose Postgres 17, then check."}
        ]
        while True:
            reply = model.respond(messages, offered)
            messages.append(reply)
            if reply["stop_reason"] != "tool_use":
                print(f"assistant: {reply['content'][0]['text']}")
                return
            answers = [tool_result(store, b) for b in reply["content"] if b["type"] == "tool_use"]
            for use, answer in zip(reply["content"], answers, strict=True):
                print(f"tool {use['name']}: {answer['content'][:120]}")
            messages.append({"role": "user", "content": answers})


if __name__ == "__main__":
    sys.exit(main())
