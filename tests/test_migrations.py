"""The migration runner: idempotent, concurrency-safe, tamper-evident, schema-name aware."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import psycopg
import pytest

from pgfacts import MigrationError, migrate, resources
from pgfacts.migrator import load_migrations

from .catalog import snapshot


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
    for thread in threads:
        thread.join()
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
        context.read_text().replace("tenant is longer than 200", "tenant too long (old text)")
    )
    migrate(empty_db, definitions_dir=old_definitions)
    with psycopg.connect(empty_db) as conn:
        body = conn.execute("SELECT prosrc FROM pg_proc WHERE proname = 'set_context'").fetchone()
    assert body is not None and "old text" in body[0]
    report = migrate(empty_db)
    assert report.definitions_applied and report.applied == []
    with psycopg.connect(empty_db) as conn:
        body = conn.execute("SELECT prosrc FROM pg_proc WHERE proname = 'set_context'").fetchone()
    assert body is not None and "old text" not in body[0]


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
