"""``pgfacts mcp``: the tools over MCP with the official SDK's clients: in memory (both the
current protocol and the legacy initialize handshake), over stdio as a host starts it, and
over streamable HTTP on loopback with and without a bearer token."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from pgfacts import tools
from pgfacts.client import AsyncFactStore, Context, FactStore
from pgfacts.errors import PgfactsError
from pgfacts.mcp_server import PgfactsMCP

from .conftest import KINDS, Database
from .support.caller import Caller
from .test_tool_schemas import SAMPLES, resolved, sample_setup

MODES = ("auto", "legacy")  # auto: 2026-07-28 (server/discover); legacy: initialize


def serve(
    db: Database,
    test: Callable[[Callable[..., Any]], Awaitable[None]],
    *,
    tenant: str = "t1",
    session: str | None = "s1",
) -> None:
    """Run test(connect) with connect(kind, mode) -> an in-memory client of a server for that
    kind, all on one store (one pool)."""

    async def main() -> None:
        base = Context(tenant=tenant, session_id=session)
        async with AsyncFactStore(db.dsn("app"), context=base) as store:

            @contextmanager
            def _unused() -> Iterator[None]:
                yield

            def connect(kind: str = "agent", mode: str = "auto") -> Client:
                identity = Context(tenant=tenant, session_id=session, agent_kind=kind)
                server = PgfactsMCP(store.with_context(agent_kind=kind), identity)
                return Client(server.server, mode=mode)

            await test(connect)

    anyio.run(main)


def definitions_for(db: Database, kind: str) -> list[dict[str, Any]]:
    with FactStore(db.dsn("app"), context=Context(tenant="t1", agent_kind=kind)) as store:
        return store.available_tools()


def test_each_kind_lists_exactly_its_available_tools_as_published(db: Database) -> None:
    expected = {kind: tools.mcp(definitions_for(db, kind)) for kind in KINDS}

    async def test(connect: Callable[..., Client]) -> None:
        for kind in KINDS:
            for mode in MODES:
                async with connect(kind, mode) as client:
                    listed = (await client.list_tools()).tools
                    wire = [t.model_dump(by_alias=True, exclude_none=True) for t in listed]
                    assert wire == expected[kind], (kind, mode)

    serve(db, test)
    names = {kind: {t["name"] for t in expected[kind]} for kind in KINDS}
    crawl = {"facts_read_uncrawled", "facts_set_crawled"}
    assert crawl <= names["crawler"] and crawl <= names["facts_manager"]
    assert not crawl & names["agent"] and "graph_upsert_node" in names["crawler"]
    assert "facts_similar" not in names["agent"]  # no embedding model yet


def test_similar_is_listed_once_the_tenant_has_an_embedding_model(db: Database) -> None:
    Caller(db, kind="facts_manager").one("SELECT pgfacts.register_embedding_model('toy-4', 4)")

    async def test(connect: Callable[..., Client]) -> None:
        async with connect("agent") as client:
            names = [t.name for t in (await client.list_tools()).tools]
        assert "facts_similar" in names

    serve(db, test)
    serve(db, test_absent := _listed_without("facts_similar"), tenant="t2")
    assert test_absent is not None


def _listed_without(name: str) -> Callable[[Callable[..., Client]], Awaitable[None]]:
    async def test(connect: Callable[..., Client]) -> None:
        async with connect("agent") as client:
            assert name not in [t.name for t in (await client.list_tools()).tools]

    return test


def test_every_tool_is_called_and_its_result_validates_in_both_protocols(db: Database) -> None:
    """The SDK client checks each structured result against the listed outputSchema."""

    def calls(mode: str, tenant: str) -> Callable[[Callable[..., Client]], Awaitable[None]]:
        async def test(connect: Callable[..., Client]) -> None:
            async with AsyncExitStack() as stack:
                clients: dict[str, Client] = {}
                latest: dict[str, Any] = {}
                for name, kind, args in SAMPLES:
                    if (setup := sample_setup(name, db, tenant)) is not None:
                        latest.update(setup)
                        continue
                    if kind not in clients:
                        clients[kind] = await stack.enter_async_context(connect(kind, mode))
                        await clients[kind].list_tools()  # what a host does first
                    result = await clients[kind].call_tool(name, resolved(args, latest))
                    assert not result.is_error, (mode, name, result.structured_content)
                    latest.update(result.structured_content or {})
                    text = result.content[0].text  # type: ignore[union-attr]
                    assert json.loads(text) == result.structured_content

        return test

    # A tenant per protocol: the samples delete their own session at the end.
    serve(db, calls("auto", "t1"))
    serve(db, calls("legacy", "t2"), tenant="t2")


def test_refused_calls_are_tool_errors_with_sqlstate_message_and_hint(db: Database) -> None:
    async def test(connect: Callable[..., Client]) -> None:
        for mode in MODES:
            async with connect("agent", mode) as client:
                # The input schema, checked before SQL: nothing is stored.
                bad = await client.call_tool("store_fact", {"key": 7, "value": 1})
                assert bad.is_error
                assert bad.structured_content["sqlstate"] == "22023"
                assert "key" in bad.structured_content["message"]
                assert bad.structured_content["hint"]
                extra = await client.call_tool("read_facts", {"session": "s1"})
                assert extra.is_error and extra.structured_content["sqlstate"] == "22023"
                # SQL's own refusals, with its message and hint.
                denied = await client.call_tool("delete_session", {"session_id": "s1"})
                assert denied.is_error and denied.structured_content["sqlstate"] == "42501"
                assert "facts_manager" in denied.structured_content["hint"]
                mixed = await client.call_tool(
                    "read_facts", {"scopeKeys": ["shared:a"], "tags": ["x"]}
                )
                assert mixed.structured_content == {
                    "sqlstate": "22023",
                    "message": "read_facts takes scopeKeys alone (with limit), not with tags",
                    "hint": "read by scopeKeys, or by the filters",
                }
                unknown = await client.call_tool("no_such_tool", {})
                assert unknown.is_error and unknown.structured_content["sqlstate"] == "22023"

    serve(db, test)
    with db.admin() as conn:
        assert conn.execute("SELECT count(*) FROM pgfacts_internal.facts").fetchone() == (0,)


def test_an_unknown_tenant_login_is_refused_as_an_error_not_a_crash(db: Database) -> None:
    async def test(connect: Callable[..., Client]) -> None:
        async with connect("agent") as client:
            result = await client.call_tool("read_facts", {})
            assert result.is_error and result.structured_content["sqlstate"] == "22023"

    serve(db, test, tenant="bad tenant!")


# -- stdio and HTTP, as a host starts the server ------------------------------------------


def _command(db: Database, *extra: str) -> list[str]:
    return ["-m", "pgfacts", "mcp", "--dsn", db.dsn("agent"), *extra]


README = Path(__file__).resolve().parent.parent / "README.md"


def readme_host_entry() -> dict[str, Any]:
    """The README's claude_desktop_config.json / .mcp.json entry (it must stay valid)."""
    blocks = re.findall(r"```json\n(.*?)```", README.read_text(), re.DOTALL)
    configs = [json.loads(b) for b in blocks if "mcpServers" in b]
    assert len(configs) == 1
    entry: dict[str, Any] = configs[0]["mcpServers"]["pgfacts"]
    return entry


