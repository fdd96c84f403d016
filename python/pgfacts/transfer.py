"""Moving a tenant: export_tenant streams an export to a file, import_file streams a file in.

SQL decides everything (what an export holds, which family a file is, what each line
becomes, the checkpoint); this module only moves bytes with COPY and calls the import
functions batch by batch, reporting progress and writing the rejected lines SQL returns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import psycopg

from . import queries
from .client import Context, FactStore, _context_params
from .errors import translate
from .migrator import DEFAULT_SCHEMA
from .runtime import resolve_dsn

CHUNK = 1 << 20


def export_tenant(
    out: IO[bytes],
    context: Context,
    dsn: str | None = None,
    schema: str = DEFAULT_SCHEMA,
    embeddings: bool = False,
    audit: bool = False,
) -> int:
    """Write the tenant's export (export_tenant's lines) to ``out``; returns the bytes."""
    written = 0
    try:
        with psycopg.connect(resolve_dsn(dsn), autocommit=True) as conn, conn.transaction():
            conn.execute(queries.SET_CONTEXT.format(schema=schema), _context_params(context))
            cursor = conn.cursor()
            params = {"embeddings": embeddings, "audit": audit}
            with cursor.copy(queries.COPY_EXPORT.format(schema=schema), params) as copy:
                for data in copy:
                    out.write(data)
                    written += len(data)
    except psycopg.Error as exc:
        raise translate(exc) from exc
    return written


@dataclass
class ImportProgress:
    """What import_file reports after opening and after every batch (import_batch's answer)."""

    answer: dict[str, Any]

    @property
    def total(self) -> int:
        return int(self.answer.get("total_lines") or 0)

    @property
    def done(self) -> int:
        return int(self.answer.get("lines_done") or 0)


def file_digest(path: Path) -> tuple[str, str | None]:
    """The file's sha256 (its import's identity: the same file resumes) and first line."""
    digest = hashlib.sha256()
    with path.open("rb") as source:
        first = source.readline()
        digest.update(first)
        while chunk := source.read(CHUNK):
            digest.update(chunk)
    text = first.decode("utf-8", errors="replace").rstrip("\r\n")
    return digest.hexdigest(), text or None


def import_file(
    path: Path,
    context: Context,
    dsn: str | None = None,
    schema: str = DEFAULT_SCHEMA,
    batch_size: int = 5000,
    rejects_path: Path | None = None,
    on_progress: Callable[[ImportProgress], None] | None = None,
    max_batches: int | None = None,
) -> dict[str, Any]:
    """Import ``path`` into the context's tenant: open (or resume) the import, COPY the
    lines in unless they are staged already, then run batches until SQL says finished (or
    ``max_batches`` ran). Rejected lines are appended to ``rejects_path`` after each batch.
    Returns the last answer, with ``rejects_file`` when any line was rejected."""
    sha256, first_line = file_digest(path)
    rejects_written = 0
    try:
        with psycopg.connect(resolve_dsn(dsn), autocommit=True) as conn:
            store = FactStore(connection=conn, context=context, schema=schema)
            answer = store.import_open(sha256, first_line, path.name)
            resumed = answer["resumed"]
            if not answer["staged"]:
                with conn.cursor().copy(queries.COPY_IMPORT) as copy, path.open("rb") as source:
                    while chunk := source.read(CHUNK):
                        copy.write(chunk)
                answer = store.import_staged()
            if on_progress:
                on_progress(ImportProgress(answer))
            batches = 0
            while not answer["finished"] and (max_batches is None or batches < max_batches):
                answer = store.import_batch(batch_size)
                batches += 1
                rejects = answer.pop("rejects")
                if rejects and rejects_path is not None:
                    with rejects_path.open("a", encoding="utf-8") as sink:
                        sink.writelines(r["line"] + "\n" for r in rejects)
                    rejects_written += len(rejects)
                if on_progress:
                    on_progress(ImportProgress(answer))
    except psycopg.Error as exc:
        raise translate(exc) from exc
    if rejects_written and rejects_path is not None:
        answer["rejects_file"] = str(rejects_path)
    answer["rejects_written"] = rejects_written
    answer["resumed"] = resumed
    return answer


def abandon_import(
    context: Context, dsn: str | None = None, schema: str = DEFAULT_SCHEMA
) -> dict[str, Any]:
    """End the tenant's open import (import_abandon)."""
    with FactStore(dsn, context=context, schema=schema) as store:
        return store.import_abandon()
