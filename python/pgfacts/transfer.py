"""Moving a tenant: export_tenant streams an export to a file, import_file streams a file in.

SQL decides everything (what an export holds, which family a file is, what each line
becomes, the checkpoint); this module only moves bytes with COPY and calls the import
functions batch by batch, reporting progress and writing the rejected lines SQL returns.
"""

from __future__ import annotations

import hashlib
import os
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
    answer, and the rejects file. SQL keeps a batch's rejected lines until the client reports
    that its rejects file holds them (rejects_through: the line through which it does,
    rejects_bytes: the file's length then, sent with every call), and each answer holds the
    rejects after the reported line up to the checkpoint: answers overlap, an answer lost
    with its connection is made up by the next, and the lines are written here once each,
    in line order. A resumed import cuts the file back to the length last reported (lines
    written after it are written again)."""

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
        self.written_to = int(opened.get("rejects_through") or 0)
        self.rejects_bytes = _rejects_file_start(rejects_path, opened.get("rejects_bytes"))
        self.rejects_written = 0
        self.failure: BaseException | None = None
        self.lost_helpers: list[BaseException] = []
        self.lock = threading.Lock()

    def fail(self, exc: BaseException) -> None:
        """A session's failure; the first real one is what import_file raises (a P0002, no
        import open, is the main session's only, and only a failure when the import did not
        finish: another session may have finished it while it asked)."""
        with self.lock:
            if self.failure is None or (
                _sqlstate(self.failure) == "P0002" and _sqlstate(exc) != "P0002"
            ):
                self.failure = exc

    def failed(self) -> BaseException | None:
        """What import_file raises once every session has ended, if anything."""
        if _sqlstate(self.failure) == "P0002" and self.answer["finished"]:
            return None
        return self.failure

    def may_start(self) -> bool:
        with self.lock:
            if self.failure is not None or self.answer["finished"]:
                return False
            if self.left is None:
                return True
            self.left -= 1
            return self.left >= 0

    def reported(self) -> tuple[int, int | None]:
        """What the rejects file holds: through which line, and its length."""
        with self.lock:
            return self.written_to, self.rejects_bytes

    def report(self, answer: dict[str, Any]) -> None:
        with self.lock:
            rejects = answer.pop("rejects")
            after = int(answer.pop("rejects_after"))
            through = int(answer["lines_done"])
            if after <= self.written_to < through:
                run = [r for r in rejects if int(r["line_no"]) > self.written_to]
                if run:
                    self._write(run)
                self.written_to = through
            if answer["finished"] or (
                not self.answer["finished"] and answer["lines_done"] >= self.answer["lines_done"]
            ):
                self.answer = answer
                if self.on_progress:
                    self.on_progress(ImportProgress(answer))

    def _write(self, run: list[dict[str, Any]]) -> None:
        if self.rejects_path is not None:
            self.rejects_bytes = _append_rejects(self.rejects_path, run)
            self.rejects_written += len(run)

    def run(
        self, store: FactStore, batch_size: int | None, once: bool = False, helper: bool = False
    ) -> None:
        """One session's loop: batches until the import is finished, the batch budget is
        spent or a session failed. A helper's also ends when no batch was left for it (the
        rest being written), or when the import was finished by another session (P0002: not
        a failure). The main session's goes on then: import_batch waited for one of those
        batches, and a batch that another process dropped is free to claim again, so an
        import_file that returns unfinished was told to stop."""
        try:
            while self.may_start():
                through, size = self.reported()
                answer = store.import_batch(batch_size, through, size)
                written = answer.pop("written")
                self.report(answer)
                if once or (helper and not written):
                    break
        except BaseException as exc:
            if helper and _sqlstate(exc) == "P0002":
                return  # nothing left: another session finished the import
            self.fail(exc)


def _sqlstate(exc: BaseException | None) -> str | None:
    return getattr(exc, "sqlstate", None)


def _rejects_file_start(path: Path | None, reported: int | None) -> int | None:
    """The rejects file's length to go on from: a resumed import cuts it back to the length
    it was reported to have (what was written after that is written again)."""
    if path is None:
        return None
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return 0
    if reported is not None and size > int(reported):
        with path.open("r+b") as sink:
            sink.truncate(int(reported))
        return int(reported)
    return size


def _append_rejects(path: Path, run: list[dict[str, Any]]) -> int:
    """Append rejected lines to the rejects file, durably (the import reports its length
    next); returns the length."""
    with path.open("ab") as sink:
        sink.write("".join(r["line"] + "\n" for r in run).encode("utf-8"))
        sink.flush()
        os.fsync(sink.fileno())
        return sink.tell()


def import_file(
    path: Path,
    context: Context,
    dsn: str | None = None,
    schema: str = DEFAULT_SCHEMA,
    batch_size: int | None = None,
    rejects_path: Path | None = None,
    on_progress: Callable[[ImportProgress], None] | None = None,
    max_batches: int | None = None,
    sessions: int = 2,
) -> dict[str, Any]:
    """Import ``path`` into the context's tenant: open (or resume) the import, COPY the
    lines in unless they are staged already, then run batches until SQL says finished (or
    ``max_batches`` ran), in ``sessions`` database sessions at once for plain lines (SQL
    keeps the order that matters; an export is restored in one). ``batch_size``: lines a
    batch, 5000 when None; a resumed import keeps its own (another size is PT004). Rejected
    lines are appended to ``rejects_path`` in line order as the checkpoint passes them.
    A helper session that cannot connect is done without (``sessions`` in the answer says
    how many wrote, ``notice`` why). Returns the last answer, with ``rejects_file`` when
    any line was rejected."""
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
            batches.run(store, batch_size)
            for helper in helpers:
                helper.join()
            failure = batches.failed()
            if failure is not None:
                raise failure
            answer = batches.answer
    except psycopg.Error as exc:
        raise translate(exc) from exc
    if batches.rejects_written and rejects_path is not None:
        answer["rejects_file"] = str(rejects_path)
    answer["rejects_written"] = batches.rejects_written
    answer["resumed"] = resumed
    answer["sessions"] = 1 + extra - len(batches.lost_helpers)
    if batches.lost_helpers:
        lost = batches.lost_helpers
        answer["notice"] = (
            f"{len(lost)} of {extra} helper sessions could not connect "
            f"({str(lost[0]).strip() or type(lost[0]).__name__}); "
            f"the import went on with {answer['sessions']}"
        )
    return answer


def _helper(
    batches: _Batches, dsn: str, context: Context, schema: str, batch_size: int | None
) -> None:
    """Another session writing batches of the same import (import_file's ``sessions``).
    One that cannot connect is done without: the others write its batches."""
    try:
        conn = psycopg.connect(dsn, autocommit=True)
    except psycopg.OperationalError as exc:
        with batches.lock:
            batches.lost_helpers.append(exc)
        return
    try:
        with conn:
            store = FactStore(connection=conn, context=context, schema=schema)
            batches.run(store, batch_size, helper=True)
    except BaseException as exc:  # its connection: the batches' own failures are run's
        batches.fail(exc)


def abandon_import(
    context: Context,
    dsn: str | None = None,
    schema: str = DEFAULT_SCHEMA,
    rejects_path: Path | None = None,
) -> dict[str, Any]:
    """End the tenant's open import (import_abandon). The rejected lines of its committed
    batches not yet in the rejects file (those ahead of the checkpoint too) are appended to
    ``rejects_path`` when given (cut back first to the length last reported, as a resumed
    import does); ``rejects_unwritten`` counts them otherwise."""
    with FactStore(dsn, context=context, schema=schema) as store:
        answer = store.import_abandon()
    rejects = answer.pop("rejects")
    answer.pop("rejects_after")
    if rejects_path is None:
        answer["rejects_unwritten"] = len(rejects)
        return answer
    _rejects_file_start(rejects_path, answer.get("rejects_bytes"))
    if rejects:
        _append_rejects(rejects_path, rejects)
        answer["rejects_file"] = str(rejects_path)
    answer["rejects_written"] = len(rejects)
    return answer
