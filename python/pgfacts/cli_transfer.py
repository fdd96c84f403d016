"""Moving a tenant: ``pgfacts export`` and ``pgfacts import``.

Both act as the operator of the tenant ``--tenant`` names (moving a whole tenant is
operator work). ``export`` streams export_tenant's lines to a file or standard output;
``import`` streams a file in and runs its batches with a progress bar on standard error,
then prints the summary (inserted, superseded, duplicate, rejected). The rejected lines go
to ``--rejects`` (default FILE.rejects.jsonl), a file that is itself valid input. An
interrupted import resumes when the same file is imported again; ``--abandon`` ends it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import migrator, transfer
from .cli_options import DsnOption, SchemaOption
from .errors import PgfactsError

Tenant = Annotated[str | None, typer.Option("--tenant", help="default PGFACTS_TENANT")]
Session = Annotated[
    str | None,
    typer.Option("--session", help="the session of session-scoped plain facts"),
]
Agent = Annotated[str | None, typer.Option("--agent", help="the agent id the writes carry")]
AsJson = Annotated[bool, typer.Option("--json", help="the summary as one JSON document")]

SUMMARY = ("inserted", "superseded", "duplicate", "rejected")


def register(app: typer.Typer) -> None:
    """Add ``export`` and ``import`` to the ``pgfacts`` command line."""

    @app.command("export")
    def export_cmd(
        tenant: Tenant = None,
        output: Annotated[
            str, typer.Option("--out", help="the file to write; - (default) standard output")
        ] = "-",
        embeddings: Annotated[
            bool, typer.Option("--embeddings", help="include the vectors of every model")
        ] = False,
        audit: Annotated[bool, typer.Option("--audit", help="include the audit log")] = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """Write everything of a tenant as JSON Lines, history included (export_tenant):
        `pgfacts import FILE --tenant NEW` restores it into an empty tenant."""
        from .cli import _context_options, _fail, err

        context = _context_options(tenant, None, None, None, "operator", as_json=False)
        try:
            if output == "-":
                size = transfer.export_tenant(
                    sys.stdout.buffer, context, dsn, schema, embeddings, audit
                )
                sys.stdout.buffer.flush()
            else:
                with Path(output).open("wb") as sink:
                    size = transfer.export_tenant(sink, context, dsn, schema, embeddings, audit)
        except PgfactsError as exc:
            _fail(exc)
        except OSError as exc:
            _fail(PgfactsError(f"cannot write {output!r}: {exc.strerror or exc}", sqlstate="58030"))
        err.print(f"[dim]exported tenant {context.tenant}: {size} bytes[/]", highlight=False)

    @app.command("import")
    def import_cmd(
        file: Annotated[str | None, typer.Argument(help="a JSON Lines file")] = None,
        tenant: Tenant = None,
        session: Session = None,
        agent: Agent = None,
        batch_size: Annotated[
            int | None,
            typer.Option(
                "--batch-size",
                min=1,
                max=100000,
                help="lines a batch (each batch commits); default 5000, a resumed import "
                "keeps its own",
            ),
        ] = None,
        sessions: Annotated[
            int,
            typer.Option(
                "--sessions", min=1, max=8, help="database sessions writing plain batches at once"
            ),
        ] = 2,
        rejects: Annotated[
            str | None,
            typer.Option("--rejects", help="where rejected lines go; default FILE.rejects.jsonl"),
        ] = None,
        abandon: Annotated[
            bool, typer.Option("--abandon", help="end the tenant's open import instead")
        ] = False,
        as_json: AsJson = False,
        dsn: DsnOption = None,
        schema: SchemaOption = migrator.DEFAULT_SCHEMA,
    ) -> None:
        """Import a JSON Lines file into a tenant: a pgfacts export into an empty tenant
        exactly as it was, or plain lines (facts, episodes with claims, graph assertions)
        through the write rules. Batched and resumable: run it again after an interruption.
        Exit 0 when no line was rejected, 2 when some were."""
        from .cli import _context_options, _fail

        context = _context_options(
            tenant,
            session or os.environ.get("PGFACTS_SESSION"),
            None,
            agent or os.environ.get("PGFACTS_AGENT"),
            "operator",
            as_json=as_json,
        )
        if abandon:
            # The rejected lines not yet written go to --rejects, or FILE.rejects.jsonl
            # when FILE is named.
            target = Path(rejects) if rejects else None
            if target is None and file is not None:
                target = Path(file).with_name(Path(file).name + ".rejects.jsonl")
            try:
                answer = transfer.abandon_import(context, dsn, schema, target)
            except PgfactsError as exc:
                _fail(exc, as_json=as_json)
            _summary(answer, as_json, "abandoned import")
            return
        if file is None:
            _fail(PgfactsError("FILE is missing", sqlstate="22023"), as_json=as_json)
        path = Path(file)
        if not path.is_file():
            _fail(PgfactsError(f"no such file {file!r}", sqlstate="58030"), as_json=as_json)
        rejects_path = Path(rejects) if rejects else path.with_name(path.name + ".rejects.jsonl")
        with _bar(as_json) as bar:
            task = bar.add_task(f"import {path.name}", total=None)

            def on_progress(progress: transfer.ImportProgress) -> None:
                bar.update(task, total=progress.total or None, completed=progress.done)

            try:
                answer = transfer.import_file(
                    path,
                    context,
                    dsn,
                    schema,
                    batch_size,
                    rejects_path,
                    on_progress,
                    sessions=sessions,
                )
            except PgfactsError as exc:
                bar.stop()
                _fail(exc, as_json=as_json)
        if answer.get("notice") and not as_json:
            from .cli import err

            err.print(f"[yellow]note:[/] {answer['notice']}", highlight=False)
        _summary(answer, as_json, f"import of {path.name} into {context.tenant}")
        if answer["rejected"]:
            raise typer.Exit(2)


def _bar(quiet: bool) -> Progress:
    from .cli import err

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("lines"),
        TimeRemainingColumn(),
        console=err,
        disable=quiet,
        transient=False,
    )


def _summary(answer: dict[str, Any], as_json: bool, title: str) -> None:
    from .cli import out

    if as_json:
        print(json.dumps(answer))
        return
    table = Table(title=title, title_justify="left", show_header=False)
    table.add_column("outcome", style="bold")
    table.add_column("count", justify="right")
    for key in SUMMARY:
        table.add_row(key, str(answer.get(key, 0)))
    table.add_row("family", str(answer.get("family")))
    table.add_row("lines", f"{answer.get('lines_done')} of {answer.get('total_lines')}")
    if answer.get("rejects_file"):
        table.add_row("rejects file", answer["rejects_file"])
    if answer.get("rejects_unwritten"):
        table.add_row(
            "rejects not written", f"{answer['rejects_unwritten']} (name FILE or --rejects)"
        )

    out.print(table)
