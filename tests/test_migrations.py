"""The migration runner: idempotent, concurrency-safe, tamper-evident, schema-name aware."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import psycopg
import pytest

from pgfacts import MigrationError, migrate, resources
from pgfacts.migrator import load_definitions, load_migrations

from .catalog import snapshot
from .interleave import join_all


def ledger(dsn: str, schema: str = "pgfacts") -> list[tuple[str, str, str]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(
            f"SELECT kind, name, sha256 FROM {schema}_internal.schema_ledger ORDER BY 1, 2"
        ).fetchall()


def test_migrate_three_times_is_once(empty_db: str) -> None:
    first = migrate(empty_db)
    assert first.applied == [m.name for m in load_migrations()]
    assert first.definitions_applied
    after_one = snapshot(empty_db, "pgfacts")
    rows_after_one = ledger(empty_db)
    second = migrate(empty_db)
    third = migrate(empty_db)
    assert not second.changed and not third.changed
    assert snapshot(empty_db, "pgfacts") == after_one
    assert ledger(empty_db) == rows_after_one


def test_ten_concurrent_migrators_apply_once(empty_db: str) -> None:
    barrier = threading.Barrier(10)
    reports = []
    errors: list[BaseException] = []

    def run() -> None:
        barrier.wait()
        try:
            reports.append(migrate(empty_db))
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(10)]
    for thread in threads:
        thread.start()
    join_all(threads)
    assert errors == []
    assert len(reports) == 10
    assert sum(1 for r in reports if r.applied) == 1
    assert sum(1 for r in reports if r.definitions_applied) == 1
    names = [name for kind, name, _ in ledger(empty_db) if kind == "migration"]
    assert names == [m.name for m in load_migrations()]


def test_edited_applied_migration_is_refused(empty_db: str, tmp_path: Path) -> None:
    migrate(empty_db)
    before = snapshot(empty_db, "pgfacts")
    edited = tmp_path / "migrations"
    shutil.copytree(resources.migrations_dir(), edited)
    first = sorted(edited.glob("*.sql"))[0]
    first.write_text(first.read_text() + "\n-- a harmless-looking edit\n")
    with pytest.raises(MigrationError) as info:
        migrate(empty_db, migrations_dir=edited)
    assert "was edited after it was applied" in info.value.message
    assert first.name in info.value.message
    assert info.value.hint and "new migration" in info.value.hint
    assert snapshot(empty_db, "pgfacts") == before


def test_newer_schema_is_refused(empty_db: str) -> None:
    migrate(empty_db)
    with psycopg.connect(empty_db) as conn:
        conn.execute(
            "INSERT INTO pgfacts_internal.schema_ledger (kind, name, sha256, package_version) "
            "VALUES ('migration', '9999_from_the_future.sql', repeat('a', 64), '9.9.9')"
        )
    with pytest.raises(MigrationError) as info:
        migrate(empty_db)
    assert info.value.sqlstate == "55000"
    assert "newer than this package" in info.value.message
    assert "9999_from_the_future.sql" in info.value.message


def test_invalid_schema_name_is_refused(empty_db: str) -> None:
    with pytest.raises(MigrationError) as info:
        migrate(empty_db, "Bad-Name; drop")
    assert info.value.sqlstate == "22023"


def test_failed_migration_leaves_nothing(empty_db: str, tmp_path: Path) -> None:
    broken = tmp_path / "migrations"
    shutil.copytree(resources.migrations_dir(), broken)
    (broken / "9000_broken.sql").write_text(
        "CREATE TABLE @schema@_internal.half_done (id int);\nSELECT 1 / 0;\n"
    )
    with pytest.raises(MigrationError) as info:
        migrate(empty_db, migrations_dir=broken)
    assert info.value.sqlstate == "22012"
    assert "9000_broken.sql" in info.value.message
    with psycopg.connect(empty_db) as conn:
        gone = conn.execute("SELECT to_regclass('pgfacts_internal.half_done')").fetchone()
    assert gone == (None,)
    assert "9000_broken.sql" not in [name for _, name, _ in ledger(empty_db)]


def test_upgrade_through_every_migration_equals_fresh_install(
    empty_db: str, server_dsn: str
) -> None:
    names = [m.name for m in load_migrations()]
    upgraded = empty_db
    for name in names:
        report = migrate(upgraded, target=name)
        assert report.applied == [name]
    migrate(upgraded)

    from .conftest import _fresh_database, with_db

    for fresh_name in _fresh_database(server_dsn, "template0"):
        fresh = with_db(server_dsn, fresh_name)
        migrate(fresh)
        assert snapshot(upgraded, "pgfacts") == snapshot(fresh, "pgfacts")
        assert ledger(upgraded) == ledger(fresh)


def test_changed_definitions_are_reapplied(empty_db: str, tmp_path: Path) -> None:
    """An install whose sql/ definitions are older converges on the current ones."""
    old_definitions = tmp_path / "sql"
    shutil.copytree(resources.definitions_dir(), old_definitions)
    context = next(old_definitions.rglob("*context.sql"))
    context.write_text(
        context.read_text().replace(
            "parent_session_id needs a session_id", "needs a session (old text)"
        )
    )
    (old_definitions / "00_foundation" / "98_removed_since.sql").write_text("SELECT 1;\n")
    migrate(empty_db, definitions_dir=old_definitions)
    with psycopg.connect(empty_db) as conn:
        body = conn.execute("SELECT prosrc FROM pg_proc WHERE proname = 'set_context'").fetchone()
    assert body is not None and "old text" in body[0]
    report = migrate(empty_db)
    assert report.definitions_applied and report.applied == []
    with psycopg.connect(empty_db) as conn:
        body = conn.execute("SELECT prosrc FROM pg_proc WHERE proname = 'set_context'").fetchone()
    assert body is not None and "old text" not in body[0]
    # The ledger lists the definitions as they are now: a removed file leaves it.
    assert [name for kind, name, _ in ledger(empty_db) if kind == "definition"] == sorted(
        d.name for d in load_definitions()
    )


def test_two_schema_names_coexist(empty_db: str) -> None:
    migrate(empty_db, "pgfacts")
    migrate(empty_db, "pgfacts_b")
    a = snapshot(empty_db, "pgfacts")
    b = snapshot(empty_db, "pgfacts_b")
    assert len(a["functions"]) == len(b["functions"]) > 0
    assert ledger(empty_db, "pgfacts") != [] and ledger(empty_db, "pgfacts_b") != []
    with psycopg.connect(empty_db) as conn:
        versions = [
            conn.execute(f"SELECT {s}.schema_version() ->> 'schema'").fetchone()
            for s in ("pgfacts", "pgfacts_b")
        ]
        owners = conn.execute(
            "SELECT nspname, pg_get_userbyid(nspowner) FROM pg_namespace "
            "WHERE nspname IN ('pgfacts', 'pgfacts_b') ORDER BY 1"
        ).fetchall()
    assert versions == [("pgfacts",), ("pgfacts_b",)]
    assert owners == [("pgfacts", "pgfacts_owner"), ("pgfacts_b", "pgfacts_b_owner")]
    # Migrating one again touches neither.
    assert not migrate(empty_db, "pgfacts_b").changed


# Knowledge as release 0004 stored it: A and B say the same value in their own words (the
# row keeps A's), C says tea, D says coffee and replaces tea (tea narrowed to a copy).
KNOWLEDGE_AT_0004 = """
INSERT INTO pgfacts_internal.predicates (tenant, name, cardinality)
VALUES ('t', 'lives_in', 'one'), ('t', 'likes', 'many');
INSERT INTO pgfacts_internal.entities (tenant, entity_id, kind, name)
OVERRIDING SYSTEM VALUE VALUES ('t', 1, 'person', 'p');
INSERT INTO pgfacts_internal.episodes (tenant, episode_id, source_kind, source_ref,
    content_hash, trust, recorded_at)
