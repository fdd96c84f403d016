"""Moving a tenant: export_tenant streams an export to a file, import_file streams a file in.

SQL decides everything (what an export holds, which family a file is, what each line
becomes, the checkpoint); this module only moves bytes with COPY and calls the import
functions batch by batch, reporting progress and writing the rejected lines SQL returns.
"""

from __future__ import annotations

import hashlib
import threading
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


class _Batches:
    """What the sessions of one import share: how many batches may still start, the latest
    answer, and the rejected lines, written to the rejects file in line order. SQL hands
    each batch's rejects out once, when the checkpoint passes it, with the checkpoint it
    moved from (rejects_after); sessions report in any order, so a run of rejects waits
    here until the runs before it are written."""

    def __init__(
        self,
        opened: dict[str, Any],
        rejects_path: Path | None,
        on_progress: Callable[[ImportProgress], None] | None,
        max_batches: int | None,
    ) -> None:
        self.answer = opened
        self.rejects_path = rejects_path
        self.on_progress = on_progress
        self.left = max_batches
        self.written_to = int(opened.get("lines_done") or 0)
        self.pending: dict[int, tuple[int, list[dict[str, Any]]]] = {}
        self.rejects_written = 0
        self.failure: BaseException | None = None
        self.lock = threading.Lock()

    def fail(self, exc: BaseException) -> None:
        """A session's failure; the first one is what import_file raises."""
        with self.lock:
            if self.failure is None:
                self.failure = exc

    def may_start(self) -> bool:
        with self.lock:
            if self.failure is not None or self.answer["finished"]:
                return False
            if self.left is None:
                return True
            self.left -= 1
            return self.left >= 0

    def report(self, answer: dict[str, Any]) -> None:
        with self.lock:
            rejects = answer.pop("rejects")
            after = int(answer.pop("rejects_after"))
            if answer["lines_done"] > after:
                self.pending[after] = (answer["lines_done"], rejects)
            while self.written_to in self.pending:
                self.written_to, run = self.pending.pop(self.written_to)
                if run and self.rejects_path is not None:
                    with self.rejects_path.open("a", encoding="utf-8") as sink:
                        sink.writelines(r["line"] + "\n" for r in run)
                    self.rejects_written += len(run)
            if answer["finished"] or (
                not self.answer["finished"] and answer["lines_done"] >= self.answer["lines_done"]
            ):
                self.answer = answer
                if self.on_progress:
                    self.on_progress(ImportProgress(answer))

    def run(
        self, store: FactStore, batch_size: int, once: bool = False, to_the_end: bool = False
    ) -> None:
        """One session's loop: batches until the import is finished, the batch budget is
        spent or a session failed; a helper's also ends when no batch was left for it (the
        rest being written). The main session's (to_the_end) goes on then: import_batch
        waited for one of those batches, and a batch that another process dropped is free
        to claim again, so an import_file that returns unfinished was told to stop."""
        try:
            while self.may_start():
                answer = store.import_batch(batch_size)
                written = answer.pop("written")
                self.report(answer)
                if once or not (written or to_the_end):
                    break
        except BaseException as exc:
            self.fail(exc)


def import_file(
    path: Path,
    context: Context,
    dsn: str | None = None,
    schema: str = DEFAULT_SCHEMA,
    batch_size: int = 5000,
    rejects_path: Path | None = None,
    on_progress: Callable[[ImportProgress], None] | None = None,
    max_batches: int | None = None,
    sessions: int = 2,
) -> dict[str, Any]:
    """Import ``path`` into the context's tenant: open (or resume) the import, COPY the
    lines in unless they are staged already, then run batches until SQL says finished (or
    ``max_batches`` ran), in ``sessions`` database sessions at once for plain lines (SQL
    keeps the order that matters; an export is restored in one). Rejected lines are
    appended to ``rejects_path`` in line order as the checkpoint passes them. Returns the
    last answer, with ``rejects_file`` when any line was rejected."""
    if sessions < 1:
        raise ValueError("sessions must be at least 1")
    sha256, first_line = file_digest(path)
    dsn = resolve_dsn(dsn)
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
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
            batches = _Batches(answer, rejects_path, on_progress, max_batches)
            # The first batch alone (it sets the import's batch size), then the others
            # beside it.
            batches.run(store, batch_size, once=True)
            extra = sessions - 1 if answer["family"] == "plain" else 0
            helpers = [
                threading.Thread(target=_helper, args=(batches, dsn, context, schema, batch_size))
                for _ in range(extra)
            ]
            for helper in helpers:
                helper.start()
            batches.run(store, batch_size, to_the_end=True)
            for helper in helpers:
                helper.join()
            if batches.failure is not None and not (
                # a helper that came after another session finished the import
                batches.answer["finished"] and getattr(batches.failure, "sqlstate", None) == "P0002"
            ):
                raise batches.failure
            answer = batches.answer
    except psycopg.Error as exc:
        raise translate(exc) from exc
    if batches.rejects_written and rejects_path is not None:
        answer["rejects_file"] = str(rejects_path)
    answer["rejects_written"] = batches.rejects_written
    answer["resumed"] = resumed
    return answer


def _helper(batches: _Batches, dsn: str, context: Context, schema: str, batch_size: int) -> None:
    """Another session writing batches of the same import (import_file's ``sessions``)."""
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            batches.run(FactStore(connection=conn, context=context, schema=schema), batch_size)
    except BaseException as exc:  # its connection: the batches' own failures are run's
        batches.fail(exc)


def abandon_import(
    context: Context, dsn: str | None = None, schema: str = DEFAULT_SCHEMA
) -> dict[str, Any]:
    """End the tenant's open import (import_abandon)."""
    with FactStore(dsn, context=context, schema=schema) as store:
        return store.import_abandon()
