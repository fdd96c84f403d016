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
    whole = file_parts(path, 1)
    return whole.sha256, whole.first_line


# A file of at least this many bytes is staged in parts, one a session of the import, side
# by side (COPYing and numbering 1,000,000 lines took one session about 5 s while the
# other waited); a smaller one whole, by one session.
STAGE_IN_PARTS_BYTES = 4 << 20


@dataclass
class FileParts:
    """What import_file reads of a file before it opens the import: file_digest's sha256
    and first line, and the file cut into parts to stage: (first byte, end byte or None for
    the file's end, the number of the part's first line)."""

    sha256: str
    first_line: str | None
    parts: list[tuple[int, int | None, int]]


def file_parts(path: Path, parts: int) -> FileParts:
    """file_digest's answer, and the file cut into up to ``parts`` byte ranges that end at a
    line's end, each with the number of its first line, as COPY numbers them (one a line
    feed). One range, the whole file, when the file is smaller than STAGE_IN_PARTS_BYTES or
    holds a byte that lets COPY read lines otherwise across a cut: a carriage return (COPY
    takes the line ending from a part's first line), the quote \x02 (a quoted field holds
    line ends) or a backslash opening a line (a line of '\\.' ends COPY's data)."""
    size = path.stat().st_size
    targets = [size * n // parts for n in range(1, parts)] if size >= STAGE_IN_PARTS_BYTES else []
    cuts: list[tuple[int, int]] = []  # (the byte after a line feed, the lines before it)
    digest = hashlib.sha256()
    offset = lines = 0
    last = b"\n"  # the byte before the chunk: a line starts the file
    with path.open("rb") as source:
        first = source.readline()
        chunk = first
        while chunk:
            digest.update(chunk)
            if targets and (b"\r" in chunk or b"\x02" in chunk or b"\n\\" in last + chunk):
                targets, cuts = [], []
            while targets and offset + len(chunk) > targets[0]:
                at = chunk.find(b"\n", max(0, targets[0] - offset))
                if at < 0:
                    break  # the line goes on in the next chunk
                cut = offset + at + 1
                cuts.append((cut, lines + chunk.count(b"\n", 0, at + 1)))
                targets = [t for t in targets if t >= cut]
            lines += chunk.count(b"\n")
            offset += len(chunk)
            last = chunk[-1:]
            chunk = source.read(CHUNK)
    text = first.decode("utf-8", errors="replace").rstrip("\r\n")
    starts = [(0, 0)] + [c for c in cuts if c[0] < size]
    ranges = [
        (start, starts[n + 1][0] if n + 1 < len(starts) else None, before + 1)
        for n, (start, before) in enumerate(starts)
    ]
    return FileParts(digest.hexdigest(), text or None, ranges)


def _copy_lines(conn: psycopg.Connection[Any], path: Path, start: int, end: int | None) -> None:
    """COPY the file's bytes start to end (None: its end) into this session's
    pg_temp.transfer_input."""
    with conn.cursor().copy(queries.COPY_IMPORT) as copy, path.open("rb") as source:
        source.seek(start)
        left = None if end is None else end - start
        while left is None or left > 0:
            chunk = source.read(CHUNK if left is None else min(CHUNK, left))
            if not chunk:
                break
            copy.write(chunk)
            if left is not None:
                left -= len(chunk)


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

    def run(self, store: FactStore, batch_size: int | None, helper: bool = False) -> None:
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
                if helper and not written:
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
    keeps the order that matters; an export is restored in one). The sessions of a plain
    import also stage a large file side by side, a part each (file_parts). ``batch_size``:
    lines a batch, 5000 when None; a resumed import keeps its own (another size is PT004).
    Rejected lines are appended to ``rejects_path`` in line order as the checkpoint passes
    them. A helper session that cannot connect is done without (``sessions`` in the answer
    says how many wrote, ``notice`` why). Returns the last answer, with ``rejects_file`` when
    any line was rejected."""
    if sessions < 1:
        raise ValueError("sessions must be at least 1")
    survey = file_parts(path, sessions)
    dsn = resolve_dsn(dsn)
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            store = FactStore(connection=conn, context=context, schema=schema)
            answer = store.import_open(survey.sha256, survey.first_line, path.name)
            resumed = answer["resumed"]
            extra = sessions - 1 if answer["family"] == "plain" else 0
            start = _Start(survey, path, extra, staged=answer["staged"])
            helpers = [
                threading.Thread(target=_helper, args=(start, n, dsn, context, schema, batch_size))
                for n in range(1, extra + 1)
            ]
            for helper in helpers:
                helper.start()
            try:
                if not answer["staged"]:
                    answer = start.stage(store, conn)
                if on_progress:
                    on_progress(ImportProgress(answer))
                batches = _Batches(answer, rejects_path, on_progress, max_batches)
                batches.lost_helpers = start.lost  # the same list: a later loss shows
            except BaseException:
                start.begin(None)
                for helper in helpers:
                    helper.join()
                raise
            start.begin(batches)
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


class _Start:
    """The start of an import's sessions: each helper connects (or is lost), stages the part
    of the file it is given, and waits for the batches. The main session stages the first
    part, and a lost helper's part after it; once every part is in, it hands the batches
    out (None: the import failed before them)."""

    def __init__(self, survey: FileParts, path: Path, helpers: int, staged: bool) -> None:
        self.survey = survey
        self.path = path
        # A part a session, or the whole file in the main one when it was not cut in as
        # many; none when the lines are staged already (a resumed import).
        self.parts = (
            [] if staged else survey.parts if len(survey.parts) == helpers + 1 else [(0, None, 1)]
        )
        self.lost: list[BaseException] = []
        self.failures: list[BaseException] = []
        self.ready = threading.Condition()
        self.settled: set[int] = set()  # helpers whose part is staged or who are lost
        self.orphans: list[int] = []  # parts of lost helpers
        self.batches: _Batches | None = None
        self.begun = threading.Event()

    def part(self, n: int) -> tuple[int, int | None, int, bool] | None:
        """Session n's part to stage (0: the main session's), with whether it ends the file."""
        if n >= len(self.parts):
            return None
        start, end, first_line = self.parts[n]
        return start, end, first_line, n == len(self.parts) - 1

    def stage_part(self, store: FactStore, conn: psycopg.Connection[Any], n: int) -> Any:
        part = self.part(n)
        if part is None:
            return None
        start, end, first_line, last = part
        if n:  # a helper's own temporary table
            store.import_open(self.survey.sha256, self.survey.first_line, self.path.name)
        _copy_lines(conn, self.path, start, end)
        return store.import_staged(first_line, last)

    def settle(
        self, n: int, lost: BaseException | None = None, failed: BaseException | None = None
    ) -> None:
        with self.ready:
            if lost is not None:
                self.lost.append(lost)
                if n < len(self.parts):
                    self.orphans.append(n)
            if failed is not None:
                self.failures.append(failed)
            self.settled.add(n)
            self.ready.notify_all()

    def stage(self, store: FactStore, conn: psycopg.Connection[Any]) -> dict[str, Any]:
        """The main session's staging: its part, then any a lost helper left, then the
        import's answer once every part is in."""
        answer = self.stage_part(store, conn, 0)
        with self.ready:
            self.ready.wait_for(lambda: self.settled >= set(range(1, len(self.parts))))
            orphans, failures = list(self.orphans), list(self.failures)
        if failures:
            raise failures[0]
        for n in orphans:
            answer = self.stage_part(store, conn, n)
        if len(self.parts) > 1:  # whichever part came last found the file complete
            answer = store.import_open(self.survey.sha256, self.survey.first_line, self.path.name)
        return dict(answer)

    def begin(self, batches: _Batches | None) -> None:
        self.batches = batches
        self.begun.set()


def _helper(
    start: _Start, n: int, dsn: str, context: Context, schema: str, batch_size: int | None
) -> None:
    """Another session of the same import (import_file's ``sessions``): it stages its part
    of the file, then writes batches. One that cannot connect is done without: the main
    session stages its part, the others write its batches."""
    try:
        conn = psycopg.connect(dsn, autocommit=True)
    except psycopg.OperationalError as exc:
        start.settle(n, lost=exc)
        return
    try:
        with conn:
            store = FactStore(connection=conn, context=context, schema=schema)
            try:
                start.stage_part(store, conn, n)
            except BaseException as exc:
                start.settle(n, failed=exc)
                return
            start.settle(n)
            start.begun.wait()
            if start.batches is not None:
                start.batches.run(store, batch_size, helper=True)
    except BaseException as exc:  # its connection: the batches' own failures are run's
        if start.batches is not None:
            start.batches.fail(exc)


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
