"""Etags, the crawl queue (read, compare-and-set, prefix flush) and tombstone purge."""

from __future__ import annotations

import psycopg
import pytest

from .conftest import Database, count_facts
from .support.caller import Caller


def queue(call: Caller, **args: object) -> list[dict]:  # type: ignore[type-arg]
    return call("facts_read_uncrawled", {"limit": 500, **args}, kind="crawler", login="crawler")[
        "facts"
    ]


def etag_and_queued(db: Database, key: str) -> tuple[int, bool]:
    with db.admin() as admin:
        row = admin.execute(
            "SELECT etag, last_crawled_at IS NULL FROM pgfacts_internal.facts WHERE key = %s",
            (key,),
        ).fetchone()
    assert row is not None
    return row[0], row[1]


def mark_all(call: Caller) -> None:
    entries = [{"scopeKey": f["scopeKey"], "etag": f["etag"]} for f in queue(call)]
    if entries:
        call("facts_set_crawled", {"scopeKeys": entries}, kind="crawler", login="crawler")


def test_etag_and_requeue_rules(call: Caller, db: Database) -> None:
    call("store_fact", {"key": "k", "value": 1, "tags": ["a"]}, session="s")
    first, queued = etag_and_queued(db, "k")
    assert queued
    mark_all(call)
    assert etag_and_queued(db, "k") == (first, False)
    call("store_fact", {"key": "k", "value": 1, "tags": ["b"]}, session="s")  # tags only
    assert etag_and_queued(db, "k") == (first, False)
    call("store_fact", {"key": "k", "value": 1, "tags": ["b"]}, session="s")  # identical
    assert etag_and_queued(db, "k") == (first, False)
    etags = [first]
    for change in (
        lambda: call("store_fact", {"key": "k", "value": 2, "tags": ["b"]}, session="s"),
        lambda: call("delete_fact", {"key": "k"}, session="s"),
        lambda: call("store_fact", {"key": "k", "value": 2, "tags": ["b"]}, session="s"),
    ):  # a value change, a deletion, a revival: each a new etag and back in the queue
        mark_all(call)
        change()
        etag, queued = etag_and_queued(db, "k")
        assert queued and etag > etags[-1]
        etags.append(etag)


def test_a_fact_created_again_after_a_purge_never_reuses_an_etag(call: Caller) -> None:
    call("store_fact", {"key": "aba", "value": "old", "shared": True})
    [seen] = queue(call)
    call("delete_fact", {"key": "aba", "shared": True}, kind="facts_manager")
    call("facts_set_crawled", {"keyPrefix": "aba", "crawled": True}, kind="crawler")
    with_ttl_zero = call.tool_conn("facts_manager")
    with with_ttl_zero.transaction():
        with_ttl_zero.execute(
            "SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'facts_manager')"
        )
        with_ttl_zero.execute("SELECT pgfacts.purge_tombstones(ttl_seconds => 0)")
    call("store_fact", {"key": "aba", "value": "new", "shared": True})
    # The crawler's old receipt must not mark the new value crawled.
    stale = call(
        "facts_set_crawled",
        {"scopeKeys": [{"scopeKey": seen["scopeKey"], "etag": seen["etag"]}]},
        kind="crawler",
    )
    assert stale == {"affected": 0, "skipped": 1}
    assert [r["value"] for r in queue(call)] == ["new"]


def test_crawlers_do_not_see_reserved_keys_in_the_queue(call: Caller) -> None:
    call("store_fact", {"key": "intake/t/s", "value": 1, "shared": True}, session="s")
    call(
        "store_fact",
        {"key": "config/facts-manager/x", "value": 1, "shared": True},
        kind="facts_manager",
    )
    call("store_fact", {"key": "plain", "value": 1, "shared": True}, session="s")
    assert [r["key"] for r in queue(call)] == ["plain"]
    manager = call("facts_read_uncrawled", {"limit": 500}, kind="facts_manager")
    assert sorted(r["key"] for r in manager["facts"]) == [
        "config/facts-manager/x",
        "intake/t/s",
        "plain",
    ]


def test_read_uncrawled_orders_by_key_filters_a_literal_prefix_and_shows_tombstones(
    call: Caller,
) -> None:
    call(
        "store_fact",
        {"facts": [{"key": k, "value": 1} for k in ("b/2", "b/1", "b_x/1", "bb/1", "a/1")]},
        session="s",
    )
    call("delete_fact", {"key": "b/2"}, session="s")
    rows = queue(call, keyPrefix="b/")
    assert [r["key"] for r in rows] == ["b/1", "b/2"]  # '_' and '%' are not wildcards here
    assert [r["deletedAt"] is not None for r in rows] == [False, True]
    assert rows[0]["scopeKey"] == "session:s:b/1" and rows[1]["etag"] > rows[0]["etag"]
    assert [r["key"] for r in queue(call, keyPrefix="b_")] == ["b_x/1"]
    assert [r["key"] for r in queue(call)] == ["a/1", "b/1", "b/2", "b_x/1", "bb/1"]
    assert len(call("facts_read_uncrawled", {}, kind="crawler")["facts"]) == 5  # default 20
    assert len(call("facts_read_uncrawled", {"limit": 2}, kind="crawler")["facts"]) == 2
    for bad in (0, 501, -3, 1.5):
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            call("facts_read_uncrawled", {"limit": bad}, kind="crawler")


