"""The knowledge tests' caller (tenant k1, an operator) and vocabulary: the ``k`` fixture
(conftest.py offers it to every test module), people and lives_in claims."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ..conftest import Database
from .caller import Caller


def knowledge_caller(
    db: Database, login: str = "app", kind: str = "operator", tenant: str = "k1"
) -> Caller:
    """A caller of the knowledge SQL API, tenant k1 unless told."""
    return Caller(db, login, tenant=tenant, kind=kind)


@pytest.fixture
def k(db: Database) -> Iterator[Caller]:
    knowledge = knowledge_caller(db)
    knowledge.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    knowledge.one("SELECT pgfacts.define_predicate('works_with', 'many')")
    knowledge.one("SELECT pgfacts.define_predicate('visited', 'event')")
    yield knowledge
    knowledge.close()


def person(k: Caller, name: str) -> int:
    return k.one(
        "SELECT pgfacts.ensure_entity('person', %s, external_ref => %s)",  # type: ignore[no-any-return]
        name,
        f"app:people/{name}",
    )


def lives(
    subject: int, city: str, start: str, end: str | None = None, **extra: Any
) -> dict[str, Any]:
    claim = {"subject": subject, "predicate": "lives_in", "object": city, "valid_from": start}
    if end:
        claim["valid_to"] = end
    return {**claim, **extra}
