"""pgfacts: durable, auditable memory for LLM agents, kept in PostgreSQL."""

from .client import AsyncFactStore, Context, FactStore
from .errors import (
    Conflict,
    InvalidParameter,
    MigrationError,
    NotFound,
    PermissionDenied,
    PgfactsError,
    RetryTransaction,
    RuntimeUnavailable,
    SchemaNewerWarning,
)
from .migrator import MigrationReport, migrate
from .runtime import resolve_dsn

__all__ = [
    "AsyncFactStore",
    "Conflict",
    "Context",
    "FactStore",
    "InvalidParameter",
    "MigrationError",
    "MigrationReport",
    "NotFound",
    "PermissionDenied",
    "PgfactsError",
    "RetryTransaction",
    "RuntimeUnavailable",
    "SchemaNewerWarning",
    "migrate",
    "resolve_dsn",
]
