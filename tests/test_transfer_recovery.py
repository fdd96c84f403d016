"""What a plain import does when something fails around it (issue 26's review): a client
that loses the answer of a batch it committed, an abandoned import with batches committed
ahead of its checkpoint, a helper session that cannot connect, a helper told that nothing is
left while another session fails for real, and a resume told another batch size. Each ends
with the facts, counts and rejects file a serial import gives, or a clear refusal."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

from pgfacts import FactStore, transfer
from pgfacts.cli import app
from pgfacts.errors import NotFound, PgfactsError

from .conftest import Database
from .test_transfer_parallel import (
    SUMMARY,
    batch,
    held_batches,
    in_thread,
    lines,
    operator,
    state,
    waits_on,
    write_lines,
)


def serial(db: Database, source: Path, tmp_path: Path, tenant: str) -> tuple[dict[str, Any], str]:
    rejects = tmp_path / f"{tenant}.rejects.jsonl"
    answer = transfer.import_file(
        source, operator(tenant), db.dsn(), batch_size=5, rejects_path=rejects, sessions=1
    )
    assert answer["finished"]
    return answer, rejects.read_text()


def held_rejects(db: Database, tenant: str) -> int:
    with db.admin() as admin:
        row = admin.execute(
            "SELECT count(*) FROM pgfacts_internal.transfer_rejects WHERE tenant = %s", [tenant]
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_rejects_of_a_commit_whose_answer_was_lost_reach_the_rejects_file(
    db: Database, tmp_path: Path
) -> None:
    source = write_lines(tmp_path / "lost.jsonl", lines())
    expected, expected_rejects = serial(db, source, tmp_path, "lost-serial")
    rejects = tmp_path / "lost.rejects.jsonl"
    # Two batches: the file holds both batches' rejects, the import was told of the first
    # only (the report goes with the next call); the resume cuts the file back to it.
    transfer.import_file(
        source, operator("lost"), db.dsn(), batch_size=5, rejects_path=rejects, max_batches=2
    )
    assert rejects.read_text().count("\n") == 3
    # The third slice committed by a session whose connection drops after the commit,
    # before its answer (which held the slice's rejected line) is read.
    conn = psycopg.connect(db.dsn())
    try:
        assert batch(conn, "lost", 5)["lines_done"] == 15
        conn.commit()
        with db.admin() as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [conn.info.backend_pid])
    finally:
        conn.close()
    # The main session's connection drops after its batch commits, before the answer.
    real = FactStore.import_batch
    calls = 0

    def drops_after_commit(self: FactStore, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        answer = real(self, *args)
        if calls == 2:
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return answer

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FactStore, "import_batch", drops_after_commit)
        with pytest.raises(PgfactsError):
            transfer.import_file(
                source, operator("lost"), db.dsn(), batch_size=5, rejects_path=rejects,
                sessions=1,
            )  # fmt: skip
    resumed = transfer.import_file(source, operator("lost"), db.dsn(), rejects_path=rejects)
    assert resumed["resumed"] and resumed["finished"]
    assert {k: resumed[k] for k in SUMMARY} == {k: expected[k] for k in SUMMARY}
    assert rejects.read_text() == expected_rejects
    assert state(db, "lost") == state(db, "lost-serial")
    assert held_rejects(db, "lost") == 0 and held_batches(db, "lost") == 0


def test_abandon_writes_the_rejects_of_slices_committed_ahead_of_the_checkpoint(
    db: Database, tmp_path: Path
) -> None:
    source = write_lines(tmp_path / "gone.jsonl", lines())
    rejects = tmp_path / "gone.rejects.jsonl"
    transfer.import_file(
        source, operator("gone"), db.dsn(), batch_size=5, rejects_path=rejects, max_batches=1
    )
    # The second slice is cut off; the third commits ahead of the checkpoint.
    cut = psycopg.connect(db.dsn())
    try:
        assert batch(cut, "gone", 5)["written"]
        thread, out = in_thread(lambda: _committed(db, "gone"))
        assert waits_on(db) in ("transactionid", "tuple")
    finally:
        cut.close()
    thread.join(30)
    assert out["answer"]["lines_done"] == 5 and held_batches(db, "gone") == 1
    answer = transfer.abandon_import(operator("gone"), db.dsn(), rejects_path=rejects)
    # The first slice's rejected line (3: in the file, but never reported, so the file is
    # cut back and it is written again), then the third's (13): its facts stay written.
    assert answer["abandoned"] and answer["rejects_written"] == 2
    assert [r.count('"reason"') for r in rejects.read_text().splitlines()] == [1, 1]
    assert '"key": ""' in rejects.read_text().splitlines()[1]
    assert '"value": 1' in rejects.read_text().splitlines()[1]
    assert held_rejects(db, "gone") == 0 and held_batches(db, "gone") == 0


def _committed(db: Database, tenant: str) -> dict[str, Any]:
    with psycopg.connect(db.dsn()) as conn:
        answer = batch(conn, tenant, 5)
        conn.commit()
    return answer


def test_a_helper_that_cannot_connect_leaves_the_import_to_the_others(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write_lines(tmp_path / "alone.jsonl", lines())
    expected, expected_rejects = serial(db, source, tmp_path, "alone-serial")
    real = psycopg.connect
    main = threading.current_thread()

    # psycopg.connect is the module's own: only import_file's helper threads are refused
    # (the test databases' clones are made by other threads meanwhile).
    def helpers_refused(*args: Any, **kwargs: Any) -> Any:
        if "_helper" in threading.current_thread().name:
            raise psycopg.OperationalError("connection refused (a helper's)")
        return real(*args, **kwargs)

    def all_refused(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is main or "_helper" in threading.current_thread().name:
            raise psycopg.OperationalError("connection refused (the main one)")
        return real(*args, **kwargs)

    monkeypatch.setattr(transfer.psycopg, "connect", helpers_refused)
    rejects = tmp_path / "alone.rejects.jsonl"
    answer = transfer.import_file(
        source, operator("alone"), db.dsn(), batch_size=5, rejects_path=rejects, sessions=3
    )
    assert answer["finished"] and answer["sessions"] == 1
    assert "2 of 2 helper sessions could not connect" in answer["notice"]
    assert "connection refused" in answer["notice"]
    assert {k: answer[k] for k in SUMMARY} == {k: expected[k] for k in SUMMARY}
    assert rejects.read_text() == expected_rejects
    # The command line says so once, on standard error.
    other = write_lines(
        tmp_path / "other.jsonl", [{"type": "fact", "key": "o/1", "value": 1, "shared": True}]
    )
    shown = CliRunner().invoke(
        app, ["import", str(other), "--tenant", "alone-cli", "--dsn", db.dsn()]
    )
    assert shown.exit_code == 0, shown.output
    assert " ".join(shown.stderr.split()).count("helper sessions could not connect") == 1
    # The main connection's failure still fails the import.
    monkeypatch.setattr(transfer.psycopg, "connect", all_refused)
    with pytest.raises(PgfactsError, match="the main one"):
        transfer.import_file(source, operator("alone-main"), db.dsn(), sessions=2)


def test_a_real_failure_is_reported_over_a_helpers_nothing_left(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write_lines(tmp_path / "mask.jsonl", lines())
    real = FactStore.import_batch
    main = threading.current_thread()
    told = threading.Event()
    calls = 0

    def helper_late_main_fails(self: FactStore, *args: Any) -> Any:
        nonlocal calls
        if threading.current_thread() is not main:
            told.set()
            raise NotFound("no import into this tenant is open", sqlstate="P0002")
        calls += 1
        if calls == 2:
            assert told.wait(10)
            raise PgfactsError("deadlock detected", sqlstate="40P01")
        return real(self, *args)

    monkeypatch.setattr(FactStore, "import_batch", helper_late_main_fails)
    with pytest.raises(PgfactsError) as failed:
        transfer.import_file(source, operator("mask"), db.dsn(), batch_size=5, sessions=2)
    assert failed.value.sqlstate == "40P01"
    # A helper's "nothing left" alone is no failure: the main session writes the rest.
    calls = -100
    answer = transfer.import_file(source, operator("mask"), db.dsn(), batch_size=5, sessions=2)
    assert answer["finished"] and answer["lines_done"] == len(lines())


def test_a_resume_refuses_another_batch_size(db: Database, tmp_path: Path) -> None:
    source = write_lines(tmp_path / "size.jsonl", lines())
    expected, expected_rejects = serial(db, source, tmp_path, "size-serial")
    rejects = tmp_path / "size.rejects.jsonl"
    transfer.import_file(
        source, operator("size"), db.dsn(), batch_size=5, rejects_path=rejects, max_batches=1
    )
    with pytest.raises(PgfactsError) as refused:
        transfer.import_file(source, operator("size"), db.dsn(), batch_size=7, rejects_path=rejects)
    assert refused.value.sqlstate == "PT004"
    assert "hold 5 lines, not 7" in str(refused.value)
    assert "--batch-size" in (refused.value.hint or "") and "--abandon" in (
        refused.value.hint or ""
    )
    same = transfer.import_file(
        source, operator("size"), db.dsn(), batch_size=5, rejects_path=rejects, max_batches=1
    )
    assert same["lines_done"] == 10  # the same size, named again: goes on
    resumed = transfer.import_file(source, operator("size"), db.dsn(), rejects_path=rejects)
    assert {k: resumed[k] for k in SUMMARY} == {k: expected[k] for k in SUMMARY}
    assert rejects.read_text() == expected_rejects
