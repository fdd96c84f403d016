"""Test harness: a real PostgreSQL 17, a template database built once per run from the real
migrations, a fresh database cloned from it for each test, and non-superuser logins.

The server is the local runtime (``make test`` starts it) or whatever ``PGFACTS_DSN`` names.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import os
import secrets
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from pgfacts import migrate, resolve_dsn

if TYPE_CHECKING:
    from .support.caller import Caller

SCHEMA = "pgfacts"
KINDS = ("agent", "facts_manager", "crawler", "tuner", "operator", "reviewer")
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


# The longest tests (10 to 70 s each on a busy 2-core machine, where most take well under
# one): started first, so that on parallel workers none of them begins near the end and
# holds the run's tail alone. Only the order changes; a test missing here just starts in
# its place.
STARTED_FIRST = (
    "tests/test_image.py::",  # builds and starts the image beside the rest of the suite
    "tests/test_migrations.py::test_upgrade_through_every_migration_equals_fresh_install",
    "tests/test_fuzz.py::",
    "tests/test_retrieval_plans.py::",
    "tests/test_knowledge_streams.py::test_streams_match_the_model",
    "tests/test_schema_snapshot.py::",
    "tests/test_visibility_model.py::",
    "tests/test_knowledge_model.py::",
    "tests/test_retrieval_timing.py::",
    "tests/test_retrieval_access.py::",
    "tests/test_knowledge_timing.py::",
    "tests/test_knowledge_purge.py::test_purge_equals_a_rebuild_without_that_source",
    "tests/test_memory_model.py::",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next(
            (i for i, prefix in enumerate(STARTED_FIRST) if item.nodeid.startswith(prefix)),
            len(STARTED_FIRST),
        )

    items.sort(key=rank)  # stable: every other test keeps its place


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
    """Templates and test databases of test runs on this machine that ended without
    cleaning up (killed): each name carries its test process's id."""
    for name, pid_text in admin.execute(
        "SELECT datname, coalesce(substring(datname, '^pgfacts_test_template_([0-9]+)$'), "
        "substring(datname, '^pgfacts_t_([0-9]+)_[0-9a-f]+$')) FROM pg_database "
        "WHERE datname ~ '^(pgfacts_test_template_[0-9]+|pgfacts_t_[0-9]+_[0-9a-f]+)$'"
    ).fetchall():
        pid = int(pid_text)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            # The dead run's own late drop (drop_later) may be dropping it right now.
            with contextlib.suppress(psycopg.Error):
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
    drop_later(server_dsn, [TEMPLATE])


# Drops of one test process at the same time: each holds a connection while it waits, and
# the server's 200 are shared by every run (40 at once per worker ran out of them).
DROPS_AT_ONCE = 8


def drop_later(server_dsn: str, names: list[str]) -> None:
    """Drop the databases in a detached process (tests/drop_databases.py): the run ends
    without waiting for the checkpoints of the drops."""
    if names:
        subprocess.Popen(
            [sys.executable, "-m", "tests.drop_databases", *names],
            env={**os.environ, "PGFACTS_DROP_DSN": server_dsn},
            cwd=Path(__file__).resolve().parent.parent,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )


def _create_database(server_dsn: str, template: str) -> str:
    # The test process's id in the name: a killed run's databases are dropped by the next.
    name = scratch_database_name()
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        # FILE_COPY copies the template's files; the default (WAL_LOG) writes its 14 MB to
        # the WAL and leaves as many dirty pages for a checkpoint, so hundreds of clones
        # made the run's WAL and checkpoints its heaviest work (a drop waited 1 s for one;
        # with FILE_COPY 0.05 s, the clone no slower): pytest went from 5:01 to 4:03, a
        # benchmark running beside both runs.
        admin.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        # A test database is thrown away after its test: its commits need not wait for the
        # disk (a crash loses at most its last moments, never consistency).
        admin.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
        if template != "template0":
            # A copy does not inherit per-database settings; `pgfacts migrate` sets this one
            # on the template (AGE loads per database, never server-wide).
            admin.execute(f"ALTER DATABASE {name} SET session_preload_libraries = 'age'")
            # Nor its privileges: the owner creates each tenant's AGE projection (a schema).
            admin.execute(f"GRANT CREATE ON DATABASE {name} TO {SCHEMA}_owner")
    return name


def _drop_database(server_dsn: str, name: str) -> None:
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _fresh_database(server_dsn: str, template: str) -> Iterator[str]:
    name = _create_database(server_dsn, template)
    try:
        yield name
    finally:
        _drop_database(server_dsn, name)


