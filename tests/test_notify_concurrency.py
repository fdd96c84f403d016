"""Intake wake-ups (NOTIFY) and concurrent writers of the same keys."""

from __future__ import annotations

import itertools
import threading

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .interleave import (
    Step,
    backend_pid,
    join_all,
    notifications_until_sentinel,
    wait_until_blocked,
)
from .support.caller import Caller

CHANNEL = "pgfacts_intake"


def notifications(listener: psycopg.Connection) -> list[str]:  # type: ignore[type-arg]
    """Every intake notification payload committed so far (no waiting on a timeout)."""
    return list(notifications_until_sentinel(listener, CHANNEL))


def read_intake(db: Database, tenant: str, kind: str = "facts_manager") -> list[dict]:  # type: ignore[type-arg]
    with db.connect("app") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => %s, agent_kind => %s)", (tenant, kind))
        row = conn.execute("SELECT pgfacts.read_intake()").fetchone()
    assert row is not None
    return row[0]["facts"]  # type: ignore[no-any-return]


def test_wakeups_carry_no_data_and_the_fetch_applies_tenant_and_kind(
    call: Caller, db: Database
) -> None:
    """NOTIFY reaches every login of the database and anyone can send one: the intake
    channel is a doorbell with an empty payload, and read_intake() is what the listener
    learns from, under its own tenant and kind."""
    with (
        db.connect("facts_manager", autocommit=True) as listener,
        db.connect("nobody", autocommit=True) as outsider,
    ):
        listener.execute(f"LISTEN {CHANNEL}")
        outsider.execute(f"LISTEN {CHANNEL}")  # a login holding no pgfacts role
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
        call(
            "store_fact",
            {"key": "intake/secret-of-t2", "value": "x", "shared": True},
            tenant="t2",
            session="other",
            agent="spy-target",
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
        # Anyone can ring the bell with anything; it carries no weight.
        outsider.execute(
            "SELECT pg_notify(%s, %s)",
            (CHANNEL, '{"tenant": "t1", "key": "intake/forged", "etag": 1}'),
        )
        got = notifications(listener)
        overheard = notifications(outsider)
    # Two committed shared intake writes (t1 and t2) and the forgery: no tenant, key,
    # session or agent ever travels on the channel.
    assert got[:2] == ["", ""] and len(got) == 3
    assert overheard[:2] == ["", ""]
    assert not any("t2" in p or "secret" in p or "worker" in p for p in got + overheard)
    # What woke the listener, in its own tenant only; the forgery added nothing.
    t1 = read_intake(db, "t1")
    assert [(f["key"], f["session_id"], f["agent_id"]) for f in t1] == [
        ("intake/topic/s1", "s1", "worker")
    ]
    assert (
        t1[0]["etag"] > 0 and t1[0]["updated_at"] and t1[0]["scope_key"] == "shared:intake/topic/s1"
    )
    assert [f["key"] for f in read_intake(db, "t2")] == ["intake/secret-of-t2"]
    assert [f["key"] for f in read_intake(db, "t1", kind="tuner")] == ["intake/topic/s1"]
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        read_intake(db, "t1", kind="agent")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        read_intake(db, "t1", kind="crawler")


def test_marked_intake_leaves_the_fetch_until_it_changes(call: Caller, db: Database) -> None:
    call("store_fact", {"key": "intake/a", "value": 1, "shared": True}, session="s1")
    call("store_fact", {"key": "intake/b", "value": 1, "shared": True}, session="s1")
    pending = read_intake(db, "t1")
    assert [f["key"] for f in pending] == ["intake/a", "intake/b"]
    receipt = [{"scopeKey": f["scope_key"], "etag": f["etag"]} for f in pending]
    call("facts_set_crawled", {"scopeKeys": receipt}, kind="facts_manager")
    assert read_intake(db, "t1") == []
    call("store_fact", {"key": "intake/a", "value": 2, "shared": True}, session="s1")
    assert [f["key"] for f in read_intake(db, "t1")] == ["intake/a"]


def test_eight_writers_of_the_same_keys(db: Database, call: Caller) -> None:
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
    join_all(threads)
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
    join_all(threads)
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
