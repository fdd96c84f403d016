"""Knowledge input limits and lock keys (issue 11, items 3, 5 and 8 for knowledge).

Every over-long or over-deep knowledge argument is a clean 22023 that names the limit, with
nothing written; text at the caps is accepted, even random and incompressible (so index row
and tsvector limits stay far away). Advisory lock keys hash a per-install secret that only
the owner reads. Every limit here is listed in docs/errors.md ("Limits").
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import migrate

from .conftest import Database
from .docs_support import snippet
from .support.caller import Caller
from .support.knowledge import knowledge_caller

RNG = random.Random(11)
# Code points that take 4 bytes in UTF-8 and never compress (no two alike nearby).
WIDE = [chr(c) for c in range(0x1F300, 0x1F5FF)]
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def wide(chars: int) -> str:
    return "".join(RNG.choice(WIDE) for _ in range(chars))


def words(chars: int) -> str:
    """Random short distinct-ish words: the worst case for a tsvector's size."""
    out: list[str] = []
    size = 0
    while size < chars:
        word = "".join(RNG.choice(LETTERS) for _ in range(RNG.randint(2, 8)))
        out.append(word)
        size += len(word) + 1
    return " ".join(out)[:chars]


def deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def refused(info: pytest.ExceptionInfo[psycopg.Error], fragment: str) -> None:
    assert info.value.sqlstate == "22023", (info.value.sqlstate, str(info.value))
    assert fragment in str(info.value), str(info.value)
    # A message never echoes more than a short prefix of the input.
    primary = info.value.diag.message_primary or ""
    assert len(primary) < 200, primary


def counts(db: Database) -> tuple[int, ...]:
    with db.admin() as admin:
        row = admin.execute(
            "SELECT (SELECT count(*) FROM pgfacts_internal.entities),"
            " (SELECT count(*) FROM pgfacts_internal.predicates),"
            " (SELECT count(*) FROM pgfacts_internal.episodes),"
            " (SELECT count(*) FROM pgfacts_internal.claims),"
            " (SELECT count(*) FROM pgfacts_internal.claim_sources)"
        ).fetchone()
    assert row is not None
    return tuple(int(x) for x in row)


@pytest.fixture
def k(db: Database) -> Iterator[Caller]:
    """The knowledge caller with no vocabulary yet (setup_vocabulary defines it)."""
    caller = knowledge_caller(db)
    yield caller
    caller.close()


ENSURE = "SELECT pgfacts.ensure_entity(kind => %s, name => %s, aliases => %s, external_ref => %s)"


def setup_vocabulary(k: Caller) -> int:
    k.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    return int(k.one("SELECT pgfacts.ensure_entity('person', 'Ann')"))


def episode(**fields: Any) -> dict[str, Any]:
    return {"source_kind": "note", "source_ref": "r", "content_hash": "h", **fields}


def claim(subject: int, **fields: Any) -> dict[str, Any]:
    return {
        "subject": subject,
        "predicate": "lives_in",
        "object": "Kyiv",
        "valid_from": "2026-01-01",
        **fields,
    }


# -- items 3 and 8: the episode -----------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("source_kind", "k" * 101, "source_kind is longer than 100 characters"),
        ("source_kind", wide(3000), "source_kind is longer than 100 characters"),
        ("source_ref", wide(257), "source_ref is longer than 1024 bytes"),
        ("source_ref", wide(3000), "source_ref is longer than 1024 bytes"),
        ("content_hash", "h" * 129, "content_hash is longer than 128 characters"),
        ("content_hash", wide(3000), "content_hash is longer than 128 characters"),
        ("extractor", "x" * 201, "extractor is longer than 200 characters"),
    ],
)
def test_an_over_long_episode_field_is_refused(
    db: Database, k: Caller, field: str, value: str, fragment: str
) -> None:
    subject = setup_vocabulary(k)
    before = counts(db)
    with pytest.raises(psycopg.Error) as info:
        k.one(
            "SELECT pgfacts.ingest(%s, %s)",
            Jsonb(episode(**{field: value})),
            Jsonb([claim(subject)]),
        )
    refused(info, fragment)
    assert counts(db) == before


def test_episode_fields_at_their_caps_are_written(db: Database, k: Caller) -> None:
    """Random 4-byte characters at every byte cap together stay under the index row limit."""
    subject = setup_vocabulary(k)
    got = k.one(
        "SELECT pgfacts.ingest(%s, %s)",
        Jsonb(
            episode(
                source_kind=wide(100),
                source_ref=wide(256),
                content_hash=wide(128),
                extractor=wide(200),
            )
        ),
        Jsonb([claim(subject)]),
    )
    assert got["counters"]["inserted"] == 1


