"""An MCP host's session with ``pgfacts mcp`` over stdio, offline.

What a host (Claude Desktop, Claude Code) does with the README's ``mcpServers`` entry, with
the official ``mcp`` SDK's client (``stdio_client`` + ``ClientSession``): start
``pgfacts mcp --tenant T --kind K`` as a subprocess with ``PGFACTS_DSN`` and
``PGFACTS_SESSION`` in its environment, ``initialize``, list the tools (and the prompt
and resources the server offers), then call tools. No model: the calls are scripted, as
the agent loops in this directory script theirs, and each step checks what it got back,
so the example fails if pgfacts changes. One call has a bad argument: the server refuses
it as a tool result with ``isError`` whose structured content is the SQLSTATE, message and
hint a model would read.

    python examples/mcp_host_session.py                        # against the local runtime
    PGFACTS_DSN=postgresql://... python examples/mcp_host_session.py --tenant acme --kind agent
    python examples/mcp_host_session.py --session desktop --agent claude-desktop
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import uuid
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def host_entry(args: argparse.Namespace) -> dict[str, Any]:
    """The ``mcpServers.pgfacts`` entry a host is configured with (README, "Agent hosts")."""
    env = {"PGFACTS_SESSION": args.session}
    if args.dsn:
        env["PGFACTS_DSN"] = args.dsn
    if args.agent:
        env["PGFACTS_AGENT"] = args.agent
    return {
        "command": "pgfacts",
        "args": ["mcp", "--tenant", args.tenant, "--kind", args.kind],
        "env": env,
    }


def server_command(name: str) -> str:
    """The command as the host finds it: on PATH, or next to this Python (an unactivated
    virtualenv)."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else (shutil.which(name) or name)


def show(label: str, body: Any, width: int | None = 200) -> None:
    """One line of the transcript: a label and what came back (JSON cut to ``width``)."""
    text = body if isinstance(body, str) else json.dumps(body, sort_keys=True)
    print(f"{label}: {text[:width]}")


async def session(entry: dict[str, Any]) -> None:
    params = StdioServerParameters(
        command=server_command(entry["command"]), args=entry["args"], env=entry["env"]
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        init = await client.initialize()
        show(
            "initialize",
            f"{init.server_info.name} {init.server_info.version}, protocol {init.protocol_version}",
        )

        names = [tool.name for tool in (await client.list_tools()).tools]
        show("tools", " ".join(names), width=None)
        assert {"store_fact", "read_facts", "facts_search"} <= set(names), names

        if init.capabilities.prompts is not None:
            prompts = (await client.list_prompts()).prompts
            show("prompts", " ".join(p.name for p in prompts))
        if init.capabilities.resources is not None:
            resources = (await client.list_resources()).resources
            show("resources", " ".join(str(r.uri) for r in resources) or "(none yet)")

        value = {"name": "vim", "since": 2019}
        stored = await client.call_tool("store_fact", {"key": "user/editor", "value": value})
        assert not stored.is_error and stored.structured_content, stored
        assert stored.structured_content["stored"] is True, stored.structured_content
        show("call store_fact", stored.structured_content)

        read = await client.call_tool("read_facts", {"key_pattern": "user/*"})
        assert not read.is_error and read.structured_content, read
        [fact] = read.structured_content["facts"]
        assert fact["value"] == value, fact
        show("call read_facts", [{k: fact[k] for k in ("key", "value", "sessionId", "scopeKey")}])

        found = await client.call_tool("facts_search", {"query": "vim editor"})
        assert not found.is_error and found.structured_content, found
        hits = found.structured_content["facts"]
        assert [hit["key"] for hit in hits] == ["user/editor"], hits
        show("call facts_search", [{k: hit[k] for k in ("key", "score", "value")} for hit in hits])

        # A bad argument: scopeKeys (exact keys) with a filter, which the input schema allows
        # and SQL refuses. The server answers with a tool result marked isError, not a
        # protocol error, so the model reads the SQLSTATE, message and hint and fixes the call.
        bad = {"scopeKeys": [fact["scopeKey"]], "tags": ["prefs"]}
        refused = await client.call_tool("read_facts", bad)
        assert refused.is_error and refused.structured_content, refused
        error = refused.structured_content
        assert {"sqlstate", "message", "hint"} <= error.keys(), error
        show("call read_facts refused (isError)", error, width=None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", default=os.environ.get("PGFACTS_DSN"))
    parser.add_argument(
        "--tenant",
        default=os.environ.get("PGFACTS_TENANT") or f"example-{uuid.uuid4().hex[:6]}",
    )
    parser.add_argument("--kind", default=os.environ.get("PGFACTS_AGENT_KIND", "agent"))
    parser.add_argument("--session", default=os.environ.get("PGFACTS_SESSION", "desktop"))
    parser.add_argument("--agent", default=os.environ.get("PGFACTS_AGENT"))
    entry = host_entry(parser.parse_args(argv))
    # What the host is configured with; the DSN's password is not printed.
    shown = {**entry, "env": {k: v for k, v in entry["env"].items() if k != "PGFACTS_DSN"}}
    show("host entry", shown)
    anyio.run(session, entry)


if __name__ == "__main__":
    sys.exit(main())
