"""The DBA's read commands: ``pgfacts history``, ``as-of``, ``explain``, ``changes``,
``search``, ``sessions``, ``stats`` and ``audit``.

Each command is one SQL API call made as the caller the flags (or PGFACTS_TENANT and
friends) name, exactly as ``pgfacts tool`` makes its call: the database decides what the
caller may see, and this module only prints it, as a rich table for a person, ``--json``
(one document) or ``--nl`` (JSON Lines, a row a line) for a pipe. An error prints its
SQLSTATE, message and hint and exits 1.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.tree import Tree

from . import migrator
from .cli_options import DsnOption, SchemaOption
from .client import Context, FactStore
from .errors import PgfactsError
from .rows import SessionNode

Tenant = Annotated[str | None, typer.Option("--tenant", help="default PGFACTS_TENANT")]
Session = Annotated[str | None, typer.Option("--session", help="default PGFACTS_SESSION")]
Parent = Annotated[str | None, typer.Option("--parent", help="parent session id")]
Agent = Annotated[str | None, typer.Option("--agent", help="default PGFACTS_AGENT")]
Kind = Annotated[
    str | None,
    typer.Option("--kind", help="agent kind; default PGFACTS_AGENT_KIND, else tuner (reads all)"),
]
AsJson = Annotated[bool, typer.Option("--json", help="one JSON document")]
AsLines = Annotated[bool, typer.Option("--nl", help="JSON Lines: one row a line")]


@dataclasses.dataclass(frozen=True)
class Caller:
    """Who a read command reads as, and how it prints."""

    context: Context
    dsn: str | None
    schema: str
    fmt: str  # table | json | nl


def caller(
    tenant: str | None,
    session: str | None,
    parent: str | None,
    agent: str | None,
    kind: str | None,
    as_json: bool,
    as_lines: bool,
    dsn: str | None,
    schema: str,
) -> Caller:
    from .cli import _context_options, _fail

    if as_json and as_lines:
        _fail(PgfactsError("--json and --nl exclude each other", sqlstate="22023"))
    # A DBA auditing memory reads as the tuner (every session, no writes) unless told.
    context = _context_options(
        tenant,
        session or os.environ.get("PGFACTS_SESSION"),
        parent or os.environ.get("PGFACTS_PARENT_SESSION"),
        agent or os.environ.get("PGFACTS_AGENT"),
        kind or os.environ.get("PGFACTS_AGENT_KIND") or "tuner",
        as_json=as_json or as_lines,
    )
    fmt = "json" if as_json else "nl" if as_lines else "table"
    return Caller(context, dsn, schema, fmt)


def run(who: Caller, call: Callable[[FactStore], Any]) -> Any:
    """The one API call, as ``who``; an error is printed and exits 1."""
    from .cli import _fail

    try:
        with FactStore(who.dsn, context=who.context, schema=who.schema) as store:
            return call(store)
    except PgfactsError as exc:
        _fail(exc, as_json=who.fmt != "table")


def plain(value: Any) -> Any:
    """A row or value as JSON data (rows are dataclasses; instants ISO 8601)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value)


def show_rows(who: Caller, rows: Sequence[Any], title: str) -> None:
    """Rows as a table, a JSON array, or JSON Lines."""
    from .cli import out

    data = [plain(r) for r in rows]
    if who.fmt == "json":
        print(json.dumps(data))
        return
    if who.fmt == "nl":
        for row in data:
            print(json.dumps(row))
        return
    table = Table(title=f"{title} ({len(data)})", title_justify="left")
    columns = list(data[0]) if data else []
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in data:
        table.add_row(*(cell(row[c]) for c in columns))
    out.print(table)