OVERRIDING SYSTEM VALUE VALUES
    ('t', 1, 'doc', 'A', 'a', 'agent', '2026-01-01 00:00:01+00'),
    ('t', 2, 'doc', 'B', 'b', 'agent', '2026-01-01 00:00:02+00'),
    ('t', 3, 'doc', 'C', 'c', 'agent', '2026-01-01 00:00:03+00'),
    ('t', 4, 'doc', 'D', 'd', 'agent', '2026-01-01 00:00:04+00');
INSERT INTO pgfacts_internal.claims (tenant, claim_id, subject_id, predicate, cardinality,
    object_value, text, confidence, assertion, valid, asserted_valid, system_time,
    retired_reason, superseded_by, copied_from)
OVERRIDING SYSTEM VALUE VALUES
    ('t', 1, 1, 'lives_in', 'one', '"X"', 'SECRET from A', 0.9, md5('1|lives_in|v:"X"'),
     '[2020-01-01,)', '[2020-01-01,)', '[2026-01-01 00:00:01+00,)', NULL, NULL, NULL),
    ('t', 2, 1, 'likes', 'many', '"tea"', NULL, 1, md5('1|likes|v:"tea"'),
     '[2020-01-01,)', '[2020-01-01,)', '[2026-01-01 00:00:03+00,2026-01-01 00:00:04+00)',
     'replaced', 4, NULL),
    ('t', 3, 1, 'likes', 'many', '"tea"', NULL, 1, md5('1|likes|v:"tea"'),
     '[2020-01-01,2021-01-01)', '[2020-01-01,)', '[2026-01-01 00:00:04+00,)', NULL, NULL, 2),
    ('t', 4, 1, 'likes', 'many', '"coffee"', NULL, 1, md5('1|likes|v:"coffee"'),
     '[2021-01-01,)', '[2021-01-01,)', '[2026-01-01 00:00:04+00,)', NULL, NULL, NULL);
