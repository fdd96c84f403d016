"""The ``pgfacts`` command line: database runtime, migrations, diagnostics and the demo."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import psycopg
import typer
from rich.console import Console

from . import cli_reads, cli_review, cli_transfer, migrator, tools
from . import doctor as doctor_module
from .cli_options import DsnOption, MemoryScopeOption, SchemaOption
from .client import AsyncFactStore, Context, FactStore
from .errors import PgfactsError, translate
from .runtime import LocalRuntime

app = typer.Typer(
    help="pgfacts: durable, auditable memory for LLM agents in PostgreSQL.",
    no_args_is_help=True,
    add_completion=False,
)
db_app = typer.Typer(
    help="The local PostgreSQL 17 runtime (no Docker needed).", no_args_is_help=True
)
app.add_typer(db_app, name="db")

err = Console(stderr=True)
out = Console()

PortOption = Annotated[
    int | None, typer.Option("--port", help="local runtime port; default PGFACTS_PORT or 54317")
]


def _fail(error: PgfactsError, as_json: bool = False) -> NoReturn:
    if as_json:
        sys.stderr.write(json.dumps(error.as_dict()) + "\n")
    else:
        err.print(f"[bold red]error {error.sqlstate}:[/] {error.message}", highlight=False)
        if error.detail:
            err.print(error.detail, highlight=False)
        if error.hint:
            err.print(f"[yellow]hint:[/] {error.hint}", highlight=False)
    raise typer.Exit(1)


def _progress(message: str) -> None:
    err.print(f"[dim]{message}[/]", highlight=False)


@db_app.command("up")
def db_up(port: PortOption = None) -> None:
    """Build the runtime on first use, start PostgreSQL 17 and print the DSN."""
    try:
        status = LocalRuntime(port).up(_progress)
    except PgfactsError as exc:
        _fail(exc)
    print(status.dsn)


@db_app.command("down")
def db_down(port: PortOption = None) -> None:
    """Stop the local server (a stopped server is fine)."""
    try:
        status = LocalRuntime(port).down()
    except PgfactsError as exc:
        _fail(exc)
    err.print(f"stopped (port {status.port})")


@db_app.command("status")
def db_status(
    port: PortOption = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Show whether the local server runs; exit 3 when it does not."""
    status = LocalRuntime(port).status()
    if as_json:
        print(json.dumps(status.as_dict()))
    else:
        state = "running" if status.running else "stopped"
        out.print(f"{state} on 127.0.0.1:{status.port}  data {status.data_dir}", highlight=False)
        if status.dsn:
            out.print(f"DSN {status.dsn}", highlight=False)
    if not status.running:
        raise typer.Exit(3)


@db_app.command("dsn")
def db_dsn(port: PortOption = None) -> None:
    """Print the local runtime's DSN."""
    runtime = LocalRuntime(port)
    if not runtime.password_file.exists():
        err.print("the local runtime has never been started: run `pgfacts db up`")
        raise typer.Exit(1)
    print(runtime.dsn)


