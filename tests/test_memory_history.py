"""History across a purge: a fact created again starts after its purged history ends.

facts_before_insert searches the history only when a purge ended some after the writing
transaction began (fact_purges, note_history_end); these tests are the two ways that can
happen, and the version written next would overlap the purged history (the exclusion
constraint fact_versions_no_overlap refuses it) if the new fact started at now().
"""

from __future__ import annotations

import itertools
from typing import Any

from .conftest import Database
from .support.caller import Caller

MANAGER = "SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'facts_manager')"
STORE = "SELECT pgfacts.store_fact('k', %s::jsonb, shared => true)"


def history(db: Database) -> list[tuple[Any, ...]]:
    """Every version of shared:k, archived and current, by start (superuser, inspection)."""
    with db.admin() as admin:
        return admin.execute(
            """SELECT value, system_time FROM pgfacts_internal.fact_versions
                WHERE tenant = 't1' AND scope_key = 'shared:k'
               UNION ALL
               SELECT value, system_time FROM pgfacts_internal.facts
                WHERE tenant = 't1' AND scope_key = 'shared:k'
               ORDER BY 2"""
        ).fetchall()


def assert_ordered(versions: list[tuple[Any, ...]]) -> None:
    for earlier, later in itertools.pairwise(versions):
        assert earlier[1].upper is not None and earlier[1].upper <= later[1].lower, versions


def test_a_fact_purged_and_created_again_in_one_transaction_starts_after_its_history(
    db: Database,
) -> None:
    with db.connect("facts_manager") as conn:
        conn.execute(MANAGER)
        conn.execute(STORE, ("1",))
        conn.execute("SELECT pgfacts.delete_fact('k', shared => true)")
        assert conn.execute("SELECT pgfacts.purge_tombstones(ttl_seconds => 0)").fetchone() == (
            {"purged": 1},
        )
        conn.execute(STORE, ("2",))  # the purged tombstone's history ends after now()
        conn.commit()
        conn.execute(MANAGER)
        conn.execute(STORE, ("3",))  # archives "2", which must not overlap the tombstone
        conn.commit()
    versions = history(db)
    assert [v[0] for v in versions] == [1, 2, 3]
    assert_ordered(versions)


def test_a_fact_created_again_after_a_later_transaction_purged_it_starts_after_that(
    call: Caller, db: Database
) -> None:
    with db.connect("facts_manager") as early:
        early.execute(MANAGER)  # this transaction began before the purge below
        started = early.execute("SELECT now()").fetchone()
        # Another transaction stores, deletes and purges the fact, and commits.
        call("store_fact", {"key": "k", "value": 1, "shared": True}, kind="facts_manager")
        call("delete_fact", {"key": "k", "shared": True}, kind="facts_manager")
        with db.connect("facts_manager", autocommit=True) as purger, purger.transaction():
            purger.execute(MANAGER)
            purged = purger.execute("SELECT pgfacts.purge_tombstones(ttl_seconds => 0)")
            assert purged.fetchone() == ({"purged": 1},)
        early.execute(STORE, ("2",))
        early.commit()
    versions = history(db)
    assert started is not None and versions[-1][1].lower > started[0]
    # The next version archives "2"; it would overlap the purged history otherwise.
    call("store_fact", {"key": "k", "value": 3, "shared": True}, kind="facts_manager")
    versions = history(db)
    assert [v[0] for v in versions] == [1, 1, 2, 3]
    assert_ordered(versions)


def test_a_purge_notes_where_its_tenants_history_ends(db: Database) -> None:
    with db.connect("facts_manager") as conn:
        conn.execute(MANAGER)
        conn.execute(STORE, ("1",))
        conn.execute("SELECT pgfacts.delete_fact('k', shared => true)")
        conn.commit()
        conn.execute(MANAGER)
        conn.execute("SELECT pgfacts.purge_tombstones(ttl_seconds => 0)")
        conn.commit()
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT tenant, history_until = (SELECT max(upper(system_time)) "
            "FROM pgfacts_internal.fact_versions) FROM pgfacts_internal.fact_purges"
        ).fetchall()
    assert rows == [("t1", True)]


def test_one_purge_across_tenants_notes_each_tenants_history_end(
    call: Caller, db: Database
) -> None:
    for tenant in ("t1", "t2"):
        for key in ("a", "b"):
            call("store_fact", {"key": key, "value": 1}, session="s", tenant=tenant)
            call("delete_fact", {"key": key}, session="s", tenant=tenant)
    with db.admin() as admin:
        admin.execute("UPDATE pgfacts_internal.facts SET last_crawled_at = now()")
    with db.connect("operator") as conn:  # one statement purges both tenants' tombstones
        result = conn.execute("SELECT pgfacts.run_maintenance()").fetchone()
    assert result is not None and result[0]["purged_tombstones"] == 4
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT p.tenant, p.history_until = (SELECT max(upper(v.system_time)) "
            "FROM pgfacts_internal.fact_versions AS v WHERE v.tenant = p.tenant) "
            "FROM pgfacts_internal.fact_purges AS p ORDER BY 1"
        ).fetchall()
    assert rows == [("t1", True), ("t2", True)]
