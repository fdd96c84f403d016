"""An agent loop with pgfacts' tools in the OpenAI Chat Completions format, offline.

The model is scripted (no network, no SDK): ``ScriptedModel.respond`` answers each turn
with what a Chat Completions response carries, a message with ``tool_calls`` whose
arguments are a JSON string. The loop is the part an application writes: offer the tools
(``tools.openai`` over ``tool_definitions()``), run each call through ``call_tool``, send
back a ``tool`` message per call, and stop at a message without tool calls. A refused call
comes back as the error's SQLSTATE, message and hint, which the model reads and corrects.

    python examples/agent_loop_openai.py            # against the local runtime
    PGFACTS_DSN=postgresql://... python examples/agent_loop_openai.py
"""

from __future__ import annotations

import json
import sys
import uuid
from typing import Any

from pgfacts import Context, FactStore, PgfactsError, tools


class ScriptedModel:
    """Plays a model that remembers a preference, hits a limit, corrects itself and answers."""

    def __init__(self) -> None:
        self.turn = 0

    def respond(self, messages: list[dict[str, Any]], offered: list[dict[str, Any]]) -> dict:
        assert {t["function"]["name"] for t in offered} >= {"store_fact", "read_facts"}
        self.turn += 1
        last = json.loads(messages[-1]["content"]) if messages[-1]["role"] == "tool" else {}
        # What it read decides what it does next: the example fails if pgfacts changes.
        if self.turn == 2:
            assert last["stored"] is True, last
        if self.turn == 3:
            assert last["error"]["code"] == "22023", last  # read the refusal, correct the call
        calls = {
            1: [("store_fact", {"key": "user/editor", "value": {"name": "vim", "since": 2019}})],
            2: [("read_facts", {"key_pattern": "user/*", "limit": 5000})],  # over the limit
            3: [("read_facts", {"key_pattern": "user/*", "limit": 10})],
        }.get(self.turn)
        if calls is None:
            editor = last["facts"][0]["value"]["name"]
            return {"role": "assistant", "content": f"You use {editor}; I will remember it."}
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call_{self.turn}_{n}",
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args)},
                }
                for n, (name, args) in enumerate(calls)
            ],
        }


def run_tool(store: FactStore, name: str, arguments: str) -> str:
    """One tool call's result as the ``tool`` message content: the tool's JSON, or the
    refusal the model can act on."""
    try:
        return json.dumps(store.call_tool(name, json.loads(arguments)))
    except PgfactsError as refused:
        return json.dumps({"error": refused.as_dict()})


def main() -> None:
    context = Context(tenant=f"example-{uuid.uuid4().hex[:6]}", session_id="chat-1")
    with FactStore(context=context) as store:
        offered = tools.openai(tools.for_kind(store.tool_definitions(), context.agent_kind))
        model = ScriptedModel()
        messages: list[dict[str, Any]] = [
            {"role": "user", "content": "I use vim. Remember that, then tell me my editor."}
        ]
        while True:
            reply = model.respond(messages, offered)
            messages.append(reply)
            if not reply.get("tool_calls"):
                print(f"assistant: {reply['content']}")
                return
            for call in reply["tool_calls"]:
                result = run_tool(store, call["function"]["name"], call["function"]["arguments"])
                print(f"tool {call['function']['name']}: {result[:120]}")
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})


if __name__ == "__main__":
    sys.exit(main())