def test_set_crawled_is_a_compare_and_set_per_entry(call: Caller) -> None:
    call("store_fact", {"facts": [{"key": "x", "value": 1}, {"key": "y", "value": 1}]}, session="s")
    seen = {r["key"]: r for r in queue(call)}
    call("store_fact", {"key": "y", "value": 2}, session="s")  # y changes after the read
    result = call(
        "facts_set_crawled",
        {
            "scopeKeys": [
                {"scopeKey": seen["x"]["scopeKey"], "etag": seen["x"]["etag"]},
                {"scopeKey": seen["y"]["scopeKey"], "etag": seen["y"]["etag"]},
                {"scopeKey": "session:s:missing", "etag": 1},
            ]
        },
        kind="crawler",
    )
    assert result == {"affected": 1, "skipped": 1}  # the unknown key counts as neither
    assert [r["key"] for r in queue(call)] == ["y"]
    # A second crawler marking x again is skipped: it is already in that state.
    again = call(
        "facts_set_crawled",
        {"scopeKeys": [{"scopeKey": seen["x"]["scopeKey"], "etag": seen["x"]["etag"]}]},
        kind="crawler",
    )
    assert again == {"affected": 0, "skipped": 1}
    # No etag: an intentional stomp.
    stomp = call(
        "facts_set_crawled", {"scopeKeys": [{"scopeKey": seen["y"]["scopeKey"]}]}, kind="crawler"
    )
    assert stomp == {"affected": 1, "skipped": 0}
    assert queue(call) == []


def test_prefix_flush_skips_tombstones_and_requeue_includes_them(call: Caller) -> None:
    call(
        "store_fact",
        {
            "facts": [
                {"key": "p/1", "value": 1},
                {"key": "p/2", "value": 1},
                {"key": "q/1", "value": 1},
            ]
        },
        session="s",
    )
    call("delete_fact", {"key": "p/2"}, session="s")
    flushed = call("facts_set_crawled", {"keyPrefix": "p/", "crawled": True}, kind="crawler")
    assert flushed == {"affected": 1, "skipped": 0}
    assert [r["key"] for r in queue(call)] == ["p/2", "q/1"]
    mark_all(call)
    requeued = call("facts_set_crawled", {"keyPrefix": "p/", "crawled": False}, kind="crawler")
    assert requeued == {"affected": 2, "skipped": 0}
    assert [r["key"] for r in queue(call)] == ["p/1", "p/2"]


@pytest.mark.parametrize(
    "args",
    [
        {},
        {"keyPrefix": "a", "scopeKeys": [{"scopeKey": "x"}]},
        {"keyPrefix": ""},
        {"scopeKeys": []},
        {"scopeKeys": [{"scopeKey": ""}]},
        {"scopeKeys": [{"scopeKey": "x", "etag": 0}]},
        {"scopeKeys": [{"scopeKey": "x", "etag": 1.5}]},
        {"scopeKeys": [{"scopeKey": "x", "etag": "1.0"}]},  # a decimal string "1" is an etag
        {"scopeKeys": [{"scopeKey": "x", "etag": "01"}]},
        {"scopeKeys": [{"scopeKey": "x", "etag": None}]},
        {"scopeKeys": [{"scopeKey": "x"}, {"scopeKey": "x"}]},
        {"scopeKeys": [{"scopeKey": f"k{i}"} for i in range(501)]},
        {"keyPrefix": "a", "crawled": "yes"},
    ],
)
def test_bad_set_crawled_input_is_refused(call: Caller, args: dict[str, object]) -> None:
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call("facts_set_crawled", args, kind="crawler")


def test_purge_removes_reconciled_and_expired_tombstones_only(call: Caller, db: Database) -> None:
    call(
        "store_fact",
        {"facts": [{"key": k, "value": 1} for k in ("live", "gone", "waiting")]},
        session="s",
    )
    call("delete_fact", {"key": "gone"}, session="s")
    call("delete_fact", {"key": "waiting"}, session="s")
    gone = next(r for r in queue(call) if r["key"] == "gone")
    call(
        "facts_set_crawled",
        {"scopeKeys": [{"scopeKey": gone["scopeKey"], "etag": gone["etag"]}]},
        kind="crawler",
    )
    assert call("read_facts", {}, session="s")["count"] == 1
    with db.connect("facts_manager") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'facts_manager')")
        purged = conn.execute("SELECT pgfacts.purge_tombstones()").fetchone()
        assert purged == ({"purged": 1},)
        conn.commit()
    assert count_facts(db) == 2  # live and the unreconciled tombstone inside its TTL
    # The history of the purged fact survives the purge.
    versions = call("fact_history", {"key": "gone"}, session="s")["versions"]
    assert [(v["deleted"], v["current"]) for v in versions] == [(False, False), (True, False)]
    with db.connect("facts_manager") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'facts_manager')")
        assert conn.execute("SELECT pgfacts.purge_tombstones(ttl_seconds => 0)").fetchone() == (
            {"purged": 1},
        )
        conn.commit()
    assert count_facts(db) == 1


def test_run_maintenance_purges_every_tenant(call: Caller, db: Database) -> None:
    for tenant in ("t1", "t2"):
        call("store_fact", {"key": "k", "value": 1}, session="s", tenant=tenant)
        call("delete_fact", {"key": "k"}, session="s", tenant=tenant)
        call(
            "facts_set_crawled", {"keyPrefix": "k", "crawled": False}, kind="crawler", tenant=tenant
        )
    with db.admin() as admin:
        admin.execute("UPDATE pgfacts_internal.facts SET last_crawled_at = now()")
    with db.connect("operator") as conn:
        result = conn.execute("SELECT pgfacts.run_maintenance()").fetchone()
    assert result is not None and result[0]["purged_tombstones"] == 2
    assert count_facts(db) == 0
    for login in ("agent", "facts_manager", "tuner"):  # it crosses tenants: operators only
        with db.connect(login) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT pgfacts.run_maintenance()")
