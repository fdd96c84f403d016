"""Rules that close holes: tenant bindings, scope-key shapes, ownership, settings bounds,
spawn trees registered out of order, and one instant per transaction."""

from __future__ import annotations

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import Context, FactStore, InvalidParameter

from .conftest import Database, count_facts
from .support.caller import Caller


def test_a_bound_login_acts_only_for_its_tenant(call: Caller, db: Database) -> None:
    call("store_fact", {"key": "secret", "value": "t2 only", "shared": True}, tenant="t2")
    assert call("store_fact", {"key": "k", "value": 1, "shared": True}, login="bound", tenant="t1")[
        "stored"
    ]
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
        call("read_facts", {}, login="bound", tenant="t2")
    assert "may not act for tenant 't2'" in str(info.value)
    # Writing the setting directly does not get around it: every read checks it again.
    with db.connect("bound") as conn:
        conn.execute(
            "SELECT set_config('pgfacts.tenant', 't2', true), "
            "set_config('pgfacts.agent_kind', 'tuner', true)"
        )
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM pgfacts_internal.facts")
        conn.rollback()
        conn.execute("SELECT set_config('pgfacts.tenant', 't2', true)")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM pgfacts.read_facts()")
    assert count_facts(db, "tenant = 't2'") == 1


def test_session_ids_cannot_forge_scope_keys(call: Caller) -> None:
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call("store_fact", {"key": "password", "value": 1}, session="victim:tree")
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call("read_facts", {}, session="s", parent="a:b")


def test_overwriting_a_shared_fact_does_not_take_it_over(call: Caller) -> None:
    call("store_fact", {"key": "policy", "value": "v", "shared": True}, session="sa", agent="alice")
    call(
        "store_fact", {"key": "policy", "value": "v", "shared": True}, session="sm", agent="mallory"
    )
    call(
        "store_fact", {"key": "policy", "value": "w", "shared": True}, session="sm", agent="mallory"
    )
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call("delete_fact", {"key": "policy", "shared": True}, session="sm", agent="mallory")
    assert call("delete_fact", {"key": "policy", "shared": True}, session="sa", agent="alice")[
        "deleted"
    ]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("tombstone_ttl_seconds", 3_000_000_000),
        ("value_max_bytes", 10**20),
        ("value_max_bytes", 0),
        ("value_max_bytes", 1.5),
        ("nonsense", 1),
    ],
)
def test_settings_stay_within_bounds(db: Database, name: str, value: object) -> None:
    with db.connect("operator") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'operator')")
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            conn.execute("SELECT pgfacts.set_setting(%s, %s)", (name, Jsonb(value)))


def test_a_root_may_later_name_its_parent_but_never_a_cycle(call: Caller) -> None:
    call("store_fact", {"key": "g", "value": 1}, session="G")
    call("store_fact", {"key": "c", "value": 1}, session="C", parent="P")  # P: a root for now
    call("store_fact", {"key": "p", "value": 1}, session="P", parent="G")  # P joins G's tree
    seen = call("read_facts", {}, session="G")
    assert sorted(f["key"] for f in seen["facts"]) == ["c", "g", "p"]
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("read_facts", {}, session="G", parent="C")  # C is G's descendant now
    assert "spawn trees have no cycles" in (info.value.diag.message_hint or "")
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call("read_facts", {}, session="P", parent="other")  # a set parent never changes


def test_a_child_that_reads_first_already_sees_its_tree(call: Caller) -> None:
    call("store_fact", {"key": "plan", "value": 1}, session="root")
    seen = call("read_facts", {}, session="fresh-child", parent="root")
    assert [f["key"] for f in seen["facts"]] == ["plan"]


def test_a_batch_becomes_known_at_one_instant(call: Caller, db: Database) -> None:
    call("store_fact", {"facts": [{"key": f"b{i}", "value": i} for i in range(50)]}, session="s")
    with db.admin() as admin:
        instants = admin.execute(
            "SELECT count(DISTINCT lower(system_time)) FROM pgfacts_internal.facts"
        ).fetchone()
    assert instants == (1,)
    # Two changes of one fact in one transaction leave one version, not an empty range.
    with db.connect("agent") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', session_id => 's')")
        conn.execute("SELECT pgfacts.store_fact('twice', '1')")
        conn.execute("SELECT pgfacts.store_fact('twice', '2')")
        conn.commit()
    versions = call("fact_history", {"key": "twice"}, session="s")["versions"]
    assert [v["value"] for v in versions] == [2]


def test_a_nul_character_or_broken_json_from_a_client_is_refused(db: Database) -> None:
    with FactStore(db.dsn("agent"), context=Context(tenant="t1", session_id="s")) as store:
        with pytest.raises(InvalidParameter) as info:
            store.store_fact("k", "a\x00b")
        assert info.value.sqlstate and info.value.sqlstate.startswith("22")
    with db.connect("agent", autocommit=True) as conn, pytest.raises(psycopg.errors.DataError):
        conn.execute(
            "SELECT pgfacts.call_tool('store_fact', %s::jsonb, %s)",
            ('{"key": "k", "value": }', Jsonb({"tenant": "t1", "session_id": "s"})),
        )
    assert count_facts(db) == 0
