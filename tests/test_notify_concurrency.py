"""Intake wake-ups (NOTIFY) and concurrent writers of the same keys."""

from __future__ import annotations

import itertools
import json
import threading

import psycopg
from psycopg.types.json import Jsonb

from .conftest import Database, ToolCaller
from .interleave import Step, backend_pid, notifications_until_sentinel, wait_until_blocked

CHANNEL = "pgfacts_intake"


def notifications(listener: psycopg.Connection) -> list[dict]:  # type: ignore[type-arg]
    """Every intake notification committed so far (no waiting on a timeout)."""
    return [json.loads(p) for p in notifications_until_sentinel(listener, CHANNEL)]


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
            # History is complete: every write (all values differ) is exactly one version,
            # and the versions tile system time, without gaps, up to the current one.
            written = {(n, r) for n in range(writers) for r in range(rounds)}
            seen = [(v["writer"], v["round"]) for v, _ in versions] + [
                (current[0]["writer"], current[0]["round"])
            ]
            assert sorted(seen) == sorted(written)
            for (_, earlier), (_, later) in itertools.pairwise(versions):
                assert earlier.upper == later.lower
            assert versions[-1][1].upper == current[2]
            # Last write wins: each writer's rounds appear in its own order, and the value
            # left current is the final round of some writer (the last to commit).
            for n in range(writers):
                rounds_of_n = [r for w, r in seen if w == n]
                assert rounds_of_n == sorted(rounds_of_n)
            assert current[0]["round"] == rounds - 1


def test_concurrent_batches_in_opposite_orders_do_not_deadlock(db: Database) -> None:
    keys = [f"batch/{i:03}" for i in range(200)]
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def write(n: int) -> None:
        order = keys if n % 2 else list(reversed(keys))
        try:
            with db.connect("agent", autocommit=True) as conn:
                barrier.wait()
                for r in range(10):
                    conn.execute(
                        "SELECT pgfacts.call_tool('store_fact', %s, %s)",
                        (
                            Jsonb(
                                {
                                    "facts": [
                                        {"key": k, "value": [n, r], "shared": True} for k in order
                                    ]
                                }
                            ),
                            Jsonb({"tenant": "t1", "session_id": f"b{n}"}),
                        ),
                    )
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_a_batch_waits_for_the_first_key_in_lock_order_and_holds_nothing_meanwhile(
    db: Database,
) -> None:
    """Session 1 writes k1..k3 in a transaction; session 2's batch lists them in reverse
    order and blocks (seen in pg_stat_activity) on the first key in scope-key order, so it
    holds none of them; session 1 can then write them again in any order without a
    deadlock, commits, and session 2 goes through after it."""

    def store(conn: psycopg.Connection, keys: list[str], writer: str) -> None:  # type: ignore[type-arg]
        conn.execute(
            "SELECT pgfacts.call_tool('store_fact', %s, %s)",
            (
                Jsonb({"facts": [{"key": k, "value": writer, "shared": True} for k in keys]}),
                Jsonb({"tenant": "t1", "session_id": writer}),
            ),
        )

    keys = ["order/k1", "order/k2", "order/k3"]
    with (
        db.connect("agent") as one,
        db.connect("agent", autocommit=True) as two,
        db.admin() as observer,
    ):
        store(one, keys, "one")  # transaction open: holds k1..k3
        second = Step(lambda: store(two, list(reversed(keys)), "two"))
        wait_until_blocked(observer, backend_pid(two), second)
        store(one, list(reversed(keys)), "one-again")  # would deadlock if two held k3
        one.commit()
        second.result()
    with db.admin() as admin:
        values = admin.execute(
            "SELECT key, value FROM pgfacts_internal.facts WHERE key LIKE 'order/%' ORDER BY key"
        ).fetchall()
    assert values == [(k, "two") for k in keys]
