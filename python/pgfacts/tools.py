"""Agent tool definitions in the OpenAI, Anthropic and MCP formats, from one source.

The source is the SQL function ``<schema>.tool_definitions()`` (sql/90_tools), so every
language reads the same schemas; this module only reshapes them.
"""

from __future__ import annotations

from typing import Any

FORMATS = ("openai", "anthropic", "mcp")


def for_kind(definitions: list[dict[str, Any]], kind: str | None) -> list[dict[str, Any]]:
    """The tools an agent kind may call (all of them when kind is None)."""
    return [d for d in definitions if kind is None or kind in d["kinds"]]


# OpenAI's and Anthropic's tool formats have no field for a result schema or behaviour
# hints (an unknown field is refused), so those two carry the arguments only.


def openai(definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chat Completions ``tools`` entries."""
    return [
        {
            "type": "function",
            "function": {
                "name": d["name"],
                "description": d["description"],
                "parameters": d["input_schema"],
            },
        }
        for d in definitions
    ]


def anthropic(definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages API ``tools`` entries."""
    return [
        {"name": d["name"], "description": d["description"], "input_schema": d["input_schema"]}
        for d in definitions
    ]


def mcp_annotations(definition: dict[str, Any]) -> dict[str, Any]:
    """MCP tool annotations from the registry's hints."""
    hints = definition["hints"]
    return {
        "readOnlyHint": hints["read_only"],
        "destructiveHint": hints["destructive"],
        "idempotentHint": hints["idempotent"],
        "openWorldHint": hints["open_world"],
    }


def mcp(definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """MCP ``tools/list`` items (camelCase wire names): the output schema and the hints too."""
    return [
        {
            "name": d["name"],
            "description": d["description"],
            "inputSchema": d["input_schema"],
            "outputSchema": d["output_schema"],
            "annotations": mcp_annotations(d),
        }
        for d in definitions
    ]


def render(definitions: list[dict[str, Any]], fmt: str) -> list[dict[str, Any]]:
    if fmt == "openai":
        return openai(definitions)
    if fmt == "anthropic":
        return anthropic(definitions)
    if fmt == "mcp":
        return mcp(definitions)
    raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