def show_document(who: Caller, document: Any, title: str) -> None:
    """A JSON object: as JSON (--json, --nl: one line), or its top-level keys as a table."""
    from .cli import out

    data = plain(document)
    if who.fmt != "table":
        print(json.dumps(data))
        return
    table = Table(title=title, title_justify="left", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value", overflow="fold")
    for key, value in data.items() if isinstance(data, dict) else [("value", data)]:
        table.add_row(key, cell(value))
    out.print(table)


def draw_tree(who: Caller, nodes: list[SessionNode]) -> None:
    """The spawn tree, each session under its parent (rows come in tree order)."""
    from .cli import out

    if who.fmt != "table":
        show_rows(who, nodes, "sessions")
        return
    branches: dict[str, Tree] = {}
    root: Tree | None = None
    for node in nodes:
        label = node.tree_session_id
        notes = [f"agent {node.agent_id}"] if node.agent_id else []
        if node.created_at is None:
            notes.append("not registered")
        if node.ended_at:
            notes.append(f"ended {node.ended_at.isoformat(timespec='seconds')}")
        if node.deleted_at:
            notes.append(f"deleted {node.deleted_at.isoformat(timespec='seconds')}")
        text = label + (f"  [dim]({', '.join(notes)})[/]" if notes else "")
        parent = branches.get(node.parent_session_id or "")
        branch = parent.add(text) if parent is not None else Tree(text)
        if parent is None and root is None:
            root = branch
        branches[label] = branch
    if root is not None:
        out.print(root)


def register(app: typer.Typer) -> None:
    """Add the read commands to the ``pgfacts`` command line."""

    @app.command("history")
    def history_cmd(
        subject: Annotated[int, typer.Argument(help="the subject entity's id")],
        predicate: Annotated[str, typer.Argument(help="the predicate")],
        tenant: Tenant = None,
        session: Session = None,
        parent: Parent = None,
        agent: Agent = None,
        kind: Kind = None,
        as_json: AsJson = False,
        as_lines: AsLines = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """Every row a slot (subject, predicate) ever had, both clocks and why it retired
        (claim_history)."""
        who = caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
        rows = run(who, lambda s: s.claim_history(subject, predicate))
        show_rows(who, rows, f"history of {subject} {predicate}")

    @app.command("as-of")
    def as_of_cmd(
        subject: Annotated[int, typer.Argument(help="the subject entity's id")],
        predicate: Annotated[str, typer.Argument(help="the predicate")],
        valid_at: Annotated[
            str | None, typer.Option("--valid-at", help="true at (ISO 8601); default now")
        ] = None,
        known_at: Annotated[
            str | None, typer.Option("--known-at", help="as believed at (ISO 8601); default now")
        ] = None,
        tenant: Tenant = None,
        session: Session = None,
        parent: Parent = None,
        agent: Agent = None,
        kind: Kind = None,
        as_json: AsJson = False,
        as_lines: AsLines = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """What the slot held at --valid-at as known at --known-at (as_of)."""
        who = caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
        rows = run(who, lambda s: s.as_of(subject, predicate, valid_at=valid_at, known_at=known_at))
        show_rows(who, rows, f"{subject} {predicate} as of")

    @app.command("explain")
    def explain_cmd(
        claim_id: Annotated[int, typer.Argument(help="the claim's id")],
        tenant: Tenant = None,
        session: Session = None,
        parent: Parent = None,
        agent: Agent = None,
        kind: Kind = None,
        as_json: AsJson = False,
        as_lines: AsLines = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """Why a claim is (or was) believed: its sources, evidence and decisions
        (explain_claim)."""
        who = caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
        document = run(who, lambda s: s.explain_claim(claim_id))
        if document is None:  # explain_claim's answer for a claim this caller cannot see
            from .cli import _fail

            _fail(
                PgfactsError(f"no claim {claim_id} this caller can see", sqlstate="P0002"),
                as_json=who.fmt != "table",
            )
        show_document(who, document, f"claim {claim_id}")

    @app.command("changes")
    def changes_cmd(
        since: Annotated[str, typer.Option("--since", help="ISO 8601 instant")],
        until: Annotated[
            str | None, typer.Option("--until", help="ISO 8601 instant; default now")
        ] = None,
        tenant: Tenant = None,
        session: Session = None,
        parent: Parent = None,
        agent: Agent = None,
        kind: Kind = None,
        as_json: AsJson = False,
        as_lines: AsLines = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """Claims recorded or retired between --since and --until (changes)."""
        who = caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
        rows = run(who, lambda s: s.changes(since, until))
        show_rows(who, rows, "changes")

    @app.command("search")
    def search_cmd(
        query: Annotated[str, typer.Argument(help="what to look for")],
        limit: Annotated[int, typer.Option("--limit", help="at most this many hits")] = 20,
        intent: Annotated[
            str | None, typer.Option("--intent", help="current, historical or both")
        ] = None,
        tenant: Tenant = None,
        session: Session = None,
        parent: Parent = None,
        agent: Agent = None,
        kind: Kind = None,
        as_json: AsJson = False,
        as_lines: AsLines = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """Facts and claims ranked for a question, as the caller may see them (search)."""
        who = caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
        rows = run(who, lambda s: s.search(query, limit=limit, intent=intent))
        show_rows(who, rows, f"search {query!r}")

    @app.command("sessions")
    def sessions_cmd(
        session_id: Annotated[
            str | None, typer.Argument(help="any session of the tree; default --session")
        ] = None,
        tenant: Tenant = None,
        session: Session = None,
        parent: Parent = None,
        agent: Agent = None,
        kind: Kind = None,
        as_json: AsJson = False,
        as_lines: AsLines = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """A spawn tree drawn as a tree, ended and deleted sessions marked (session_tree)."""
        who = caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
        draw_tree(who, run(who, lambda s: s.session_tree(session_id)))

    @app.command("stats")
    def stats_cmd(
        tenant: Tenant = None,
        session: Session = None,
        parent: Parent = None,
        agent: Agent = None,
        kind: Kind = None,
        as_json: AsJson = False,
        as_lines: AsLines = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """The tenant's working memory in numbers (facts_stats)."""
        who = caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
        show_document(who, run(who, lambda s: s.facts_stats()), f"facts of {who.context.tenant}")

    @app.command("audit")
    def audit_cmd(
        since: Annotated[str | None, typer.Option("--since", help="ISO 8601 instant")] = None,
        until: Annotated[str | None, typer.Option("--until", help="ISO 8601 instant")] = None,
        operation: Annotated[
            str | None, typer.Option("--operation", help="e.g. store, delete, ingest, retract")
        ] = None,
        target: Annotated[
            str | None, typer.Option("--target", help="what was changed, e.g. shared:ops/x")
        ] = None,
        by_agent: Annotated[
            str | None, typer.Option("--by-agent", help="only this agent's changes")
        ] = None,
        in_session: Annotated[
            str | None, typer.Option("--in-session", help="only changes made in this session")
        ] = None,
        limit: Annotated[int, typer.Option("--limit", help="at most this many rows")] = 100,
        tenant: Tenant = None,
        session: Session = None,
        parent: Parent = None,
        agent: Agent = None,
        kind: Kind = None,
        as_json: AsJson = False,
        as_lines: AsLines = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """The mutation audit: who changed what, when, before and after (audit; the tuner
        and the operator may read it)."""
        who = caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
        rows = run(
            who,
            lambda s: s.audit(since, until, operation, target, by_agent, in_session, limit=limit),
        )
        show_rows(who, rows, "audit")
