"""Tenant settings: each layer registers its own (name, type, bounds, default) from its
folder; set_setting checks a value against the registration, setting() falls back to it."""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from .conftest import Database


def operator(db: Database) -> psycopg.Connection:
    conn = db.connect("operator")
    conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'operator')")
    return conn


def test_every_layer_registers_its_settings_in_order(db: Database) -> None:
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT layer, name, value_type, minimum, maximum, default_value "
            "FROM pgfacts_internal.setting_definitions ORDER BY position"
        ).fetchall()
    assert [
        (layer, name, kind, str(low), str(high), value)
        for layer, name, kind, low, high, value in rows
    ] == [
        ("10_memory", "value_max_bytes", "integer", "1", "67108864", 1048576),
        ("10_memory", "tombstone_ttl_seconds", "integer", "1", "315360000", 21600),
        ("10_memory", "bulk_max_records", "integer", "1", "100000", 50000),
        ("10_memory", "bulk_max_bytes", "integer", "1", "134217728", 33554432),
        ("10_memory", "usage_tracking", "integer", "0", "1", 1),
        ("20_knowledge", "confidence_floor", "number", "0", "1", 0.55),
        ("50_pipeline", "extraction_lease_seconds", "integer", "10", "86400", 300),
        ("50_pipeline", "extraction_max_attempts", "integer", "1", "100", 5),
        ("50_pipeline", "extraction_backoff_seconds", "integer", "1", "3600", 5),
        ("50_pipeline", "extraction_backoff_max_seconds", "integer", "1", "604800", 3600),
        ("60_governance", "audit_enabled", "integer", "0", "1", 1),
        ("60_governance", "audit_retention_days", "integer", "1", "36500", 365),
        ("60_governance", "review_below_trust", "integer", "0", "4", 0),
        ("60_governance", "review_below_confidence", "number", "0", "1", 0),
        ("60_governance", "episode_retention_seconds", "integer", "0", "2147483647", 0),
        ("60_governance", "memory_retention_seconds", "integer", "0", "2147483647", 0),
    ]


def test_an_unknown_setting_names_the_registered_ones(db: Database) -> None:
    with operator(db) as conn, pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        conn.execute("SELECT pgfacts.set_setting('nonsense', '1')")
    assert info.value.diag.message_primary == "unknown setting 'nonsense'"
    assert info.value.diag.message_hint == (
        "one of: value_max_bytes, tombstone_ttl_seconds, bulk_max_records, bulk_max_bytes, "
        "usage_tracking, confidence_floor, extraction_lease_seconds, extraction_max_attempts, "
        "extraction_backoff_seconds, extraction_backoff_max_seconds, audit_enabled, "
        "audit_retention_days, review_below_trust, review_below_confidence, "
        "episode_retention_seconds, memory_retention_seconds"
    )


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("confidence_floor", 1.5, "confidence_floor must be a number from 0 to 1"),
        ("confidence_floor", "high", "confidence_floor must be a number from 0 to 1"),
        (
            "value_max_bytes",
            0,
            "setting value_max_bytes must be a positive integer of at most 67108864",
        ),
        (
            "tombstone_ttl_seconds",
            1.5,
            "setting tombstone_ttl_seconds must be a positive integer of at most 315360000",
        ),
    ],
)
def test_a_value_outside_its_registration_is_refused(
    db: Database, name: str, value: object, message: str
) -> None:
    with operator(db) as conn, pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        conn.execute("SELECT pgfacts.set_setting(%s, %s)", (name, Jsonb(value)))
    assert info.value.diag.message_primary == message


def test_a_setting_reads_the_tenants_value_else_the_registered_default(db: Database) -> None:
    with operator(db) as conn:
        conn.execute("SELECT pgfacts.set_setting('tombstone_ttl_seconds', '60')")
    with db.admin() as admin:
        read = "SELECT pgfacts_internal.setting(%s, 'tombstone_ttl_seconds')"
        assert admin.execute(read, ("t1",)).fetchone() == (60,)
        assert admin.execute(read, ("t2",)).fetchone() == (21600,)
        with pytest.raises(psycopg.errors.UndefinedObject):
            admin.execute("SELECT pgfacts_internal.setting('t1', 'nonsense')")


def test_a_new_layer_registers_a_setting_without_touching_foundation(db: Database) -> None:
    with db.admin() as admin:
        admin.execute("SET ROLE pgfacts_owner")
        admin.execute(
            "SELECT pgfacts_internal.register_setting('40_graph', 'graph_depth', 'integer', "
            "1, 10, '3', 'How deep a graph walk goes.')"
        )
        with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
            admin.execute(
                "SELECT pgfacts_internal.register_setting('40_graph', 'graph_width', 'integer', "
                "1, 10, '30', 'A default outside its own bounds.')"
            )
        assert info.value.diag.message_primary == (
            "setting graph_width must be a positive integer of at most 10"
        )
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            admin.execute(
                "SELECT pgfacts_internal.register_setting('40_graph', 'graph_mode', 'text', "
                "1, 10, '3', 'Not a type settings have.')"
            )
        admin.execute("RESET ROLE")  # the superuser reads every tenant's settings
        assert admin.execute("SELECT pgfacts_internal.setting('t1', 'graph_depth')").fetchone() == (
            3,
        )
    with operator(db) as conn:
        assert conn.execute("SELECT pgfacts.set_setting('graph_depth', '5')").fetchone() == (
            {"tenant": "t1", "name": "graph_depth", "value": 5},
        )
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            conn.execute("SELECT pgfacts.set_setting('graph_depth', '11')")


def test_only_the_definitions_register_settings(db: Database) -> None:
    with db.connect("operator") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(
            "SELECT pgfacts_internal.register_setting('40_graph', 'graph_depth', 'integer', "
            "1, 10, '3', 'x')"
        )


def test_the_sql_reference_lists_every_registered_setting(db: Database) -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "sql-api.md").read_text()
    listed = re.findall(r"^\| `([a-z_]+)` \| [^|]+ \| [a-z]+, (\S+) to (\S+) \| (\S+)", text, re.M)
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT name, minimum::text, maximum::text, default_value::text "
            "FROM pgfacts_internal.setting_definitions ORDER BY position"
        ).fetchall()
    assert listed == rows
