"""``pgfacts mcp``: the agent tools over the Model Context Protocol (the official ``mcp`` SDK).

The SDK's low-level server, so each tool's input schema, output schema and annotations are
published exactly as the registry holds them (``available_tools()`` in SQL decides which
tools a caller sees). A call's arguments are checked against the tool's input schema here,
before any SQL, then run through ``call_tool``; a refused call, by that check or by SQL, is a
tool error (``isError``) whose structured content is ``{sqlstate, message, hint}``.

Identity is never read from tool arguments: on stdio it is the server's flags (or
environment); over HTTP the token is bound to the flags' tenant and kind, and a request
may name its session, parent session and agent in headers (``x-session-id``,
``x-parent-session-id``, ``x-agent-id``).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import replace
from typing import Any
from urllib.parse import quote, unquote

import jsonschema
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.transport_security import TransportSecuritySettings

from . import tools
from .client import AsyncFactStore, Context
from .errors import PgfactsError

SERVER_NAME = "pgfacts"
# Request headers that name who calls, within the tenant and kind the token is bound to.
IDENTITY_HEADERS = {
    "x-session-id": "session_id",
    "x-parent-session-id": "parent_session_id",
    "x-agent-id": "agent_id",
    "x-memory-scope": "memory_scope",
}
# How long the input schemas are reused between calls: they change only when the
# definitions are migrated, and a call to a tool not cached re-reads them at once.
SCHEMA_TTL_SECONDS = 30.0
# The curated skills (shared facts under skills/) as resources pgfacts://skills/<name>.
SKILLS = "skills/"
MEMORY_PROMPT = "memory"  # agent_prompt(): the memory section of a system prompt
SKILL_URI = "pgfacts://skills/"
SKILLS_PAGE = 100  # resources/list pages by this many skills

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def error_result(error: PgfactsError) -> types.CallToolResult:
    """A refused call as the model sees it: the SQL error's parts, never a stack."""
    body = {"sqlstate": error.sqlstate, "message": error.message, "hint": error.hint}
    if error.detail:
        body["detail"] = error.detail
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(body))],
        structured_content=body,
        is_error=True,
    )


def schema_error(tool: str, error: jsonschema.ValidationError) -> PgfactsError:
    where = "/".join(str(p) for p in error.absolute_path)
    return PgfactsError(
        f"{tool} arguments{' at ' + where if where else ''}: {error.message}",
        sqlstate="22023",
        hint="see the tool's inputSchema",
    )


