"""Apply pgfacts' SQL to a database.

Two kinds of SQL (docs/operations.md, "Migrations"; docs/architecture.md, "Layers"):

* ``migrations/NNNN_slug.sql`` run once each, in order, each in its own transaction, and are
  recorded in ``{schema}_internal.schema_ledger`` with their sha256. An applied file whose
  text changed is refused; a database holding a migration this package does not know is
  newer than the package and is refused too.
* ``sql/**.sql`` hold idempotent definitions (functions, views, policies, grants). When any
  of them is new or changed, all of them are re-applied in path order in one transaction,
  so a definition is read and edited in one file.

Every run holds one database-wide advisory lock, so concurrent migrators queue and the
later ones find nothing to do. ``@schema@`` in a file is replaced by the schema name.

Every run also makes sure the database loads AGE at session start
(``ALTER DATABASE ... SET session_preload_libraries``, keeping any other library listed
there): per database, never server-wide, because AGE 1.5 preloaded in
``shared_preload_libraries`` breaks DROP TABLE and CREATE EXTENSION in the server's other
databases. A copied database (``CREATE DATABASE ... TEMPLATE``, a restore without
``--create``) loses the setting; migrating it again restores it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import warnings
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from . import queries, resources
from .errors import MigrationError, SchemaNewerWarning

DEFAULT_SCHEMA = "pgfacts"
_SCHEMA_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
MIN_SERVER_VERSION = 170000


def package_version() -> str:
    try:
        return _dist_version("pgfacts")
    except PackageNotFoundError:  # running from a checkout without an install
        return "0+checkout"


@dataclass(frozen=True)
class SqlFile:
    kind: str  # "migration" or "definition"
    name: str  # path relative to its folder, '/'-separated
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()


@dataclass(frozen=True)
class MigrationReport:
    schema: str
    applied: list[str] = field(default_factory=list)
    definitions_applied: bool = False
    version: str = ""
    age_preload_set: bool = False
    pending: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.applied) or self.definitions_applied or self.age_preload_set


def check_schema_name(schema: str) -> str:
    if not _SCHEMA_NAME.match(schema):
        raise MigrationError(
            f"invalid schema name {schema!r}",
            sqlstate="22023",
            hint="use 1-40 lowercase letters, digits or underscores, starting with a letter",
        )
    return schema


def load_migrations(directory: Path | None = None) -> list[SqlFile]:
    directory = directory or resources.migrations_dir()
    files = []
    numbers: set[str] = set()
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(
                f"migration file name {path.name!r} is not NNNN_slug.sql", hint=str(path)
            )
        if match.group(1) in numbers:
            raise MigrationError(f"two migrations are numbered {match.group(1)}")
        numbers.add(match.group(1))
        files.append(SqlFile("migration", path.name, path.read_text()))
    return files


def load_definitions(directory: Path | None = None) -> list[SqlFile]:
    directory = directory or resources.definitions_dir()
    return [
        SqlFile("definition", path.relative_to(directory).as_posix(), path.read_text())
        for path in sorted(directory.rglob("*.sql"))
    ]


def render(text: str, schema: str) -> str:
    return text.replace("@schema@", schema)


def migrate(
    dsn: str | None = None,
    schema: str = DEFAULT_SCHEMA,
    *,
    target: str | None = None,
    migrations_dir: Path | None = None,
    definitions_dir: Path | None = None,
    apply_definitions: bool = True,
) -> MigrationReport:
    """Bring ``schema`` up to date. Idempotent and safe with concurrent callers.

    ``target`` stops after the named migration (and then skips the definitions, which are
    written for the newest tables); it exists for upgrade tests and staged rollouts.
    """
    from .runtime import resolve_dsn  # the runtime imports nothing from here

    check_schema_name(schema)
    migrations = load_migrations(migrations_dir)
    definitions = load_definitions(definitions_dir)
    if target is not None:
        names = [m.name for m in migrations]
        if target not in names:
            raise MigrationError(f"unknown target migration {target!r}", hint=", ".join(names))
        migrations = migrations[: names.index(target) + 1]
        apply_definitions = False

    with psycopg.connect(resolve_dsn(dsn), autocommit=True) as conn:
        server = conn.execute(queries.SERVER_VERSION_NUM).fetchone()
        assert server is not None
        if server[0] < MIN_SERVER_VERSION:
            raise MigrationError(
                f"PostgreSQL {server[0] // 10000} is too old; pgfacts needs 17 or newer",
                hint="run `pgfacts db up` for a local PostgreSQL 17, or point PGFACTS_DSN at one",
            )
        conn.execute(queries.TAKE_MIGRATION_LOCK, {"key": queries.MIGRATION_LOCK_KEY})
        try:
            report = _migrate_locked(conn, schema, migrations, definitions, apply_definitions)
            if load_age_per_database(conn):
                report = dataclasses.replace(report, age_preload_set=True)
            allow_graph_creation(conn, schema)
            return report
        finally:
            conn.execute(queries.RELEASE_MIGRATION_LOCK, {"key": queries.MIGRATION_LOCK_KEY})


def allow_embedding_dimension(
    dsn: str | None = None, schema: str = DEFAULT_SCHEMA, *, dimension: int
) -> dict[str, Any]:
    """DBA: let tenants register models of ``dimension``. Builds the dimension's HNSW index
    with ``CREATE INDEX CONCURRENTLY`` (writes of embeddings go on meanwhile), outside a
    transaction, then records it with ``allow_embedding_dimension``; both statements come
    from SQL, which also checks the dimension."""
    from .runtime import resolve_dsn

    check_schema_name(schema)
    with psycopg.connect(resolve_dsn(dsn), autocommit=True) as conn:
        row = conn.execute(
            queries.DIMENSION_INDEX_SQL.format(schema=schema), {"dimension": dimension}
        ).fetchone()
        assert row is not None
        conn.execute(queries.SERIAL_INDEX_BUILDS)  # pgvector 0.8.0's parallel HNSW build
        conn.execute(row[0].encode())
        allowed = conn.execute(
            queries.ALLOW_EMBEDDING_DIMENSION.format(schema=schema), {"dimension": dimension}
        ).fetchone()
        assert allowed is not None
        return dict(allowed[0])


def split_library_list(value: str | None) -> list[str]:
    """The names in a stored ``*_preload_libraries`` value (``a, "b c"``)."""
    if not value:
        return []
    names = [part.strip() for part in value.split(",")]
    return [name[1:-1] if name.startswith('"') and name.endswith('"') else name for name in names]


def load_age_per_database(conn: psycopg.Connection[Any]) -> bool:
    """Make new sessions of this database load AGE (keeping other libraries listed).

    Returns whether the setting changed. Needs the database's owner or a superuser.
    """
    row = conn.execute(queries.DATABASE_PRELOAD).fetchone()
    assert row is not None
    database, stored = row
    libraries = split_library_list(stored)
    if "age" in libraries:
        return False
    libraries.append("age")
    conn.execute(
        sql.SQL(queries.SET_DATABASE_PRELOAD).format(
            database=sql.Identifier(database),
            libraries=sql.SQL(", ").join(sql.Literal(name) for name in libraries),
        )
    )
    return True


def allow_graph_creation(conn: psycopg.Connection[Any], schema: str) -> None:
    """Let the owner role create schemas in this database: AGE's ``create_graph`` makes one
    per tenant's projection. Like the preload, a copied or restored database loses it."""
    owner = f"{schema}_owner"
    row = conn.execute(queries.OWNER_MAY_CREATE, {"owner": owner}).fetchone()
    if row is not None and row[0] is False:
        conn.execute(sql.SQL(queries.GRANT_CREATE_ON_DATABASE).format(owner=sql.Identifier(owner)))


