"""Intake wake-ups (NOTIFY) and concurrent writers of the same keys."""

from __future__ import annotations

import itertools
import json
import threading

import psycopg
from psycopg.types.json import Jsonb

from .conftest import Database, ToolCaller

CHANNEL = "pgfacts_intake"


def notifications(listener: psycopg.Connection) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(n.payload) for n in listener.notifies(timeout=0.5, stop_after=None)]


def test_only_committed_shared_intake_writes_notify(call: ToolCaller, db: Database) -> None:
    with db.connect("app", autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        call(
            "store_fact",
            {"key": "intake/topic/s1", "value": "obs", "shared": True},
            session="s1",
            agent="worker",
        )
        call("store_fact", {"key": "intake/topic/private", "value": 1}, session="s1")
        call("store_fact", {"key": "notes/plain", "value": 1, "shared": True}, session="s1")
        call(
            "store_fact",
            {"key": "intake/topic/s1", "value": "obs", "shared": True, "tags": ["only-tags"]},
            session="s1",
            agent="worker",
        )
        with db.connect("app") as writer:  # rolled back: nothing is sent
            writer.execute(
                "SELECT pgfacts.call_tool('store_fact', %s, %s)",
                (
                    Jsonb({"key": "intake/rolled", "value": 1, "shared": True}),
                    Jsonb({"tenant": "t1", "session_id": "s1"}),
                ),
            )
            writer.rollback()
        got = notifications(listener)
    assert len(got) == 1
    payload = got[0]
    assert payload["key"] == "intake/topic/s1"
    assert (payload["sessionId"], payload["agentId"], payload["tenant"]) == ("s1", "worker", "t1")
    assert payload["at"]


def test_eight_writers_of_the_same_keys(db: Database, call: ToolCaller) -> None:
    writers, rounds, keys = 8, 25, ["k1", "k2", "k3"]
    barrier = threading.Barrier(writers)
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            with db.connect("agent", autocommit=True) as conn:
                barrier.wait()
                for r in range(rounds):
                    for key in keys:
                        conn.execute(
                            "SELECT pgfacts.call_tool('store_fact', %s, %s)",
                            (
                                Jsonb(
                                    {"key": key, "value": {"writer": n, "round": r}, "shared": True}
                                ),
                                Jsonb({"tenant": "t1", "session_id": f"w{n}", "agent_id": f"w{n}"}),
                            ),
                        )
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with db.admin() as admin:
        for key in keys:
            current = admin.execute(
                "SELECT value, etag, lower(system_time) FROM pgfacts_internal.facts "
                "WHERE scope_key = %s",
                (f"shared:{key}",),
            ).fetchone()
            assert current is not None
            versions = admin.execute(
                "SELECT value, system_time FROM pgfacts_internal.fact_versions "
                "WHERE scope_key = %s ORDER BY lower(system_time)",
                (f"shared:{key}",),
            ).fetchall()
            # History is complete: every write is a version (values differ per writer/round),
            # and the versions tile system time up to the current one without gaps.
            assert len(versions) + 1 == writers * rounds
            assert current[1] == writers * rounds
            for (_, earlier), (_, later) in itertools.pairwise(versions):
                assert earlier.upper == later.lower
            assert versions[-1][1].upper == current[2]
            # Last write wins: the current value is the one whose version started last.
            last_writer = admin.execute(
                "SELECT agent_id FROM pgfacts_internal.facts WHERE scope_key = %s",
                (f"shared:{key}",),
            ).fetchone()
            assert last_writer is not None
            assert current[0]["writer"] == int(last_writer[0][1:])
