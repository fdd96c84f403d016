"""Human review from the command line: ``pgfacts review list``, ``show``, ``approve``,
``reject`` and ``lift``; with ``--facts``, the fact writes held under review key prefixes.

Each command is one SQL API call (``review_queue``, ``review_candidate``, ``approve_claim``,
``reject_claim``, ``lift_rejection``; ``fact_review_queue``, ``approve_fact``,
``reject_fact``) made as the caller the flags name, as the reviewer
unless ``--kind`` (or PGFACTS_AGENT_KIND) says otherwise; the database decides who may
decide, and this module only prints the answer (a table, ``--json`` or ``--nl``).
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from . import migrator
from .cli_options import DsnOption, SchemaOption
from .cli_reads import (
    Agent,
    AsJson,
    AsLines,
    Caller,
    Parent,
    Session,
    Tenant,
    caller,
    run,
    show_document,
    show_rows,
)

app = typer.Typer(
    help="Human review of low-trust memories: the queue, one candidate, decisions.",
    no_args_is_help=True,
)

Kind = Annotated[
    str | None,
    typer.Option("--kind", help="agent kind; default PGFACTS_AGENT_KIND, else reviewer"),
]
Note = Annotated[str | None, typer.Option("--note", help="why; kept with the decision")]
TABLE_COLUMNS = (
    "candidate_id",
    "held_because",
    "subject_id",
    "predicate",
    "object",
    "quote",
    "source_ref",
    "trust",
)
FACT_COLUMNS = ("candidate_id", "key", "value", "current_value", "writer_kind", "agent_id")
CandidateId = Annotated[int, typer.Argument(help="the candidate's id (review list shows it)")]
Facts = Annotated[
    bool,
    typer.Option("--facts", help="held fact writes (review key prefixes), not claims"),
]


def reviewer(
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
    """The caller of a review command: the reviewer kind unless told otherwise."""
    kind = kind or os.environ.get("PGFACTS_AGENT_KIND") or "reviewer"
    return caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)


@app.command("list")
def list_cmd(
    limit: Annotated[int, typer.Option("--limit", help="at most this many candidates")] = 50,
    facts: Facts = False,
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
    """The claims waiting for review, oldest first, with their evidence (review_queue);
    with --facts the held fact writes, with what memory holds now (fact_review_queue)."""
    who = reviewer(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
    if facts:
        held = run(who, lambda s: s.fact_review_queue(limit))
        if who.fmt == "table":
            held = [{c: r[c] for c in FACT_COLUMNS} for r in held]
        show_rows(who, held, "fact review queue")
        return
    rows = run(who, lambda s: s.review_queue(limit))
    if who.fmt == "table":  # a terminal's width: what a reviewer decides on (--json: all)
        rows = [{c: getattr(r, c) for c in TABLE_COLUMNS} for r in rows]
    show_rows(who, rows, "review queue")


@app.command("show")
def show_cmd(
    candidate_id: CandidateId,
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
    """One candidate, pending or decided, with its episode and decision (review_candidate)."""
    who = reviewer(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
    document = run(who, lambda s: s.review_candidate(candidate_id))
    show_document(who, document, f"review candidate {candidate_id}")


@app.command("approve")
def approve_cmd(
    candidate_id: CandidateId,
    note: Note = None,
    facts: Facts = False,
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
    """Approve a candidate: its claim is written now and believed from then on
    (approve_claim); with --facts a held fact write is stored (approve_fact)."""
    who = reviewer(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
    if facts:
        document = run(who, lambda s: s.approve_fact(candidate_id, note))
    else:
        document = run(who, lambda s: s.approve_claim(candidate_id, note))
    show_document(who, document, f"approved {candidate_id}")


@app.command("reject")
def reject_cmd(
    candidate_id: CandidateId,
    note: Note = None,
    facts: Facts = False,
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
    """Reject a candidate: its assertion is not written again until an operator lifts the
    rejection (reject_claim); with --facts a held fact write is dropped (reject_fact)."""
    who = reviewer(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
    if facts:
        document = run(who, lambda s: s.reject_fact(candidate_id, note))
    else:
        document = run(who, lambda s: s.reject_claim(candidate_id, note))
    show_document(who, document, f"rejected {candidate_id}")


@app.command("lift")
def lift_cmd(
    rejection_id: Annotated[int, typer.Argument(help="the rejection's id (review show)")],
    tenant: Tenant = None,
    session: Session = None,
    parent: Parent = None,
    agent: Agent = None,
    kind: Annotated[
        str | None,
        typer.Option("--kind", help="agent kind; default PGFACTS_AGENT_KIND, else operator"),
    ] = None,
    as_json: AsJson = False,
    as_lines: AsLines = False,
    dsn: DsnOption = None,
    schema: SchemaOption = migrator.DEFAULT_SCHEMA,
) -> None:
    """Operator: lift a rejection, so its assertion may be written again (lift_rejection)."""
    kind = kind or os.environ.get("PGFACTS_AGENT_KIND") or "operator"
    who = caller(tenant, session, parent, agent, kind, as_json, as_lines, dsn, schema)
    document = run(who, lambda s: s.lift_rejection(rejection_id))
    show_document(who, document, f"lifted rejection {rejection_id}")