@db_app.command("psql", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def db_psql(ctx: typer.Context, port: PortOption = None) -> None:
    """Open psql 17 on the local server; extra arguments go to psql."""
    try:
        command = LocalRuntime(port).psql_command(list(ctx.args))
    except PgfactsError as exc:
        _fail(exc)
    os.execvp(command[0], command)


@app.command("migrate")
def migrate_cmd(
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    target: Annotated[
        str | None, typer.Option("--target", help="stop after this migration file")
    ] = None,
) -> None:
    """Apply pending migrations and changed definitions (idempotent, concurrency-safe)."""
    try:
        report = migrator.migrate(dsn, schema, target=target)
    except PgfactsError as exc:
        _fail(exc)
    except psycopg.Error as exc:
        _fail(translate(exc))
    if report.changed:
        for name in report.applied:
            err.print(f"applied {name}", highlight=False)
        if report.definitions_applied:
            err.print("applied sql/ definitions", highlight=False)
    else:
        err.print(f"schema {schema!r} is up to date", highlight=False)


schedule_app = typer.Typer(
    help="The maintenance jobs in pg_cron instead of `pgfacts worker` (the SQL functions "
    "schedule_maintenance, maintenance_jobs, unschedule_maintenance decide; this passes "
    "their answer through as JSON).",
    no_args_is_help=True,
)
app.add_typer(schedule_app, name="schedule")


def _schedule_call(dsn: str | None, schema: str, call: str, **params: Any) -> None:
    try:
        with FactStore(dsn, schema=schema) as store:
            result = getattr(store, call)(**params)
    except PgfactsError as exc:
        _fail(exc, as_json=True)
    except psycopg.Error as exc:
        _fail(translate(exc), as_json=True)
    print(json.dumps(result, indent=2, default=str))


@schedule_app.command("install")
def schedule_install_cmd(
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    every: Annotated[
        list[str] | None,
        typer.Option(
            "--every",
            help="JOB=SCHEDULE to override a job's default schedule (a cron expression or "
            "'N seconds'), e.g. --every 'graph_projection=10 seconds'; repeatable",
        ),
    ] = None,
) -> None:
    """Install the maintenance jobs in pg_cron (idempotent); they then run as this login."""
    schedules = dict(item.partition("=")[::2] for item in every) if every else None
    _schedule_call(dsn, schema, "schedule_maintenance", schedules=schedules)


@schedule_app.command("list")
def schedule_list_cmd(
    dsn: DsnOption = None, schema: SchemaOption = migrator.DEFAULT_SCHEMA
) -> None:
    """The maintenance jobs, where they run, and each scheduled one's last run."""
    _schedule_call(dsn, schema, "maintenance_jobs")


@schedule_app.command("remove")
def schedule_remove_cmd(
    dsn: DsnOption = None, schema: SchemaOption = migrator.DEFAULT_SCHEMA
) -> None:
    """Remove the maintenance jobs from pg_cron (idempotent): `pgfacts worker` runs them."""
    _schedule_call(dsn, schema, "unschedule_maintenance")


@app.command("embedding-dimension")
def embedding_dimension_cmd(
    dimension: Annotated[int, typer.Argument(help="the dimension to allow, 1 to 4000")],
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
) -> None:
    """DBA: let tenants register embedding models of DIMENSION (builds its HNSW index
    concurrently; writes go on). Run as the database owner or a superuser."""
    try:
        result = migrator.allow_embedding_dimension(dsn, schema, dimension=dimension)
    except PgfactsError as exc:
        _fail(exc)
    except psycopg.Error as exc:
        _fail(translate(exc))
    err.print(
        f"dimension {dimension} allowed; allowed: {', '.join(str(d) for d in result['allowed'])}",
        highlight=False,
    )
    print(json.dumps(result))


@app.command("doctor")
def doctor_cmd(
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """Check PostgreSQL, the extensions, AGE preloading and the schema; exit 1 on a problem."""
    report = doctor_module.diagnose(dsn, schema)
    if as_json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        _print_doctor(report.as_dict())
    if not report.ok:
        raise typer.Exit(1)


def _print_doctor(data: dict[str, Any]) -> None:
    out.print(f"PostgreSQL        {data['postgresql'] or '-'}", highlight=False)
    for name, ext in data["extensions"].items():
        installed = ext["installed"] or "not installed"
        available = ext["available"] or "NOT AVAILABLE"
        out.print(f"  {name:<15} available {available:<10} installed {installed}", highlight=False)
    out.print(
        f"AGE per database  {'yes' if data['age_per_database'] else 'NO'}"
        f"{' (also server-wide: see the warning)' if data['age_server_wide'] else ''}",
        highlight=False,
    )
    latest = data["applied_migrations"][-1] if data["applied_migrations"] else "none"
    out.print(f"schema {data['schema']!r}  latest migration {latest}", highlight=False)
    out.print(f"pending           {', '.join(data['pending']) or 'none'}", highlight=False)
    for warning in data["warnings"]:
        out.print(
            f"[yellow]warning[/] {warning['message']} (fix: {warning['fix']})", highlight=False
        )
    for problem in data["problems"]:
        out.print(f"[red]problem[/] {problem['message']} (fix: {problem['fix']})", highlight=False)
    out.print("[green]ok[/]" if data["ok"] else "[red]not ready[/]")


def _context_options(
    tenant: str | None,
    session: str | None,
    parent: str | None,
    agent: str | None,
    kind: str,
    as_json: bool = True,
    memory_scope: str = "agent",
) -> Context:
    tenant = tenant or os.environ.get("PGFACTS_TENANT")
    if not tenant:
        _fail(
            PgfactsError("no tenant: pass --tenant or set PGFACTS_TENANT", sqlstate="22023"),
            as_json=as_json,
        )
    return Context(
        tenant=tenant,
        session_id=session,
        agent_id=agent,
        agent_kind=kind,
        parent_session_id=parent,
        memory_scope=memory_scope,
    )


def _tool_arguments(args: str) -> str:
    """The tool's JSON text: the argument itself, standard input for ``-``, a file for
    ``@FILE`` (for values over the kernel's limit on one argument, about 2 MB)."""
    if args == "-":
        return sys.stdin.read()
    if args.startswith("@"):
        path = args[1:]
        try:
            with open(path, encoding="utf-8") as file:
                return file.read()
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            _fail(
                PgfactsError(
                    f"cannot read the arguments from {path!r}: {reason}", sqlstate="22023"
                ),
                as_json=True,
            )
    return args


@app.command("tool")
def tool_cmd(
    name: Annotated[str, typer.Argument(help="tool name, e.g. store_fact")],
    args: Annotated[
        str,
        typer.Argument(
            help="JSON object of arguments; - reads it from standard input, @FILE from a file"
        ),
    ] = "{}",
    tenant: Annotated[str | None, typer.Option("--tenant", help="default PGFACTS_TENANT")] = None,
    session: Annotated[str | None, typer.Option("--session")] = None,
    parent: Annotated[str | None, typer.Option("--parent", help="parent session id")] = None,
    agent: Annotated[str | None, typer.Option("--agent")] = None,
    kind: Annotated[str, typer.Option("--kind", help="agent kind")] = "agent",
    memory_scope: MemoryScopeOption = "agent",
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
) -> None:
    """Call an agent tool; print its JSON result, or a JSON error on stderr (exit 1).

    ARGS is a JSON object; - reads it from standard input, @FILE from a file.
    Use - or @FILE for values over the command-line limit (about 2 MB).
    """
    text = _tool_arguments(args)
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        _fail(PgfactsError(f"arguments are not JSON: {exc}", sqlstate="22023"), as_json=True)
    except RecursionError:
        _fail(
            PgfactsError(
                "arguments nest too deeply (values hold at most 64 levels)", sqlstate="22023"
            ),
            as_json=True,
        )
    context = _context_options(tenant, session, parent, agent, kind, memory_scope=memory_scope)
    try:
        with FactStore(dsn, context=context, schema=schema) as store:
            result = store.call_tool(name, parsed)
    except PgfactsError as exc:
        _fail(exc, as_json=True)
    print(json.dumps(result))


@app.command("bulk-store-facts")
def bulk_store_facts_cmd(
    file: Annotated[str, typer.Argument(help="a JSON array of records; - reads standard input")],
    sha256: Annotated[
        str, typer.Option("--sha256", help="the sha256 of FILE's bytes (sha256sum FILE)")
    ],
    expected_count: Annotated[
        int | None, typer.Option("--expected-count", help="refuse unless FILE holds this many")
    ] = None,
    key_prefix: Annotated[
        str | None, typer.Option("--key-prefix", help="a literal prefix every key must have")
    ] = None,
    failed_file: Annotated[
        str | None,
        typer.Option("--failed-file", help="where the failed records go; default FILE.failed.json"),
    ] = None,
    tenant: Annotated[str | None, typer.Option("--tenant", help="default PGFACTS_TENANT")] = None,
    session: Annotated[str | None, typer.Option("--session")] = None,
    parent: Annotated[str | None, typer.Option("--parent", help="parent session id")] = None,
    agent: Annotated[str | None, typer.Option("--agent")] = None,
    kind: Annotated[str, typer.Option("--kind", help="agent kind")] = "agent",
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
) -> None:
    """Store the facts of a file (bulk_store_facts): the valid ones are committed; the
    failed ones are written to --failed-file, itself valid input, whose path the printed
    JSON gives as failed_file. Exit 0 when every record was stored, 2 when some failed.

    The file goes to SQL as its bytes: SQL checks them against --sha256, decodes and
    parses them.
    """
    context = _context_options(tenant, session, parent, agent, kind)
    try:
        source = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as exc:
        _fail(
            PgfactsError(f"cannot read {file!r}: {exc.strerror or exc}", sqlstate="22023"),
            as_json=True,
        )
    try:
        with FactStore(dsn, context=context, schema=schema) as store:
            result = store.bulk_store_facts(
                source=source, sha256=sha256, expected_count=expected_count, key_prefix=key_prefix
            )
    except PgfactsError as exc:
        _fail(exc, as_json=True)
    if result["failed_file"] is not None:
        path = failed_file or ("stdin" if file == "-" else file) + ".failed.json"
        # The text SQL made, as UTF-8: the bytes failed_file_sha256 is the hash of.
        Path(path).write_bytes(result["failed_file"].encode("utf-8"))
        result = {**result, "failed_file": path}
    print(json.dumps(result))
    if result["failed_count"]:
        raise typer.Exit(2)


@app.command("tools")
def tools_cmd(
    fmt: Annotated[str, typer.Option("--format", help="openai | anthropic | mcp")] = "mcp",
    kind: Annotated[
        str | None, typer.Option("--kind", help="only the tools this agent kind may call")
    ] = None,
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
) -> None:
    """Print the tool definitions in an LLM provider's format."""
    try:
        with FactStore(dsn, schema=schema) as store:
            definitions = store.tool_definitions()
        print(json.dumps(tools.render(tools.for_kind(definitions, kind), fmt), indent=2))
    except PgfactsError as exc:
        _fail(exc)
    except ValueError as exc:
        _fail(PgfactsError(str(exc), sqlstate="22023"))


@app.command("prompt")
def prompt_cmd(
    tenant: Annotated[str | None, typer.Option("--tenant", help="default PGFACTS_TENANT")] = None,
    session: Annotated[str | None, typer.Option("--session")] = None,
    parent: Annotated[str | None, typer.Option("--parent", help="parent session id")] = None,
    agent: Annotated[str | None, typer.Option("--agent")] = None,
    kind: Annotated[str, typer.Option("--kind", help="agent kind")] = "agent",
    max_skills: Annotated[
        int, typer.Option("--max-skills", help="skills pushed inline when there is no skill search")
    ] = 5,
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
) -> None:
    """Print the memory section of an agent's system prompt, for what that agent can do."""
    context = _context_options(tenant, session, parent, agent, kind)
    try:
        with FactStore(dsn, context=context, schema=schema) as store:
            sys.stdout.write(store.agent_prompt(max_skills=max_skills))
    except PgfactsError as exc:
        _fail(exc)


@app.command("mcp")
def mcp_cmd(
    http: Annotated[
        bool, typer.Option("--http", help="serve streamable HTTP instead of stdio")
    ] = False,
    host: Annotated[
        str, typer.Option("--host", help="HTTP address; other than loopback needs --token")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port")] = 8765,
    token: Annotated[
        str | None,
        typer.Option("--token", envvar="PGFACTS_MCP_TOKEN", help="bearer token HTTP requires"),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option("--allowed-host", help="another Host name to accept (behind a proxy)"),
    ] = None,
    tenant: Annotated[
        str | None, typer.Option("--tenant", envvar="PGFACTS_TENANT", help="the tenant")
    ] = None,
    session: Annotated[str | None, typer.Option("--session", envvar="PGFACTS_SESSION")] = None,
    parent: Annotated[
        str | None,
        typer.Option("--parent", envvar="PGFACTS_PARENT_SESSION", help="parent session id"),
    ] = None,
    agent: Annotated[str | None, typer.Option("--agent", envvar="PGFACTS_AGENT")] = None,
    kind: Annotated[
        str, typer.Option("--kind", envvar="PGFACTS_AGENT_KIND", help="agent kind")
    ] = "agent",
    memory_scope: MemoryScopeOption = "agent",
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
) -> None:
    """Serve the agent tools over MCP: stdio for a host that starts it, or --http.

    The tenant, kind, session and agent are this server's (flags or environment); over
    HTTP a request may name its session and agent in x-session-id, x-parent-session-id
    and x-agent-id headers, and its memory scope in x-memory-scope. Tool arguments never
    choose them.
    """
    try:
        from . import mcp_server
    except ImportError as exc:
        _fail(
            PgfactsError(
                f"pgfacts mcp needs the MCP SDK ({exc.name} is missing)",
                sqlstate="58000",
                hint="pip install 'pgfacts[mcp]'",
            )
        )
    import anyio

    context = _context_options(tenant, session, parent, agent, kind, memory_scope=memory_scope)

    async def serve() -> None:
        async with AsyncFactStore(dsn, context=context, schema=schema) as store:
            server = mcp_server.PgfactsMCP(store, context)
            if not http:
                await server.run_stdio()
                return
            import uvicorn

            app = server.http_app(host, token, allowed_host)
            config = uvicorn.Config(app, host=host, port=port, log_level="warning")
            _progress(f"pgfacts mcp: http://{host}:{port}/mcp")
            await uvicorn.Server(config).serve()

    try:
        anyio.run(serve)
    except PgfactsError as exc:
        _fail(exc)


@app.command("worker")
def worker_cmd(
    extractor: Annotated[
        str | None,
        typer.Option(
            "--extractor",
            help="drain the extraction events with this module:factory returning an Extractor "
            "(every tenant, a batch each per round, longest waiting first)",
        ),
    ] = None,
    embedder: Annotated[
        str | None,
        typer.Option(
            "--embedder",
            help="work every tenant's embedding queue that registered this model: offline "
            "(deterministic HashEmbedder), offline:DIM, minilm (the real model of the minilm "
            "extra), openai:MODEL:DIM (an OpenAI-compatible endpoint: $OPENAI_BASE_URL, "
            "$OPENAI_API_KEY), or module:factory returning an Embedder",
        ),
    ] = None,
    tenant: Annotated[
        str | None,
        typer.Option(
            "--tenant", help="serve only this tenant (maintenance, which crosses tenants, is off)"
        ),
    ] = None,
    only: Annotated[
        list[str] | None,
        typer.Option(
            "--only",
            help="run only these parts (repeatable): extraction, embeddings, graph, maintenance",
        ),
    ] = None,
    interval: Annotated[
        float, typer.Option("--interval", min=0.05, help="seconds between health lines")
    ] = 60,
    poll: Annotated[
        float,
        typer.Option("--poll", min=0.01, help="seconds to wait after a round with nothing to do"),
    ] = 1.0,
    maintenance_interval: Annotated[
        float,
        typer.Option("--maintenance-interval", min=1, help="seconds between maintenance runs"),
    ] = 21600,
    once: Annotated[
        bool,
        typer.Option(
            "--once", help="run maintenance once, work until nothing is left to do, and exit"
        ),
    ] = False,
    batch_size: Annotated[
        int | None,
        typer.Option(
            "--batch-size",
            min=1,
            max=1000,
            help="events per extraction batch (default 10), rows per embedding batch (64)",
        ),
    ] = None,
    graph: Annotated[
        bool, typer.Option("--graph", help="only the graph projections (same as --only graph)")
    ] = False,
    embed_tenant: Annotated[
        str | None,
        typer.Option(
            "--embed-tenant",
            help="only this tenant's embedding queue (--tenant T --only embeddings; the "
            "embedder defaults to offline)",
        ),
    ] = None,
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
) -> None:
    """One process for every tenant's background work, round after round: extraction
    events (--extractor), embedding queues (--embedder), the graph projections, and
    maintenance every --maintenance-interval seconds. A health line every --interval
    seconds (a live display on a terminal); SIGTERM finishes the item in hand, gives the
    rest of the extraction batch back and exits 0."""
    try:
        _run_worker(
            dsn,
            schema,
            extractor=extractor,
            embedder=embedder,
            tenant=tenant,
            only=only,
            interval=interval,
            poll=poll,
            maintenance_interval=maintenance_interval,
            once=once,
            batch_size=batch_size,
            graph=graph,
            embed_tenant=embed_tenant,
        )
    except (ValueError, TypeError, ImportError) as exc:
        _fail(PgfactsError(str(exc), sqlstate="22023"))
    except PgfactsError as exc:
        _fail(exc)


def _run_worker(
    dsn: str | None,
    schema: str,
    *,
    extractor: str | None,
    embedder: str | None,
    tenant: str | None,
    only: list[str] | None,
    graph: bool,
    embed_tenant: str | None,
    batch_size: int | None,
    **options: Any,
) -> None:
    import signal
    import threading

    from .pipeline import load_extractor
    from .worker import PARTS, load_embedder, run_worker

    parts = set(only or PARTS)
    if unknown := parts - PARTS:
        raise ValueError(f"--only takes {', '.join(sorted(PARTS))}, not {', '.join(unknown)}")
    # The single-mode flags of earlier releases narrow the one worker.
    if graph:
        parts = {"graph"}
    if embed_tenant is not None:
        parts, tenant, embedder = {"embeddings"}, embed_tenant, embedder or "offline"
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    run_worker(
        dsn,
        schema,
        extractor=load_extractor(extractor) if extractor else None,
        embedder=load_embedder(embedder) if embedder else None,
        parts=parts,
        tenant=tenant,
        batch_size=batch_size or 10,
        embedding_batch_size=batch_size or 64,
        stop=stop,
        report=_worker_line,
        live_console=err if err.is_terminal else None,
        **options,
    )


def _worker_line(message: str) -> None:
    err.print(message, markup=False, highlight=False, style="dim", soft_wrap=True)


@app.command("demo")
def demo_cmd(dsn: DsnOption = None, schema: SchemaOption = migrator.DEFAULT_SCHEMA) -> None:
    """A walkthrough of what pgfacts does, against a migrated database."""
    from .demo import run

    try:
        run(dsn, schema, out)
    except PgfactsError as exc:
        _fail(exc)


def main() -> None:
    app()


# The DBA's read commands (history, as-of, explain, changes, search, sessions, stats, audit).
cli_reads.register(app)
# Human review: pgfacts review list | show | approve | reject | lift.
app.add_typer(cli_review.app, name="review")
# Moving a tenant (export, import).
cli_transfer.register(app)
