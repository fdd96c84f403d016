"""Explicit interleavings for concurrency tests, in the spirit of PostgreSQL's isolation
specs: a step runs in the background, and the test waits for a known state (a backend
blocked on a lock, a notification that must come last) instead of sleeping or joining
with a timeout. Deadlines are generous and only bound a hang; no outcome depends on them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

import psycopg

T = TypeVar("T")
DEADLINE = 60.0  # seconds; reached only when something hangs
_POLL = 0.01


class Step(Generic[T]):
    """A step running in its own thread; ``result()`` waits for it and re-raises."""

    def __init__(self, action: Callable[[], T]) -> None:
        self._result: list[T] = []
        self._error: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, args=(action,), daemon=True)
        self._thread.start()

    def _run(self, action: Callable[[], T]) -> None:
        try:
            self._result.append(action())
        except BaseException as exc:  # handed to result()
            self._error.append(exc)

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def result(self, deadline: float = DEADLINE) -> T:
        self._thread.join(deadline)
        if self._thread.is_alive():
            raise AssertionError(f"step still running after {deadline} s: it hangs")
        if self._error:
            raise self._error[0]
        return self._result[0]


def join_all(threads: list[threading.Thread], deadline: float = DEADLINE) -> None:
    """Join every thread by one shared deadline; a thread still running then fails the
    test (a deadlock or a hang) instead of hanging the suite."""
    end = time.monotonic() + deadline
    for thread in threads:
        thread.join(max(0.0, end - time.monotonic()))
    hung = [thread.name for thread in threads if thread.is_alive()]
    if hung:
        raise AssertionError(f"threads still running after {deadline} s: {hung}")


def backend_pid(conn: psycopg.Connection[Any]) -> int:
    return int(conn.info.backend_pid)


def wait_until_blocked(
    observer: psycopg.Connection[Any], pid: int, step: Step[Any] | None = None
) -> None:
    """Return once backend ``pid`` waits for a heavyweight lock (row, transaction, advisory,
    relation); fail if ``step`` finishes first, which would mean it never blocked."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        row = observer.execute(
            "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,)
        ).fetchone()
        if row is not None and row[0] == "Lock":
            return
        if step is not None and step.done:
            step.result()  # re-raises its error, if any
            raise AssertionError(f"backend {pid} finished without waiting for a lock")
        time.sleep(_POLL)
    raise AssertionError(f"backend {pid} did not block on a lock within {DEADLINE} s")


SENTINEL = "interleave:sentinel"


def notifications_until_sentinel(listener: psycopg.Connection[Any], channel: str) -> Iterator[str]:
    """Payloads on ``channel`` committed before this call, in commit order: the listener
    sends a sentinel notification itself and reads until it arrives (notifications are
    delivered in commit order, so every earlier one has arrived by then)."""
    listener.execute("SELECT pg_notify(%s, %s)", (channel, SENTINEL))
    for notify in listener.notifies(timeout=DEADLINE):
        if notify.payload == SENTINEL:
            return
        yield notify.payload
    raise AssertionError(f"the sentinel notification did not arrive within {DEADLINE} s")