def _ledger(conn: psycopg.Connection, schema: str) -> dict[tuple[str, str], str]:
    internal = f"{schema}_internal"
    exists = conn.execute(queries.LEDGER_EXISTS, {"ledger": f"{internal}.schema_ledger"})
    row = exists.fetchone()
    if not row or not row[0]:
        return {}
    rows = conn.execute(queries.LEDGER_ROWS.format(internal=internal)).fetchall()
    return {(kind, name): sha for kind, name, sha in rows}


def _migrate_locked(
    conn: psycopg.Connection,
    schema: str,
    migrations: list[SqlFile],
    definitions: list[SqlFile],
    apply_definitions: bool,
) -> MigrationReport:
    ledger = _ledger(conn, schema)
    known = {m.name: m for m in migrations}
    applied_names = sorted(name for kind, name in ledger if kind == "migration")
    newer = [name for name in applied_names if name not in known]
    if newer:
        raise MigrationError(
            f"schema {schema!r} is newer than this package: it has migration(s) "
            f"{', '.join(newer)} that pgfacts {package_version()} does not know",
            sqlstate="55000",
            hint="upgrade the pgfacts package; never run an older package against a newer schema",
        )
    for name in applied_names:
        if ledger[("migration", name)] != known[name].sha256:
            raise MigrationError(
                f"migration {name} was edited after it was applied to schema {schema!r}",
                sqlstate="55000",
                detail=f"recorded sha256 {ledger[('migration', name)]}, "
                f"file sha256 {known[name].sha256}",
                hint="applied migrations are immutable: restore the file and add a new "
                "migration for the change",
            )

    report = MigrationReport(schema=schema, version=package_version())
    internal = f"{schema}_internal"
    for migration in migrations:
        if ("migration", migration.name) in ledger:
            continue
        with conn.transaction():
            _execute_file(conn, migration, schema)
            _record(conn, internal, migration)
        report.applied.append(migration.name)

    if apply_definitions and definitions:
        ledger = _ledger(conn, schema)
        stale = [d for d in definitions if ledger.get(("definition", d.name)) != d.sha256]
        if stale:
            with conn.transaction():
                for definition in definitions:
                    _execute_file(conn, definition, schema)
                for definition in definitions:
                    _record(conn, internal, definition)
                conn.execute(
                    queries.LEDGER_FORGET_DEFINITIONS.format(internal=internal),
                    {"names": [d.name for d in definitions]},
                )
            report = MigrationReport(
                schema=schema,
                applied=report.applied,
                definitions_applied=True,
                version=report.version,
            )
    return report