INSERT INTO pgfacts_internal.claim_sources (tenant, claim_id, episode_id, asserted_valid,
    added_at, text, confidence)
VALUES ('t', 1, 1, '[2020-01-01,)', '2026-01-01 00:00:01+00', 'SECRET from A', 0.9),
       ('t', 1, 2, '[2020-01-01,)', '2026-01-01 00:00:02+00', 'B in its own words', 0.8),
       ('t', 2, 3, '[2020-01-01,)', '2026-01-01 00:00:03+00', NULL, 1),
       ('t', 3, 3, '[2020-01-01,)', '2026-01-01 00:00:03+00', NULL, 1),
       ('t', 4, 4, '[2021-01-01,)', '2026-01-01 00:00:04+00', NULL, 1);
"""


def test_knowledge_written_before_the_event_order_replays_the_same(empty_db: str) -> None:
    """Migration 0005 gives existing episodes their claims (each in its own source's words,
    a `replaces` kept) and an order, so a purge after the upgrade is exact and private."""
    migrate(empty_db, target="0004_knowledge_write_path.sql")
    with psycopg.connect(empty_db, autocommit=True) as conn:
        conn.execute(KNOWLEDGE_AT_0004)
    migrate(empty_db)
    with psycopg.connect(empty_db) as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't', agent_kind => 'operator')")
        for predicate in ("lives_in", "likes"):
            assert (
                conn.execute("SELECT * FROM pgfacts.verify_slot(1, %s)", (predicate,)).fetchall()
                == []
            )
        conn.execute("SELECT pgfacts.purge_source('doc', 'A')")
        conn.execute("SELECT pgfacts.purge_source('doc', 'C')")  # tea only: coffee stays
        live = conn.execute(
            "SELECT predicate, object_value, claim_text, confidence FROM pgfacts.current_claims(1) "
            "ORDER BY 1"
        ).fetchall()
        assert live == [
            ("likes", "coffee", None, 1.0),
            ("lives_in", "X", "B in its own words", 0.8),
        ]
        leaks = conn.execute(
            "SELECT (SELECT count(*) FROM pgfacts_internal.claims WHERE text LIKE 'SECRET%%') + "
            "(SELECT count(*) FROM pgfacts_internal.episodes WHERE written::text LIKE '%%SECRET%%')"
        ).fetchone()
        assert leaks == (0,)
