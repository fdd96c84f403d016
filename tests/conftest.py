"""Test harness: a real PostgreSQL 17, a template database built once per run from the real
migrations, a fresh database cloned from it for each test, and non-superuser logins.

The server is the local runtime (``make test`` starts it) or whatever ``PGFACTS_DSN`` names.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from pgfacts import migrate, resolve_dsn

if TYPE_CHECKING:
    from .support.caller import Caller

SCHEMA = "pgfacts"
KINDS = ("agent", "facts_manager", "crawler", "tuner", "operator")
TEMPLATE = f"pgfacts_test_template_{os.getpid()}"
# Embedding dimensions the tests' toy models use, allowed in the template as a DBA allows
# one (pgfacts.allow_embedding_dimension); 384, 768, 1024 and 1536 are allowed out of the box.
TEST_DIMENSIONS = (4, 8, 16, 64)


def _login_password() -> str:
    """One password for every test login, the same for every run against one server: the
    logins are server-wide, and runs side by side (other checkouts, parallel workers) must
    not reset each other's. Derived from the superuser's DSN, so it is no more guessable."""
    try:
        secret = resolve_dsn()
    except Exception:  # no server yet: the session fixture will report why
        secret = secrets.token_urlsafe(12)
    return hashlib.sha256(f"pgfacts test logins:{secret}".encode()).hexdigest()[:24]


LOGIN_PASSWORD = _login_password()

# Fixtures kept with what they set up (tests/support imports this module, so it cannot be
# imported from here): registered once the conftest is loaded.
pytest_plugins = ["tests.support.knowledge"]


def with_db(dsn: str, dbname: str, **overrides: str) -> str:
    params = conninfo_to_dict(dsn)
    params.update(dbname=dbname, **overrides)
    return make_conninfo(**params)


@dataclass(frozen=True)
class Database:
    """A database cloned from the migrated template, with a DSN per agent kind login."""

    name: str
    admin_dsn: str  # superuser: setup and inspection only, never the code under test

    def dsn(self, login: str = "app") -> str:
        """DSN of a non-superuser login: ``app`` holds every kind; ``agent``... one kind."""
        return with_db(
            self.admin_dsn, self.name, user=f"{SCHEMA}_test_{login}", password=LOGIN_PASSWORD
        )

    def connect(self, login: str = "app", **kwargs: object) -> psycopg.Connection:
        return psycopg.connect(self.dsn(login), **kwargs)  # type: ignore[arg-type]

    def admin_dsn_of_database(self) -> str:
        """The superuser DSN of this database (setup and inspection only)."""
        return with_db(self.admin_dsn, self.name)

    def admin(self) -> psycopg.Connection:
        return psycopg.connect(with_db(self.admin_dsn, self.name), autocommit=True)


@pytest.fixture(scope="session")
def server_dsn() -> str:
    """Superuser DSN of the server under test (maintenance database)."""
    return resolve_dsn()


# Test logins are server-wide: parallel workers (and other checkouts) set them up one at a
# time, under this session advisory lock of the maintenance database.
LOGINS_LOCK = 7_046_661_870_231_010


def _create_logins(admin: psycopg.Connection, server_dsn: str) -> None:
    # Test logins act for any tenant, like an app server that names the tenant per
    # transaction; "bound" holds agent and tuner but may act only for tenant t1.
    admin.execute("SELECT pg_advisory_lock(%s)", (LOGINS_LOCK,))
    try:
        _create_logins_locked(admin, server_dsn)
    finally:
        admin.execute("SELECT pg_advisory_unlock(%s)", (LOGINS_LOCK,))


def _create_logins_locked(admin: psycopg.Connection, server_dsn: str) -> None:
    trusted = f"{SCHEMA}_all_tenants"
    logins = {f"{SCHEMA}_test_{kind}": [f"{SCHEMA}_{kind}", trusted] for kind in KINDS}
    logins[f"{SCHEMA}_test_app"] = [f"{SCHEMA}_{kind}" for kind in KINDS] + [trusted]
    logins[f"{SCHEMA}_test_bound"] = [f"{SCHEMA}_agent", f"{SCHEMA}_tuner"]
    logins[f"{SCHEMA}_test_nobody"] = []  # may log in, holds no pgfacts role
    for login, granted in logins.items():
        admin.execute(
            f"""DO $$ BEGIN
                  CREATE ROLE {login} LOGIN;
                EXCEPTION WHEN duplicate_object THEN NULL; END $$"""
        )
        admin.execute(f"ALTER ROLE {login} LOGIN NOSUPERUSER PASSWORD '{LOGIN_PASSWORD}'")
        for role in granted:
            admin.execute(f"GRANT {role} TO {login}")
    with psycopg.connect(with_db(server_dsn, TEMPLATE), autocommit=True) as tpl:
        tpl.execute("SELECT pgfacts.bind_tenant_login(%s, 't1')", (f"{SCHEMA}_test_bound",))


def _drop_orphan_templates(admin: psycopg.Connection) -> None:
    """Templates of test runs on this machine that ended without cleaning up (killed)."""
    for (name,) in admin.execute(
        "SELECT datname FROM pg_database WHERE datname ~ '^pgfacts_test_template_[0-9]+$'"
    ).fetchall():
        pid = int(name.rsplit("_", 1)[1])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        except PermissionError:  # alive, another user's
            pass


@pytest.fixture(scope="session")
def template_db(server_dsn: str) -> Iterator[str]:
    """A database migrated with the real migrations, cloned by every test (one per test
    process: each parallel worker builds its own)."""
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        _drop_orphan_templates(admin)
        admin.execute(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {TEMPLATE} TEMPLATE template0")
        migrate(with_db(server_dsn, TEMPLATE), SCHEMA)
        _create_logins(admin, server_dsn)
        with psycopg.connect(with_db(server_dsn, TEMPLATE), autocommit=True) as tpl:
            tpl.execute(f"GRANT CONNECT ON DATABASE {TEMPLATE} TO PUBLIC")
            for dimension in TEST_DIMENSIONS:
                tpl.execute("SELECT pgfacts.allow_embedding_dimension(%s)", (dimension,))
    yield TEMPLATE
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)")


def _fresh_database(server_dsn: str, template: str) -> Iterator[str]:
    name = f"pgfacts_t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        # A test database is thrown away after its test: its commits need not wait for the
        # disk (a crash loses at most its last moments, never consistency).
        admin.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
        if template != "template0":
            # A copy does not inherit per-database settings; `pgfacts migrate` sets this one
            # on the template (AGE loads per database, never server-wide).
            admin.execute(f"ALTER DATABASE {name} SET session_preload_libraries = 'age'")
            # Nor its privileges: the owner creates each tenant's AGE projection (a schema).
            admin.execute(f"GRANT CREATE ON DATABASE {name} TO {SCHEMA}_owner")
    try:
        yield name
    finally:
        with psycopg.connect(server_dsn, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def db(server_dsn: str, template_db: str) -> Iterator[Database]:
    """A fresh migrated database for one test."""
    for name in _fresh_database(server_dsn, template_db):
        yield Database(name=name, admin_dsn=server_dsn)


@pytest.fixture
def empty_db(server_dsn: str) -> Iterator[str]:
    """Superuser DSN of a fresh database with nothing installed (for migration tests)."""
    for name in _fresh_database(server_dsn, "template0"):
        yield with_db(server_dsn, name)


@pytest.fixture
def call(db: Database) -> Iterator[Caller]:
    """A task agent's tool calls (tenant t1); each call may name another login or context."""
    from .support.caller import Caller  # imports this module: here, not at the top

    caller = Caller(db, kind="agent")
    yield caller
    caller.close()


def count_facts(db: Database, where: str = "true") -> int:
    """Rows in the facts table, seen by the superuser (no RLS), for 'nothing written' checks."""
    with db.admin() as admin:
        row = admin.execute(f"SELECT count(*) FROM pgfacts_internal.facts WHERE {where}").fetchone()
    assert row is not None
    return int(row[0])
