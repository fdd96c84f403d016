"""One error catalogue: SQLSTATEs mapped to exception classes in one place.

The database decides what is an error; Python only gives each SQLSTATE a class so callers
can catch ``pgfacts.NotFound`` instead of comparing codes.
"""

from __future__ import annotations

from typing import Any

import psycopg


class PgfactsError(Exception):
    """Base class; ``sqlstate``, ``message``, ``detail`` and ``hint`` as the server sent them."""

    def __init__(
        self,
        message: str,
        *,
        sqlstate: str | None = None,
        detail: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate
        self.message = message
        self.detail = detail
        self.hint = hint

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape the CLI and the tool layer print for an error."""
        out: dict[str, Any] = {"code": self.sqlstate, "message": self.message}
        if self.detail:
            out["detail"] = self.detail
        if self.hint:
            out["hint"] = self.hint
        return out


class InvalidParameter(PgfactsError):
    """22023 and the data-exception class 22: the caller sent a bad value."""


class PermissionDenied(PgfactsError):
    """42501: the agent kind or role may not do this."""


class NotFound(PgfactsError):
    """P0002: the named object does not exist (or is not visible to this tenant)."""


class Conflict(PgfactsError):
    """23xxx: a constraint refused the write (overlap, uniqueness); its subclass
    IdempotencyKeyReused (PF007) is an override key reused for another request."""


class RetryTransaction(PgfactsError):
    """Class 40 (40001, 40P01): a concurrent transaction got in the way; run it again."""


# Knowledge refusals a caller must tell apart: SQLSTATE class PF (pgfacts). Each subclasses the
# class its refusal was before it had a code of its own, so ``except NotFound`` and
# ``except InvalidParameter`` keep catching what they caught.


class UnknownEntity(InvalidParameter, NotFound):
    """PF001: a claim names an entity (subject or object_entity) this tenant does not have."""


class UnknownPredicate(InvalidParameter, NotFound):
    """PF002: a claim names a predicate this tenant has not defined."""


class CardinalityMismatch(InvalidParameter):
    """PF003: a predicate is defined again with another cardinality (it never changes)."""


class ClaimNotLive(PgfactsError):
    """PF004: retract names a claim that is no longer live (retired or outranked)."""


class ClaimNotRetracted(NotFound):
    """PF005: restore names a claim whose assertion is not retracted."""


class IntervalTaken(PgfactsError):
    """PF006: restore refused: a newer one value holds an interval the retracted rows covered."""


class IdempotencyKeyReused(Conflict):
    """PF007: override's idempotency key was used before for a different claim (it was 23505,
    so ``except Conflict`` still catches it)."""


class RedactedContent(InvalidParameter):
    """PF010: a write holds a redaction placeholder ([EMAIL], ...) as content; nothing of the
    call was written."""


class IncognitoWrite(PermissionDenied):
    """PF011: a durable write in a run whose memory scope is none (incognito); reads work."""


class MigrationError(PgfactsError):
    """The schema cannot be migrated as asked (edited migration, newer database, ...)."""


class SchemaNewerWarning(UserWarning):
    """The database has migrations this package does not know: upgrade the package."""


class RuntimeUnavailable(PgfactsError):
    """The local database runtime cannot run here; the message names the alternatives."""


_BY_SQLSTATE: dict[str, type[PgfactsError]] = {
    "22023": InvalidParameter,
    "42501": PermissionDenied,
    "P0002": NotFound,
    "PF001": UnknownEntity,
    "PF002": UnknownPredicate,
    "PF003": CardinalityMismatch,
    "PF004": ClaimNotLive,
    "PF005": ClaimNotRetracted,
    "PF006": IntervalTaken,
    "PF007": IdempotencyKeyReused,
    "PF010": RedactedContent,
    "PF011": IncognitoWrite,
}
_BY_CLASS: dict[str, type[PgfactsError]] = {
    "22": InvalidParameter,
    "23": Conflict,
    "40": RetryTransaction,
}


def translate(exc: psycopg.Error) -> PgfactsError:
    """Turn a psycopg error into the matching pgfacts exception (never loses the SQLSTATE)."""
    diag = exc.diag
    sqlstate = exc.sqlstate or ""
    cls = _BY_SQLSTATE.get(sqlstate) or _BY_CLASS.get(sqlstate[:2], PgfactsError)
    message = diag.message_primary or str(exc).strip()
    return cls(message, sqlstate=exc.sqlstate, detail=diag.message_detail, hint=diag.message_hint)
