"""AGE is loaded per database (session_preload_libraries), never server-wide.

AGE 1.5 preloaded in shared_preload_libraries runs its hooks in every database of the
server: in a database without the age extension, DROP TABLE and CREATE EXTENSION fail with
"schema ag_catalog does not exist" (apache/age issue 2180). pgfacts must not break the
other applications on its server.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from pgfacts import migrate
from pgfacts.doctor import diagnose

from .conftest import Clones, scratch_database_name, with_db


@pytest.fixture
def other_db(server_dsn: str, template_db: str, clones: Clones) -> Iterator[str]:
    """A database of another application on the server pgfacts is installed on."""
    name = scratch_database_name()
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    try:
        yield with_db(server_dsn, name)
    finally:
        clones.drop(name)


def test_other_databases_create_and_drop_tables_and_extensions(other_db: str) -> None:
    with psycopg.connect(other_db, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (x int)")
        conn.execute("INSERT INTO t VALUES (1)")
        conn.execute("DROP TABLE t")
        conn.execute("CREATE EXTENSION pg_trgm")
        conn.execute("DROP EXTENSION pg_trgm")
        conn.execute("CREATE EXTENSION btree_gist")
        row = conn.execute("SHOW session_preload_libraries").fetchone()
    assert row is not None and "age" not in row[0]


def database_preload(dsn: str) -> str:
    """session_preload_libraries as a new session of that database sees it."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SHOW session_preload_libraries").fetchone()
    assert row is not None
    return str(row[0])


def test_migrate_loads_age_for_its_database_only(empty_db: str) -> None:
    migrate(empty_db)
    assert [p.strip() for p in database_preload(empty_db).split(",")] == ["age"]
    with psycopg.connect(empty_db, autocommit=True) as conn:
        conn.execute("SELECT ag_catalog.create_graph('probe')")
    # A new session runs Cypher first thing, without LOAD (and without any AGE function
    # call that would load the library on the way).
    with psycopg.connect(empty_db, autocommit=True) as conn:
        conn.execute("SET search_path = ag_catalog, public")
        conn.execute("SELECT * FROM cypher('probe', $$ CREATE (:N {n: 42}) $$) AS (v agtype)")
        row = conn.execute(
            "SELECT * FROM cypher('probe', $$ MATCH (x:N) RETURN x.n $$) AS (n agtype)"
        ).fetchone()
    assert row is not None and str(row[0]) == "42"


def test_migrate_keeps_other_session_preload_libraries(empty_db: str) -> None:
    name = psycopg.conninfo.conninfo_to_dict(empty_db)["dbname"]
    with psycopg.connect(empty_db, autocommit=True) as conn:
        conn.execute(f"ALTER DATABASE {name} SET session_preload_libraries = 'auto_explain'")
    for _ in range(3):
        migrate(empty_db)
    assert [p.strip() for p in database_preload(empty_db).split(",")] == ["auto_explain", "age"]


def test_migrate_sets_the_setting_again_on_a_copied_database(server_dsn: str, db) -> None:  # type: ignore[no-untyped-def]
    # CREATE DATABASE ... TEMPLATE does not copy per-database settings: migrate restores it.
    dsn = with_db(server_dsn, db.name)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"ALTER DATABASE {db.name} RESET session_preload_libraries")
    assert "age" not in database_preload(dsn)
    report = diagnose(dsn)
    assert not report.ok
    assert any(p["check"] == "age per database" for p in report.problems)
    migrate(dsn)
    assert database_preload(dsn).strip() == "age"
    assert diagnose(dsn).ok


def test_doctor_reports_the_per_database_load_and_no_server_wide_one(server_dsn: str, db) -> None:  # type: ignore[no-untyped-def]
    report = diagnose(with_db(server_dsn, db.name))
    assert report.ok, report.problems
    assert report.age_per_database is True
    assert report.age_server_wide is False
    assert not [w for w in report.warnings if w["check"] == "age server-wide"]