def _execute_file(conn: psycopg.Connection, file: SqlFile, schema: str) -> None:
    try:
        # Each file starts from a known search_path; files qualify every name anyway.
        conn.execute("SET LOCAL search_path = pg_catalog, public, pg_temp")
        if file.kind == "definition":
            # Definitions are owned by the install's NOLOGIN owner role, whoever migrates.
            conn.execute(f"SET LOCAL ROLE {schema}_owner")
        conn.execute(render(file.text, schema).encode())
    except psycopg.Error as exc:
        raise MigrationError(
            f"{file.kind} {file.name} failed: {exc.diag.message_primary or exc}",
            sqlstate=exc.sqlstate,
            detail=exc.diag.message_detail,
            hint=exc.diag.message_hint,
        ) from exc


def _record(conn: psycopg.Connection, internal: str, file: SqlFile) -> None:
    conn.execute(
        queries.LEDGER_RECORD.format(internal=internal),
        {
            "kind": file.kind,
            "name": file.name,
            "sha256": file.sha256,
            "package_version": package_version(),
        },
    )


def check_installed(version: dict[str, Any] | None, schema: str) -> None:
    """Refuse a database older than this package; warn about one newer than it.

    ``version`` is what ``{schema}.schema_version()`` returned, or None when the function is
    missing or this login may not call it.
    """
    if version is None:
        raise MigrationError(
            f"pgfacts is not installed in schema {schema!r} (or this login holds no agent kind)",
            sqlstate="55000",
            hint="run `pgfacts migrate`, and grant the login an agent kind role "
            f"such as {schema}_agent",
        )
    applied = set(version.get("migrations") or [])
    known = {m.name for m in load_migrations()}
    if known - applied:
        raise MigrationError(
            f"schema {schema!r} is older than pgfacts {package_version()}: migration(s) "
            f"{', '.join(sorted(known - applied))} are not applied",
            sqlstate="55000",
            hint="run `pgfacts migrate`; clients of the previous release keep working after it",
        )
    if applied - known:
        # A deploy migrates first and restarts clients after: a changed function keeps its old
        # signature for one release, so this client still works, but should be upgraded.
        warnings.warn(
            f"schema {schema!r} is newer than pgfacts {package_version()}: it has migration(s) "
            f"{', '.join(sorted(applied - known))} this package does not know; upgrade the "
            "pgfacts package",
            SchemaNewerWarning,
            stacklevel=4,
        )


def pending(dsn: str | None = None, schema: str = DEFAULT_SCHEMA) -> list[str]:
    """Names of migrations (and ``sql/`` definitions) not yet applied in their current form."""
    from .runtime import resolve_dsn

    check_schema_name(schema)
    with psycopg.connect(resolve_dsn(dsn), autocommit=True) as conn:
        ledger = _ledger(conn, schema)
    out = [m.name for m in load_migrations() if ("migration", m.name) not in ledger]
    out += [
        f"sql/{d.name}"
        for d in load_definitions()
        if ledger.get(("definition", d.name)) != d.sha256
    ]
    return out
