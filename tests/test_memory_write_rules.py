"""The working-memory write path's named rules, called directly: fact_problem (one fact's
problem code, in the order its errors take precedence) and key_problem."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg.types.json import Jsonb

from .conftest import Database

FACT_PROBLEM = "SELECT pgfacts_internal.fact_problem(%s, %s, %s, %s)"


@pytest.fixture
def admin(db: Database) -> Iterator[psycopg.Connection]:
    with db.admin() as conn:
        yield conn


def problem(
    conn: psycopg.Connection,
    item: Any,
    kind: str = "agent",
    session: str | None = "s1",
    max_bytes: int = 100,
) -> str | None:
    row = conn.execute(FACT_PROBLEM, (Jsonb(item), kind, session, max_bytes)).fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ({"key": "k", "value": 1}, None),
        ({"key": "k", "value": None, "tags": None, "shared": None}, None),
        ([1], "not_object"),
        ({"key": "k", "value": 1, "extra": 1}, "unknown_field"),
        ({"key": 1, "value": 1, "extra": 1}, "unknown_field"),  # the shape first
        ({"value": 1}, "key_not_string"),
        ({"key": None, "value": 1}, "key_not_string"),
        ({"key": "", "value": 1}, "bad_key"),
        ({"key": "x" * 513, "value": 1}, "bad_key"),
        ({"key": "a\nb", "value": 1}, "bad_key"),
        ({"key": "k"}, "value_missing"),
        ({"key": "k", "value": 1, "shared": "yes"}, "shared_not_boolean"),
        ({"key": "k", "value": 1, "tags": "a"}, "bad_tags"),
        ({"key": "k", "value": 1, "tags": [""]}, "bad_tags"),
        ({"key": "k", "value": 1, "tags": [["a"]]}, "bad_tags"),
        ({"key": "k", "value": 1, "tags": [None]}, "bad_tags"),
        ({"key": "k", "value": 1, "tags": ["x" * 101]}, "bad_tags"),
        ({"key": "k", "value": 1, "tags": ["\n" * 101]}, "bad_tags"),
        ({"key": "k", "value": 1, "tags": ["é" * 100, "\n" * 100]}, None),
        # the tags' text at 100 bytes and just over it (the length is asked only past 100)
        ({"key": "k", "value": 1, "tags": ["x" * 96]}, None),
        ({"key": "k", "value": 1, "tags": ["x" * 100]}, None),
        ({"key": "k", "value": 1, "tags": ["é" * 101]}, "bad_tags"),
        ({"key": "k", "value": 1, "tags": ["a", "x" * 101]}, "bad_tags"),
        ({"key": "k", "value": 1, "tags": ["a", ""]}, "bad_tags"),
        ({"key": "k", "value": 1, "tags": [str(i) for i in range(64)]}, None),
        ({"key": "k", "value": 1, "tags": [str(i) for i in range(65)]}, "bad_tags"),
        ({"key": "tools/x", "value": 1, "tags": [""]}, "bad_tags"),  # before access
        ({"key": "tools/x", "value": 1}, "key_not_writable"),
        ({"key": "k", "value": "x" * 200, "shared": True}, "value_too_large"),
    ],
)
def test_fact_problem_names_the_first_rule_a_fact_breaks(
    admin: psycopg.Connection, item: Any, expected: str | None
) -> None:
    assert problem(admin, item) == expected


def test_fact_problem_reads_the_kind_session_and_cap(admin: psycopg.Connection) -> None:
    fm = {"key": "config/facts-manager/x", "value": 1}
    assert problem(admin, fm) == "key_not_writable"
    assert problem(admin, fm, kind="facts_manager") is None
    assert problem(admin, {"key": "k", "value": 1}, session=None) == "no_session"
    assert problem(admin, {"key": "k", "value": 1, "shared": True}, session=None) is None
    # access before session before size
    assert problem(admin, {"key": "tools/x", "value": "x" * 200}, session=None) == (
        "key_not_writable"
    )
    assert problem(admin, {"key": "k", "value": "x" * 200}, session=None) == "no_session"
    assert problem(admin, {"key": "k", "value": "x" * 200}, max_bytes=1000) is None


def test_key_problem_and_check_key_agree(admin: psycopg.Connection) -> None:
    for key, code in [
        ("ok", None),
        (None, "empty"),
        ("", "empty"),
        ("x" * 512, None),
        ("x" * 513, "too_long"),
        ("a\x01b", "control_character"),
        ("a\tb", "control_character"),
    ]:
        row = admin.execute("SELECT pgfacts_internal.key_problem(%s)", (key,)).fetchone()
        assert row == (code,), key
        if code is None:
            continue
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            admin.execute("SELECT pgfacts_internal.check_key(%s)", (key,))


def tags_are_bad(tags: Any) -> bool:
    """The tag rule, as the reference: null or an array of at most 64 strings of 1 to 100
    characters."""
    if tags is None:
        return False
    if not isinstance(tags, list) or len(tags) > 64:
        return True
    return any(not isinstance(t, str) or t == "" or len(t) > 100 for t in tags)


TAG_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    min_size=0,
    max_size=105,
)
TAG = st.one_of(
    TAG_TEXT,
    st.integers(),
    st.none(),
    st.booleans(),
    st.lists(TAG_TEXT, max_size=2),
    st.dictionaries(st.just("a"), TAG_TEXT, max_size=1),
)
TAGS = st.one_of(st.none(), TAG_TEXT, st.integers(), st.lists(TAG, max_size=70))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tags=TAGS)
def test_the_tag_rule_matches_its_reference(admin: psycopg.Connection, tags: Any) -> None:
    expected = "bad_tags" if tags_are_bad(tags) else None
    assert problem(admin, {"key": "k", "value": 1, "tags": tags}) == expected
