"""Options more than one module of the ``pgfacts`` command line takes, defined once."""

from __future__ import annotations

from typing import Annotated

import typer

DsnOption = Annotated[
    str | None,
    typer.Option("--dsn", help="PostgreSQL DSN; default PGFACTS_DSN, else the local runtime"),
]
SchemaOption = Annotated[str, typer.Option("--schema", help="schema name of this install")]
MemoryScopeOption = Annotated[
    str,
    typer.Option(
        "--memory-scope",
        envvar="PGFACTS_MEMORY_SCOPE",
        help="agent | swarm (one execution shares short-term memory) | none (incognito)",
    ),
]