def test_stdio_as_a_host_starts_it_from_the_readme_entry(db: Database) -> None:
    entry = readme_host_entry()
    assert entry["command"] == "pgfacts" and entry["args"][0] == "mcp"
    # The host runs the command it finds: this environment's, with the test's database.
    command = str(Path(sys.executable).parent / entry["command"])
    env = {**entry["env"], "PGFACTS_DSN": db.dsn("agent"), "PGFACTS_AGENT": "host"}
    params = StdioServerParameters(command=command, args=entry["args"], env=env)

    async def main() -> None:
        async with Client(params) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert "store_fact" in names and "facts_read_uncrawled" not in names
            stored = await client.call_tool("store_fact", {"key": "via/stdio", "value": 1})
            assert stored.structured_content == {
                "key": "via/stdio",
                "scope": "session",
                "shared": False,
                "stored": True,
            }
            read = await client.call_tool("read_facts", {"key_pattern": "via/*"})
            fact = read.structured_content["facts"][0]
            assert (fact["sessionId"], fact["agentId"]) == (entry["env"]["PGFACTS_SESSION"], "host")

    anyio.run(main)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def http_server(db: Database, *extra: str) -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, *_command(db, "--http", "--port", str(port), "--tenant", "t1", *extra)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(process.stderr.read() if process.stderr else "") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _http_client(url: str, headers: dict[str, str]) -> Client:
    transport = streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers))
    return Client(transport)