def test_purge_source_caps_its_arguments(k: Caller) -> None:
    with pytest.raises(psycopg.Error) as info:
        k.one("SELECT pgfacts.purge_source(%s, 'r')", wide(3000))
    refused(info, "source_kind is longer than 100 characters")
    with pytest.raises(psycopg.Error) as info:
        k.one("SELECT pgfacts.purge_source('note', %s)", wide(3000))
    refused(info, "source_ref is longer than 1024 bytes")


# -- items 3 and 8: the vocabulary --------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"external_ref": wide(257)}, "external_ref is longer than 1024 bytes"),
        ({"external_ref": wide(3000)}, "external_ref is longer than 1024 bytes"),
        ({"aliases": ["a"] * 65}, "at most 64 aliases"),
        ({"aliases": ["a" * 201]}, "at most 64 aliases"),
        ({"aliases": [None]}, "at most 64 aliases"),
        ({"kind": "k" * 101}, "kind (1 to 100 characters)"),
        ({"name": wide(3000)}, "name (1 to 500"),
    ],
)
def test_an_over_long_entity_argument_is_refused(
    db: Database, k: Caller, args: dict[str, Any], fragment: str
) -> None:
    full = {"kind": "person", "name": "Ann", "aliases": [], "external_ref": None, **args}
    with pytest.raises(psycopg.Error) as info:
        k.one(
            ENSURE,
            full["kind"],
            full["name"],
            full["aliases"],
            full["external_ref"],
        )
    refused(info, fragment)
    assert counts(db) == (0, 0, 0, 0, 0)


def test_entity_arguments_at_their_caps_are_written(k: Caller) -> None:
    entity = k.one(
        ENSURE,
        wide(100),
        wide(500),
        [wide(200) for _ in range(64)],
        wide(256),
    )
    assert isinstance(entity, int)


@pytest.mark.parametrize(
    ("name", "cardinality", "description", "fragment"),
    [
        ("ok", "one", words(2001), "description is longer than 2000 characters"),
        (wide(100000), "one", "", "lower_snake_case"),
        ("ok", wide(100000), "", "cardinality must be one, many or event"),
    ],
)
def test_a_bad_predicate_argument_is_refused_briefly(
    db: Database, k: Caller, name: str, cardinality: str, description: str, fragment: str
) -> None:
    with pytest.raises(psycopg.Error) as info:
        k.one("SELECT pgfacts.define_predicate(%s, %s, %s)", name, cardinality, description)
    refused(info, fragment)
    assert counts(db) == (0, 0, 0, 0, 0)


# -- items 3 and 8: the claims ------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "problem", "fragment"),
    [
        ({"object": words(1_600_000)}, "object_too_large", "65536 bytes"),
        ({"object": {"a": words(70_000)}}, "object_too_large", "65536 bytes"),
        ({"object": deep(65)}, "object_too_deep", "64 levels"),
        ({"quote": words(10_001)}, "quote_too_long", "10000 characters"),
        ({"locator": {"page": words(5000)}}, "locator_too_large", "4096 bytes"),
        ({"locator": deep(65)}, "locator_too_large", "64 levels"),
        ({"predicate": "p" * 101}, "predicate_too_long", "100 characters"),
        ({"predicate": wide(100_000)}, "predicate_too_long", "100 characters"),
        ({"text": words(10_001)}, "text_too_long", "10000 characters"),
    ],
)
def test_an_over_large_claim_is_refused(
    db: Database, k: Caller, fields: dict[str, Any], problem: str, fragment: str
) -> None:
    subject = setup_vocabulary(k)
    before = counts(db)
    with pytest.raises(psycopg.Error) as info:
        k.one(
            "SELECT pgfacts.ingest(%s, %s)",
            Jsonb(episode()),
            Jsonb([claim(subject, object="ok"), claim(subject, **fields)]),
        )
    refused(info, fragment)
    assert info.value.diag.message_detail == f"claim 1: {problem}"
    assert counts(db) == before


