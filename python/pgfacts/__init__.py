"""pgfacts: durable, auditable memory for LLM agents, kept in PostgreSQL."""

from .client import AsyncFactStore, Context, FactStore
from .errors import (
    CardinalityMismatch,
    ClaimNotLive,
    ClaimNotRetracted,
    Conflict,
    IdempotencyKeyReused,
    IntervalTaken,
    InvalidParameter,
    MigrationError,
    NotFound,
    PermissionDenied,
    PgfactsError,
    RetryTransaction,
    RuntimeUnavailable,
    SchemaNewerWarning,
    UnknownEntity,
    UnknownPredicate,
)
from .migrator import MigrationReport, migrate
from .runtime import resolve_dsn

__all__ = [
    "AsyncFactStore",
    "CardinalityMismatch",
    "ClaimNotLive",
    "ClaimNotRetracted",
    "Conflict",
    "Context",
    "FactStore",
    "IdempotencyKeyReused",
    "IntervalTaken",
    "InvalidParameter",
    "MigrationError",
    "MigrationReport",
    "NotFound",
    "PermissionDenied",
    "PgfactsError",
    "RetryTransaction",
    "RuntimeUnavailable",
    "SchemaNewerWarning",
    "UnknownEntity",
    "UnknownPredicate",
    "migrate",
    "resolve_dsn",
]