class PgfactsMCP:
    """The MCP server of one store and one identity."""

    def __init__(self, store: AsyncFactStore, identity: Context) -> None:
        self.store = store
        self.identity = identity
        self._validators: dict[str, jsonschema.protocols.Validator] = {}
        self._validators_read = float("-inf")
        self.server: Server[Any] = Server(
            SERVER_NAME,
            version=_version(),
            instructions=(
                "Durable memory: facts (store_fact, read_facts), search (facts_search), and "
                "a knowledge graph, for the tenant this server is bound to."
            ),
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
            on_list_resources=self.list_resources,
            on_read_resource=self.read_resource,
            on_list_prompts=self.list_prompts,
            on_get_prompt=self.get_prompt,
        )

    # -- identity ----------------------------------------------------------------------------

    def context_for(self, request: Any) -> Context:
        """The caller: the server's identity, with the request's identity headers (HTTP)."""
        headers = getattr(request, "headers", None)
        if headers is None:
            return self.identity
        changes = {field: headers[h] for h, field in IDENTITY_HEADERS.items() if headers.get(h)}
        return replace(self.identity, **changes) if changes else self.identity

    def store_for(self, ctx: Any) -> AsyncFactStore:
        context = self.context_for(getattr(ctx, "request", None))
        if context == self.identity:
            return self.store
        return self.store.with_context(
            session_id=context.session_id,
            parent_session_id=context.parent_session_id,
            agent_id=context.agent_id,
            memory_scope=context.memory_scope,
        )

    # -- handlers ----------------------------------------------------------------------------

    async def list_tools(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        try:
            definitions = await self.store_for(ctx).available_tools()
        except PgfactsError as exc:
            # A listing has no isError: a refused identity is the request's error.
            raise _mcp_error(exc) from exc
        return types.ListToolsResult(
            tools=[types.Tool.model_validate(t) for t in tools.mcp(definitions)]
        )

    async def call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        args = dict(params.arguments or {})
        try:
            validator = await self._validator(params.name)
            if validator is None:
                raise PgfactsError(
                    f"unknown tool {params.name!r}",
                    sqlstate="22023",
                    hint="tools/list names the tools",
                )
            failure = jsonschema.exceptions.best_match(validator.iter_errors(args))
            if failure is not None:
                raise schema_error(params.name, failure)
            result = await self.store_for(ctx).call_tool(params.name, args)
        except PgfactsError as exc:
            return error_result(exc)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(result))],
            structured_content=result,
        )

    # -- the shared skills as resources: read through the read_facts tool, so they are
    # exactly the skills the caller's kind may read ----------------------------------------

    async def list_resources(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        # A page of skills in key order; the cursor is the last skill's scope key, which
        # read_facts_page checks (22023 for anything else).
        cursor = params.cursor if params is not None else None
        try:
            found = await self.store_for(ctx).read_facts_page(
                key_pattern=f"{SKILLS}*", after=cursor, limit=SKILLS_PAGE, scope="shared"
            )
        except PgfactsError as exc:
            raise _mcp_error(exc) from exc
        resources = []
        for fact in found:
            value = fact.value if isinstance(fact.value, dict) else {}
            resources.append(
                types.Resource(
                    uri=SKILL_URI + quote(fact.key[len(SKILLS) :], safe="/"),
                    name=str(value.get("name") or fact.key[len(SKILLS) :]),
                    description=value.get("description"),
                    mime_type="application/json",
                )
            )
        next_cursor = found[-1].scope_key if len(found) == SKILLS_PAGE else None
        return types.ListResourcesResult(resources=resources, next_cursor=next_cursor)

    async def read_resource(
        self, ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if not uri.startswith(SKILL_URI) or uri == SKILL_URI:
            raise _mcp_error(
                PgfactsError(f"no resource {uri}", hint=f"skills are {SKILL_URI}<name>")
            )
        key = SKILLS + unquote(uri[len(SKILL_URI) :])
        try:
            found = await self.store_for(ctx).call_tool(
                "read_facts", {"scopeKeys": [f"shared:{key}"]}
            )
        except PgfactsError as exc:
            raise _mcp_error(exc) from exc
        if not found["facts"]:
            raise _mcp_error(PgfactsError(f"no skill {key}", sqlstate="P0002"))
        text = json.dumps(found["facts"][0]["value"])
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type="application/json", text=text)]
        )

    # -- the memory section of the system prompt (agent_prompt), as an MCP prompt -----------

    async def list_prompts(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=MEMORY_PROMPT,
                    description="How to use this memory, for what this caller can do "
                    "(pgfacts prompt)",
                    arguments=[
                        types.PromptArgument(
                            name="max_skills",
                            description="skills pushed inline when there is no skill search "
                            "(0 to 50, default 5)",
                            required=False,
                        )
                    ],
                )
            ]
        )

    async def get_prompt(
        self, ctx: Any, params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        if params.name != MEMORY_PROMPT:
            raise _mcp_error(
                PgfactsError(f"no prompt {params.name!r}", hint=f"the prompt is {MEMORY_PROMPT}")
            )
        given = (params.arguments or {}).get("max_skills", "5")
        try:
            # SQL checks the range; a value that is no integer is refused here alike.
            if not str(given).lstrip("-").isdigit():
                raise PgfactsError(
                    f"max_skills must be an integer, not {str(given)[:64]!r}", sqlstate="22023"
                )
            text = await self.store_for(ctx).agent_prompt(max_skills=int(given))
        except PgfactsError as exc:
            raise _mcp_error(exc) from exc
        return types.GetPromptResult(
            description="The memory section of the system prompt",
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
            ],
        )

    async def _validator(self, name: str) -> jsonschema.protocols.Validator | None:
        stale = time.monotonic() - self._validators_read > SCHEMA_TTL_SECONDS
        if stale or name not in self._validators:
            definitions = await self.store.tool_definitions()
            self._validators = {
                d["name"]: jsonschema.Draft202012Validator(d["input_schema"]) for d in definitions
            }
            self._validators_read = time.monotonic()
        return self._validators.get(name)

    # -- transports --------------------------------------------------------------------------

    async def run_stdio(self) -> None:
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read, write):
            await self.server.run(read, write, self.server.create_initialization_options())

    def http_app(
        self,
        host: str,
        token: str | None,
        allowed_hosts: list[str] | None = None,
        path: str = "/mcp",
    ) -> ASGIApp:
        """The streamable HTTP app: DNS-rebinding protection on for every host, and the
        bearer token checked on every request when one is set (required off loopback)."""
        if token is None and not is_loopback(host):
            raise PgfactsError(
                f"serving on {host} needs a bearer token",
                sqlstate="28000",
                hint="pass --token or set PGFACTS_MCP_TOKEN, or bind to 127.0.0.1",
            )
        names = [host, *(allowed_hosts or [])]
        if is_loopback(host):
            names += ["127.0.0.1", "localhost", "[::1]"]
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[f"{n}:*" for n in names] + list(names),
            allowed_origins=[f"{scheme}://{n}:*" for n in names for scheme in ("http", "https")],
        )
        app = self.server.streamable_http_app(
            streamable_http_path=path, host=host, transport_security=security
        )
        return app if token is None else bearer_required(app, token)


def bearer_required(app: ASGIApp, token: str) -> ASGIApp:
    """Refuse every HTTP request without ``Authorization: Bearer <token>`` (401)."""
    expected = f"Bearer {token}".encode()

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers: Mapping[bytes, bytes] = dict(scope.get("headers") or [])
            given = headers.get(b"authorization", b"")
            if not hmac.compare_digest(given, expected):
                body = json.dumps(
                    {"error": "invalid_token", "error_description": "a bearer token is required"}
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b'Bearer error="invalid_token"'),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return guarded


def _mcp_error(error: PgfactsError) -> Exception:
    from mcp.shared.exceptions import MCPError

    return MCPError(
        code=types.INVALID_PARAMS,
        message=error.message,
        data={"sqlstate": error.sqlstate, "hint": error.hint},
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pgfacts")
    except PackageNotFoundError:
        return ""