def test_http_on_loopback_with_a_token_and_identity_headers(db: Database) -> None:
    with http_server(db, "--token", "s3cret") as url:
        refused = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert refused.status_code == 401
        wrong = httpx2.post(url, json={}, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        auth = {"Authorization": "Bearer s3cret"}
        rebinding = httpx2.post(url, json={}, headers={**auth, "Host": "evil.example"})
        assert rebinding.status_code in (403, 421)

        async def main() -> None:
            headers = {**auth, "x-session-id": "web-1", "x-agent-id": "browser"}
            async with _http_client(url, headers) as client:
                stored = await client.call_tool("store_fact", {"key": "via/http", "value": 2})
                assert not stored.is_error, stored.structured_content
                read = await client.call_tool("read_facts", {"key_pattern": "via/*"})
                fact = read.structured_content["facts"][0]
                assert (fact["sessionId"], fact["agentId"]) == ("web-1", "browser")

        anyio.run(main)


@contextmanager
def http_in_process(db: Database) -> Iterator[str]:
    """The same app without a token, served by uvicorn in a thread of this process (it
    spares the second start of a Python with the SDK)."""
    port = _free_port()
    ready, stop = threading.Event(), threading.Event()

    async def main() -> None:
        context = Context(tenant="t1")
        async with AsyncFactStore(db.dsn("agent"), context=context) as store:
            app = PgfactsMCP(store, context).http_app("127.0.0.1", None)
            config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
            server = uvicorn.Server(config)
            async with anyio.create_task_group() as group:
                group.start_soon(server.serve)
                while not server.started:
                    await anyio.sleep(0.02)
                ready.set()
                await anyio.to_thread.run_sync(stop.wait)
                server.should_exit = True

    thread = threading.Thread(target=anyio.run, args=(main,))
    thread.start()
    try:
        assert ready.wait(20)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop.set()
        thread.join(20)


def test_http_on_loopback_without_a_token(db: Database) -> None:
    with http_in_process(db) as url:

        async def main() -> None:
            async with _http_client(url, {}) as client:
                names = [t.name for t in (await client.list_tools()).tools]
                assert "read_facts" in names
                result = await client.call_tool("read_facts", {"limit": -1})
                assert result.is_error and result.structured_content["sqlstate"] == "22023"

        anyio.run(main)


def test_http_off_loopback_needs_a_token() -> None:
    server = PgfactsMCP(AsyncFactStore("postgresql://unused/x"), Context(tenant="t1"))
    with pytest.raises(PgfactsError) as refused:
        server.http_app("0.0.0.0", None)
    assert refused.value.sqlstate == "28000" and "--token" in (refused.value.hint or "")
    assert server.http_app("0.0.0.0", "t0ken") is not None


def test_the_shared_skills_are_resources(db: Database) -> None:
    manager = Caller(db, kind="facts_manager")
    skill = {"name": "deploy", "description": "How to deploy", "steps": ["build", "ship"]}
    manager("store_fact", {"key": "skills/ops/deploy", "value": skill, "shared": True})
    manager("store_fact", {"key": "notes/x", "value": 1, "shared": True})

    async def test(connect: Callable[..., Client]) -> None:
        for mode in MODES:
            async with connect("agent", mode) as client:
                listed = (await client.list_resources()).resources
                assert [(str(r.uri), r.name, r.description) for r in listed] == [
                    ("pgfacts://skills/ops/deploy", "deploy", "How to deploy")
                ]
                read = await client.read_resource("pgfacts://skills/ops/deploy")
                assert json.loads(read.contents[0].text) == skill  # type: ignore[union-attr]
                with pytest.raises(MCPError):
                    await client.read_resource("pgfacts://skills/none")

    serve(db, test)


def test_the_skills_are_listed_page_by_page(db: Database) -> None:
    """resources/list pages through every skill (none cut at a window), by key, with the
    last skill's scope key as the cursor; a cursor that is not one is refused."""
    from pgfacts.mcp_server import SKILLS_PAGE

    names = sorted(f"s{n:03}" for n in range(SKILLS_PAGE * 2 + 30))
    stored = Caller(db, kind="facts_manager").one(
        "SELECT pgfacts.bulk_store_facts(jsonb_agg(jsonb_build_object("
        "'key', 'skills/' || n, 'value', jsonb_build_object('name', n), 'shared', true)))"
        " FROM unnest(%s::text[]) AS n",
        names,
    )
    assert stored["committed_count"] == len(names), stored

    async def test(connect: Callable[..., Client]) -> None:
        async with connect("agent", MODES[0]) as client:
            listed: list[str] = []
            cursor = None
            pages = 0
            while True:
                page = await client.list_resources(cursor=cursor)
                listed += [r.name for r in page.resources]
                pages += 1
                cursor = page.next_cursor
                if cursor is None:
                    break
            assert listed == names and pages == 3
            with pytest.raises(MCPError, match=r"scope key"):
                await client.list_resources(cursor="not a scope key")

    serve(db, test)


def test_the_memory_prompt_is_the_callers_agent_prompt(db: Database) -> None:
    expected = {
        kind: Caller(db, kind=kind, session="s1").one("SELECT pgfacts.agent_prompt(2)")
        for kind in ("agent", "tuner")
    }

    async def test(connect: Callable[..., Client]) -> None:
        for mode in MODES:
            for kind, text in expected.items():
                async with connect(kind, mode) as client:
                    [prompt] = (await client.list_prompts()).prompts
                    assert prompt.name == "memory"
                    got = await client.get_prompt("memory", {"max_skills": "2"})
                    assert got.messages[0].content.text == text  # type: ignore[union-attr]
                    with pytest.raises(MCPError):
                        await client.get_prompt("memory", {"max_skills": "99"})  # SQL: 22023
                    with pytest.raises(MCPError):
                        await client.get_prompt("other")

    serve(db, test)
