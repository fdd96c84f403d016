"""Staging a file in parts (issue 26's import speed): import_file's sessions each COPY and
number a part of a large file side by side (file_parts cuts it at line ends), and the
import is staged once every part is in, whatever their order; a part staged again replaces
its lines. The result is the import of the file staged whole."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pgfacts import FactStore, queries, transfer

from .conftest import Database
from .test_transfer_parallel import SUMMARY, lines, operator, state, waits_on, write_lines


def call(conn: psycopg.Connection, tenant: str, sql: str, *params: Any) -> Any:
    """sql as the tenant's operator, in the connection's transaction (a new one under
    autocommit)."""
    with conn.transaction():
        conn.execute("SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')", [tenant])
        row = conn.execute(sql, params).fetchone()
    assert row is not None
    return row[0]


def stage_part(
    conn: psycopg.Connection, tenant: str, texts: list[str], first: int, last: bool
) -> Any:
    """COPY texts into this session's staging table and stage them from line first."""
    with conn.cursor().copy(queries.COPY_IMPORT) as copy:
        copy.write("".join(t + "\n" for t in texts).encode())
    return call(conn, tenant, "SELECT pgfacts.import_staged(%s, %s)", first, last)


def open_import(conn: psycopg.Connection, tenant: str, sha: str) -> Any:
    return call(conn, tenant, "SELECT pgfacts.import_open(%s, %s)", sha, '{"type": "fact"}')


def staged_lines(db: Database, tenant: str) -> list[tuple[int, str]]:
    with db.admin() as admin:
        return [
            (int(n), str(text))
            for n, text in admin.execute(
                "SELECT line_no, line FROM pgfacts_internal.transfer_lines WHERE tenant = %s "
                "ORDER BY line_no",
                [tenant],
            )
        ]


def test_a_file_is_cut_at_line_ends_with_each_parts_first_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [
        json.dumps({"type": "fact", "key": f"k/{n}", "value": "x" * (n % 7)}) for n in range(50)
    ]
    source = write_lines(tmp_path / "cut.jsonl", texts)
    data = source.read_bytes()
    assert transfer.file_parts(source, 3).parts == [(0, None, 1)]  # small: whole
    monkeypatch.setattr(transfer, "STAGE_IN_PARTS_BYTES", 0)
    survey = transfer.file_parts(source, 3)
    assert (survey.sha256, survey.first_line) == transfer.file_digest(source)
    assert len(survey.parts) == 3
    for n, (start, end, first_line) in enumerate(survey.parts):
        assert start == 0 or data[start - 1 : start] == b"\n"  # a part starts a line
        assert first_line == data[:start].count(b"\n") + 1
        assert end == (survey.parts[n + 1][0] if n + 1 < 3 else None)
    # Bytes that let COPY read lines otherwise across a cut: the file is staged whole.
    for odd in ["a\rb", "\x02quoted", "\\."]:
        other = write_lines(tmp_path / "odd.jsonl", [*texts[:25], odd, *texts[25:]])
        assert transfer.file_parts(other, 3).parts == [(0, None, 1)], odd
    # One line, however long, cannot be cut.
    long = write_lines(tmp_path / "long.jsonl", ["x" * 10000])
    assert transfer.file_parts(long, 2).parts == [(0, None, 1)]


