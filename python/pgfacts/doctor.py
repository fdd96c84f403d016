"""``pgfacts doctor``: is this database ready for pgfacts, and if not, what fixes it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import psycopg

from . import migrator, queries
from .runtime import resolve_dsn

REQUIRED_EXTENSIONS = ("btree_gist", "btree_gin", "vector", "age", "pg_trgm")
OPTIONAL_EXTENSIONS = ("plpgsql_check", "pg_cron")


@dataclass
class Report:
    dsn_source: str
    server_version: str | None = None
    extensions: dict[str, dict[str, str | None]] = field(default_factory=dict)
    age_preloaded: bool = False  # loaded at session start, per database or server-wide
    age_per_database: bool = False
    age_server_wide: bool = False
    max_parallel_maintenance_workers: int | None = None
    schema: str = migrator.DEFAULT_SCHEMA
    applied_migrations: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    graph_projections: list[dict[str, Any]] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)
    warnings: list[dict[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "dsn_source": self.dsn_source,
            "postgresql": self.server_version,
            "extensions": self.extensions,
            "age_preloaded": self.age_preloaded,
            "age_per_database": self.age_per_database,
            "age_server_wide": self.age_server_wide,
            "max_parallel_maintenance_workers": self.max_parallel_maintenance_workers,
            "schema": self.schema,
            "applied_migrations": self.applied_migrations,
            "pending": self.pending,
            "graph_projections": self.graph_projections,
            "problems": self.problems,
            "warnings": self.warnings,
        }


def _check_age_loading(conn: psycopg.Connection[Any], preload: str, report: Report) -> None:
    """AGE must load at session start for this database, and not for the whole server."""
    row = conn.execute(queries.DATABASE_PRELOAD).fetchone()
    assert row is not None
    database, stored = row
    report.age_per_database = "age" in migrator.split_library_list(stored)
    report.age_server_wide = "age" in migrator.split_library_list(preload)
    report.age_preloaded = report.age_per_database or report.age_server_wide
    if not report.age_per_database:
        report.problems.append(
            {
                "check": "age per database",
                "message": f"database {database!r} does not load AGE at session start, so "
                "non-superuser roles cannot run graph procedures",
                "fix": "run `pgfacts migrate` (it sets ALTER DATABASE ... SET "
                "session_preload_libraries = 'age'; a copied or restored database loses it)",
            }
        )
    if report.age_server_wide:
        report.warnings.append(
            {
                "check": "age server-wide",
                "message": "AGE is in shared_preload_libraries: AGE 1.5 then breaks DROP TABLE "
                "and CREATE EXTENSION in every other database of this server",
                "fix": "remove age from shared_preload_libraries and restart; pgfacts loads it "
                "per database",
            }
        )


# A projection this far behind its tables is reported (the worker keeps it within seconds).
GRAPH_LAG_WARNING_SECONDS = 60.0


def _check_graph_projections(dsn: str, schema: str, report: Report) -> None:
    """Each tenant's AGE projection: its state and how far it lags the graph tables."""
    try:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as conn:
            rows = conn.execute(queries.GRAPH_PROJECTION_STATES.format(schema=schema)).fetchall()
    except psycopg.Error as exc:
        report.warnings.append(
            {
                "check": "graph projections",
                "message": f"cannot read the projections' state: {str(exc).strip()}",
                "fix": "run doctor as the operator or a superuser",
            }
        )
        return
    for tenant, graph, state, pending, lag in rows:
        lag_seconds = float(lag) if lag is not None else 0.0
        report.graph_projections.append(
            {
                "tenant": tenant,
                "graph": graph,
                "state": state,
                "pending": int(pending),
                "lag_seconds": lag_seconds,
            }
        )
        if state == "broken":
            report.problems.append(
                {
                    "check": "graph projection",
                    "message": f"the AGE projection of tenant {tenant!r} ({graph}) is broken "
                    "(after a dump and restore: apache/age#2503)",
                    "fix": "run `pgfacts worker --graph --once` (it rebuilds it), or "
                    "rebuild_graph_projection() as the tenant's operator",
                }
            )
        elif lag_seconds > GRAPH_LAG_WARNING_SECONDS:
            report.warnings.append(
                {
                    "check": "graph projection lag",
                    "message": f"the AGE projection of tenant {tenant!r} is {lag_seconds:.0f} s "
                    f"behind ({pending} changes pending)",
                    "fix": "run `pgfacts worker --graph`",
                }
            )


def diagnose(dsn: str | None = None, schema: str = migrator.DEFAULT_SCHEMA) -> Report:
    source = "argument" if dsn else ("PGFACTS_DSN" if os.environ.get("PGFACTS_DSN") else "runtime")
    report = Report(dsn_source=source, schema=schema)
    try:
        resolved = resolve_dsn(dsn)
        conn = psycopg.connect(resolved, autocommit=True, connect_timeout=5)
    except Exception as exc:
        report.problems.append(
            {
                "check": "connect",
                "message": f"cannot connect: {str(exc).strip()}",
                "fix": "run `pgfacts db up` (or `make db-up`), or set PGFACTS_DSN to a reachable "
                "PostgreSQL 17",
            }
        )
        return report
    with conn:
        facts = conn.execute(queries.SERVER_FACTS).fetchone()
        assert facts is not None
        version, version_num, preload, parallel = facts
        report.server_version = version
        report.max_parallel_maintenance_workers = parallel
        if version_num < migrator.MIN_SERVER_VERSION:
            report.problems.append(
                {
                    "check": "postgresql",
                    "message": f"PostgreSQL {version} is too old; pgfacts needs 17",
                    "fix": "use `pgfacts db up` or the Docker image (PostgreSQL 17)",
                }
            )
        names = list(REQUIRED_EXTENSIONS + OPTIONAL_EXTENSIONS)
        rows = conn.execute(queries.AVAILABLE_EXTENSIONS, {"names": names}).fetchall()
        found = {name: (default, installed) for name, default, installed in rows}
        for name in names:
            default, installed = found.get(name, (None, None))
            report.extensions[name] = {"available": default, "installed": installed}
            if name in REQUIRED_EXTENSIONS and default is None:
                report.problems.append(
                    {
                        "check": f"extension {name}",
                        "message": f"extension {name} is not available on the server",
                        "fix": "install it (docker/provision.sh lists the Debian packages) or use "
                        "`pgfacts db up` / the Docker image",
                    }
                )
        _check_age_loading(conn, preload, report)
        if parallel != 0:
            report.warnings.append(
                {
                    "check": "max_parallel_maintenance_workers",
                    "message": "parallel HNSW builds hit a pgvector 0.8.0 bug",
                    "fix": "set max_parallel_maintenance_workers = 0",
                }
            )
    try:
        ledger_pending = migrator.pending(resolved, schema)
        applied = [m.name for m in migrator.load_migrations() if m.name not in ledger_pending]
        report.applied_migrations = applied
        report.pending = ledger_pending
    except psycopg.Error as exc:
        report.problems.append(
            {"check": "schema", "message": str(exc).strip(), "fix": "run `pgfacts migrate`"}
        )
        return report
    if not report.pending:
        _check_graph_projections(resolved, schema, report)
    if report.pending:
        report.problems.append(
            {
                "check": "schema",
                "message": f"{len(report.pending)} migration(s) or definition(s) pending "
                f"in schema {schema!r}",
                "fix": f"run `pgfacts migrate --schema {schema}`",
            }
        )
    return report