def test_a_claim_at_every_cap_is_written_and_found(db: Database, k: Caller) -> None:
    """The largest search document the caps allow (text, object, names and aliases of both
    entities, the predicate's description, all random words) stays under the tsvector
    limit."""
    k.one("SELECT pgfacts.define_predicate('knows', 'many', %s)", words(2000))

    def entity() -> int:
        return int(
            k.one(
                "SELECT pgfacts.ensure_entity(kind => 'person', name => %s, aliases => %s)",
                words(500),
                [words(200) for _ in range(64)],
            )
        )

    subject, other = entity(), entity()
    big = {
        "subject": subject,
        "predicate": "knows",
        "object": words(65_000),
        "text": words(10_000),
        "quote": words(10_000),
        "locator": {"page": words(4000)},
        "valid_from": "2026-01-01",
    }
    linked = {**big, "object_entity": other}
    del linked["object"]
    got = k.one("SELECT pgfacts.ingest(%s, %s)", Jsonb(episode()), Jsonb([big, linked]))
    assert got["counters"]["inserted"] == 2
    with db.admin() as admin:
        row = admin.execute(
            "SELECT max(pg_column_size(search_doc)) FROM pgfacts_internal.claims"
        ).fetchone()
    assert row is not None and 0 < row[0] < 1_048_576


# -- item 5: lock keys --------------------------------------------------------------------


def test_a_tenant_bound_login_cannot_compute_lock_keys(db: Database) -> None:
    with db.connect("bound", autocommit=True) as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'agent')")
        for sql in (
            "SELECT pgfacts_internal.slot_lock_key('t2', '1', 'lives_in')",
            "SELECT pgfacts_internal.lock_key('x')",
            "SELECT pg_sequence_last_value('pgfacts_internal.lock_key_secret_a')",
            "SELECT last_value FROM pgfacts_internal.lock_key_secret_b",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
        shown = conn.execute(
            "SELECT sequencename, last_value FROM pg_sequences "
            "WHERE sequencename LIKE 'lock_key_secret_%' ORDER BY 1"
        ).fetchall()
        assert shown == [("lock_key_secret_a", None), ("lock_key_secret_b", None)]


def test_every_kind_and_the_maintainer_are_denied_the_key_functions(db: Database) -> None:
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT r.rolname, p.oid::regprocedure::text"
            "  FROM pg_proc p CROSS JOIN pg_roles r"
            " WHERE p.pronamespace = 'pgfacts_internal'::regnamespace"
            "   AND p.proname IN ('slot_lock_key', 'lock_key', 'renew_lock_key_secret')"
            "   AND r.rolname LIKE 'pgfacts\\_%%' AND r.rolname <> 'pgfacts_owner'"
            "   AND has_function_privilege(r.oid, p.oid, 'EXECUTE')"
        ).fetchall()
    assert rows == []


def test_two_installs_get_different_lock_keys(db: Database, empty_db: str) -> None:
    migrate(empty_db, "pgfacts")
    key = "SELECT pgfacts_internal.slot_lock_key('t1', '1', 'lives_in')"
    with db.admin() as admin, psycopg.connect(empty_db, autocommit=True) as other:
        first = admin.execute(key).fetchone()
        second = other.execute(key).fetchone()
        assert admin.execute(key).fetchone() == first  # stable within an install
    assert first is not None and second is not None and first != second


NEW_SECRET = "-- as superuser, in one clone: a fresh lock key secret"


def test_a_new_secret_as_the_docs_set_it_changes_every_key(db: Database, k: Caller) -> None:
    """docs/security.md's snippet for clones of one template, run as written: the keys
    change, and the write path locks the new ones."""
    key = "SELECT pgfacts_internal.slot_lock_key('k1', '1', 'lives_in')"
    with db.admin() as admin:
        before = admin.execute(key).fetchone()
        admin.execute(snippet("security.md", NEW_SECRET).encode())
        after = admin.execute(key).fetchone()
    assert before is not None and after is not None and before != after
    test_the_writers_still_serialize_on_the_secret_keys(db, k)


def test_the_writers_still_serialize_on_the_secret_keys(db: Database, k: Caller) -> None:
    """The key the write path locks is the one slot_lock_key computes with the secret."""
    subject = setup_vocabulary(k)
    with db.admin() as admin:
        admin.execute("BEGIN")
        admin.execute(
            "SELECT pg_advisory_xact_lock(pgfacts_internal.slot_lock_key('k1', %s, 'lives_in'))",
            (str(subject),),
        )
        with db.connect("app") as conn:
            conn.execute("SET lock_timeout = '200ms'")
            conn.execute("SELECT pgfacts.set_context(tenant => 'k1', agent_kind => 'operator')")
            with pytest.raises(psycopg.errors.LockNotAvailable):
                conn.execute(
                    "SELECT pgfacts.ingest(%s, %s)", (Jsonb(episode()), Jsonb([claim(subject)]))
                )
        admin.execute("ROLLBACK")