def test_a_file_staged_in_parts_imports_as_the_file_staged_whole(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = lines() * 3  # later copies repeat: superseded, duplicates, rejects in every part
    source = write_lines(tmp_path / "parts.jsonl", records)
    whole_rejects = tmp_path / "whole.rejects.jsonl"
    whole = transfer.import_file(
        source, operator("whole"), db.dsn(), batch_size=5, rejects_path=whole_rejects,
        sessions=3,
    )  # fmt: skip
    monkeypatch.setattr(transfer, "STAGE_IN_PARTS_BYTES", 0)
    real = FactStore.import_staged
    calls: list[tuple[int, bool]] = []

    def recorded(self: FactStore, first_line: int = 1, last_part: bool = True) -> Any:
        calls.append((first_line, last_part))
        return real(self, first_line, last_part)

    monkeypatch.setattr(FactStore, "import_staged", recorded)
    rejects = tmp_path / "parts.rejects.jsonl"
    parts = transfer.import_file(
        source, operator("parts"), db.dsn(), batch_size=5, rejects_path=rejects, sessions=3
    )
    cuts = transfer.file_parts(source, 3).parts
    assert sorted(calls) == [(cuts[0][2], False), (cuts[1][2], False), (cuts[2][2], True)]
    assert cuts[1][2] > 1 and cuts[2][2] > cuts[1][2]
    assert {k: parts[k] for k in SUMMARY} == {k: whole[k] for k in SUMMARY}
    assert parts["sessions"] == 3
    assert rejects.read_text() == whole_rejects.read_text()  # the same lines, by number
    assert state(db, "parts") == state(db, "whole")


def test_a_lost_helpers_part_is_staged_by_the_main_session(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write_lines(tmp_path / "lost.jsonl", lines() * 2)
    whole = transfer.import_file(source, operator("lost-whole"), db.dsn(), batch_size=5, sessions=1)
    monkeypatch.setattr(transfer, "STAGE_IN_PARTS_BYTES", 0)
    real = psycopg.connect

    def helpers_refused(*args: Any, **kwargs: Any) -> Any:
        if "_helper" in threading.current_thread().name:
            raise psycopg.OperationalError("connection refused (a helper's)")
        return real(*args, **kwargs)

    monkeypatch.setattr(transfer.psycopg, "connect", helpers_refused)
    answer = transfer.import_file(source, operator("lost"), db.dsn(), batch_size=5, sessions=3)
    assert answer["sessions"] == 1 and "2 of 2 helper sessions" in answer["notice"]
    assert {k: answer[k] for k in SUMMARY} == {k: whole[k] for k in SUMMARY}
    assert state(db, "lost") == state(db, "lost-whole")


def test_parts_stage_in_any_order_and_a_part_staged_again_replaces_its_lines(
    db: Database,
) -> None:
    sha = "a" * 64
    texts = [
        json.dumps({"type": "fact", "key": f"p/{n}", "value": n, "shared": True})
        for n in range(1, 7)
    ]
    with (
        psycopg.connect(db.dsn(), autocommit=True) as one,
        psycopg.connect(db.dsn(), autocommit=True) as two,
    ):
        open_import(one, "order", sha)
        open_import(two, "order", sha)
        # The part that ends the file first: not staged until the lines before it are in.
        assert not stage_part(two, "order", texts[3:], 4, True)["staged"]
        answer = stage_part(one, "order", texts[:3], 1, False)
        assert answer["staged"] and answer["total_lines"] == 6
        # A first part kept, then staged again (an interrupted import staging anew): its
        # lines are replaced and counted once.
        open_import(one, "again", sha)
        assert not stage_part(one, "again", ["stale"] * 3, 1, False)["staged"]
        assert not stage_part(one, "again", texts[:3], 1, False)["staged"]
        answer = stage_part(one, "again", texts[3:], 4, True)
        assert answer["staged"] and answer["total_lines"] == 6
    assert staged_lines(db, "again") == list(enumerate(texts, start=1))
    assert staged_lines(db, "order") == list(enumerate(texts, start=1))


def test_a_gap_between_parts_leaves_the_import_unstaged(db: Database) -> None:
    texts = ['{"type": "fact", "key": "g", "value": 1}'] * 2
    with psycopg.connect(db.dsn(), autocommit=True) as conn:
        open_import(conn, "gap", "b" * 64)
        assert not stage_part(conn, "gap", texts, 1, False)["staged"]
        # The last part names line 4 as its first: line 3 was never staged.
        assert not stage_part(conn, "gap", texts, 4, True)["staged"]
        with pytest.raises(psycopg.Error) as refused:
            call(conn, "gap", "SELECT pgfacts.import_batch()")
        assert refused.value.sqlstate == "55000"


@pytest.mark.parametrize(("first", "last"), [(0, True), (-5, False), (None, True), (1, None)])
def test_a_part_needs_a_first_line_from_1_and_a_last_part_flag(
    db: Database, first: int | None, last: bool | None
) -> None:
    with psycopg.connect(db.dsn(), autocommit=True) as conn:
        open_import(conn, "bad", "c" * 64)
        with pytest.raises(psycopg.Error) as refused:
            call(conn, "bad", "SELECT pgfacts.import_staged(%s, %s)", first, last)
        assert refused.value.sqlstate == "22023"
        assert refused.value.diag.message_hint


def test_two_sessions_staging_the_same_lines_at_once_refuse_the_second(db: Database) -> None:
    texts = ['{"type": "fact", "key": "s", "value": 1}'] * 3
    with (
        psycopg.connect(db.dsn(), autocommit=True) as first,
        psycopg.connect(db.dsn(), autocommit=True) as second,
    ):
        open_import(first, "same", "d" * 64)
        open_import(second, "same", "d" * 64)
        first.autocommit = False
        first.execute("SELECT 1")  # a transaction left open: stage_part's is a savepoint
        stage_part(first, "same", texts, 1, True)  # not committed yet
        out: dict[str, Any] = {}

        def stage_again() -> None:
            try:
                stage_part(second, "same", texts, 1, True)
            except psycopg.Error as exc:
                out["error"] = exc

        thread = threading.Thread(target=stage_again)
        thread.start()
        assert waits_on(db) == "transactionid"  # for the first session's lines
        first.commit()
        thread.join(30)
        assert out["error"].sqlstate == "55000"
        assert "another session is staging" in str(out["error"])
    assert [n for n, _ in staged_lines(db, "same")] == [1, 2, 3]