class Clones:
    """The test databases of one test process, cloned from its template: the next one is
    created while a test runs, and the used ones are dropped on another thread, so a test
    waits for neither. A test still gets a database no test has used, made from the
    template as it was migrated.

    The drops go in batches, each batch's at once: every DROP DATABASE makes the server run
    a checkpoint and waits for it, which writes every dirty page of the server (other test
    runs' too), and under load takes seconds. One at a time on a busy 2-core machine a drop
    took 0.5 to 1.8 s, longer than most tests; drops waiting at the same time share a
    checkpoint (ten in 0.7 s; DROPS_AT_ONCE at a time), and fewer checkpoints spare every
    other run on the server. At the end of the run nothing waits for them: what is not
    dropped yet goes to a detached process (drop_later), as the last batch does; a worker
    that waited for its batch under way spent up to 40 s doing nothing.

    The clones are made two at a time, for the same reason: a clone (FILE_COPY) waits for a
    checkpoint before and after its copy, and clones waiting together share them. With one
    at a time the tests of a worker waited for their databases for most of the run on a
    busy machine (the memory tests, 108 clones on 3 workers: 100 s waited in all; two at a
    time and four ahead, 17 to 45 s).
    """

    DROP_BATCH = 40  # at most this many used databases (about half a GB) wait to be dropped
    AHEAD = 4  # clones made ahead, for a run of short tests
    CREATORS = 2  # clones made at once

    def __init__(self, server_dsn: str, template: str) -> None:
        self.server_dsn, self.template = server_dsn, template
        self._creator = ThreadPoolExecutor(self.CREATORS, thread_name_prefix="pgfacts-clone")
        self._dropper = ThreadPoolExecutor(1, thread_name_prefix="pgfacts-drop")
        self._used: list[str] = []
        self._undropped: set[str] = set()  # handed to the dropper, not dropped yet
        self._closing = threading.Event()
        self._lock = threading.Lock()
        self._drops: list[Future[None]] = []
        self._ahead = collections.deque(
            self._creator.submit(_create_database, server_dsn, template) for _ in range(self.AHEAD)
        )

    def take(self) -> str:
        name = self._ahead.popleft().result()
        self._ahead.append(self._creator.submit(_create_database, self.server_dsn, self.template))
        return name

    def drop(self, name: str) -> None:
        """Drop a used database in a later batch (any scratch database a test made, too:
        name it with scratch_database_name, so a killed run's is dropped by the next)."""
        self._used.append(name)
        if len(self._used) >= self.DROP_BATCH:
            self._drop_used()

    def _drop_used(self) -> None:
        batch, self._used = self._used, []
        with self._lock:
            self._undropped.update(batch)
        self._drops.append(self._dropper.submit(self._drop_all, batch))

    def _drop_all(self, names: list[str]) -> None:
        with ThreadPoolExecutor(DROPS_AT_ONCE, thread_name_prefix="pgfacts-drop") as drops:
            for dropped in [drops.submit(self._drop_one, n) for n in names]:
                dropped.result()

    def _drop_one(self, name: str) -> None:
        if self._closing.is_set():
            return  # left to drop_later
        _drop_database(self.server_dsn, name)
        with self._lock:
            self._undropped.discard(name)

    def close(self) -> None:
        """Hand the clones made ahead, the used ones and the batches' undropped ones to
        drop_later; a batch that failed fails the run."""
        self._closing.set()
        for made in self._ahead:
            if made.cancel():
                continue  # not started: nothing to wait for or drop
            # A creation that failed left nothing to drop.
            with contextlib.suppress(Exception):
                self._used.append(made.result())
        self._creator.shutdown()
        self._dropper.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            # A drop under way now may drop a name twice: IF EXISTS makes that harmless.
            later, self._used = [*self._used, *sorted(self._undropped)], []
        drop_later(self.server_dsn, later)
        for dropped in self._drops:
            if dropped.done() and not dropped.cancelled():
                dropped.result()


def scratch_database_name() -> str:
    """A name for a database a test makes itself: the test process's id in it, so a killed
    run's database is dropped by the next run (_drop_orphan_templates)."""
    return f"pgfacts_t_{os.getpid()}_{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="session")
def clones(server_dsn: str, template_db: str) -> Iterator[Clones]:
    made = Clones(server_dsn, template_db)
    yield made
    made.close()


@pytest.fixture
def db(clones: Clones) -> Iterator[Database]:
    """A fresh migrated database for one test."""
    name = clones.take()
    yield Database(name=name, admin_dsn=clones.server_dsn)
    clones.drop(name)


@pytest.fixture(scope="module")
def module_db(clones: Clones) -> Iterator[Database]:
    """One migrated database for a module whose tests write nothing another of them reads
    (pure functions such as validate_extraction; plan tests over one load): a fresh clone
    per case would cost more than the case."""
    name = clones.take()
    yield Database(name=name, admin_dsn=clones.server_dsn)
    clones.drop(name)


@pytest.fixture
def second_db(clones: Clones) -> Iterator[Database]:
    """Another fresh migrated database for the same test (one that compares two)."""
    name = clones.take()
    yield Database(name=name, admin_dsn=clones.server_dsn)
    clones.drop(name)


@pytest.fixture
def empty_db(clones: Clones) -> Iterator[str]:
    """Superuser DSN of a fresh database with nothing installed (for migration tests)."""
    name = _create_database(clones.server_dsn, "template0")
    yield with_db(clones.server_dsn, name)
    clones.drop(name)


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
