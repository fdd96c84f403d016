"""Lexical search over facts and claims: short tokens, negation, stemming, questions,
websearch syntax, stop words, dedup, fuzzy keys, search_claims compatibility."""

from __future__ import annotations

import random

import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller, raises


@pytest.fixture
def m(db: Database) -> Caller:
    caller = Caller(db)
    caller.fact("tech/db", "Our reporting runs on SQL views")
    caller.fact("tech/lang", "The billing service is written in Go")
    caller.fact("tech/pkg", "Frontend packages come from npm")
    caller.fact("tech/api", "The public API is versioned")
    caller.fact("metrics/kpi", "The main KPI is weekly active users")
    caller.fact("prefs/bob", "Bob likes coffee")
    caller.fact("prefs/carl", "Carl does not like coffee")
    caller.fact("ops/release", "Deployment happens every Tuesday")
    caller.fact("dup/a", "The office wifi password rotates monthly")
    caller.fact("dup/b", "The office wifi password rotates monthly")
    return caller


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("SQL", "tech/db"),
        ("go", "tech/lang"),
        ("npm", "tech/pkg"),
        ("API", "tech/api"),
        ("kpi", "metrics/kpi"),
    ],
)
def test_short_tokens_are_found(m: Caller, query: str, key: str) -> None:
    assert m.refs(query)[0] == f"shared:{key}"


def test_negation_ranks_below(m: Caller) -> None:
    assert m.refs("likes coffee")[:2] == ["shared:prefs/bob", "shared:prefs/carl"]
    # A negated query does not demote the negated row.
    assert "shared:prefs/carl" in m.refs("does not like coffee")


def test_stemmed_matching_on_top(m: Caller) -> None:
    assert m.refs("when are we deploying?") == ["shared:ops/release"]


def test_questions_find_their_answers(m: Caller) -> None:
    anna = m.entity("Anna")
    m.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    m.ingest(
        "n1",
        [
            {
                "subject": anna,
                "predicate": "lives_in",
                "object": "Berlin",
                "valid_from": "2020-01-01",
            }
        ],
    )
    hits = m.search("where does Anna live now?")
    assert hits[0]["content"] == "Anna lives in Berlin"
    # Today's search_claims found nothing for this question; now it does.
    assert m.rows(
        "SELECT object_value FROM pgfacts.search_claims('where does Anna live now?')"
    ) == [("Berlin",)]


@pytest.mark.parametrize("first", ["as", "at"])
def test_word_order_decides_between_rows_holding_the_same_words(db: Database, first: str) -> None:
    # "works as" and "works at" hold the same content words; the question's "work as" tells
    # them apart, whichever was written first (ids no longer decide the tie).
    m = Caller(db)
    texts = {"as": "Greta works as a dentist", "at": "Greta works at Acme"}
    for n, which in enumerate([first, "at" if first == "as" else "as"]):
        m.fact(f"notes/{n}", texts[which])
    assert m.search("What did Greta work as before?")[0]["content"].endswith(texts["as"])
    assert m.search("Where did Greta work at?")[0]["content"].endswith(texts["at"])
    greta = m.entity("Greta")
    m.one("SELECT pgfacts.define_predicate('worked', 'many')")
    m.ingest(
        "n1",
        [
            {
                "subject": greta,
                "predicate": "worked",
                "object": texts[w].rsplit(" ", 1)[1],
                "text": texts[w],
                "valid_from": "2020-01-01",
            }
            for w in (first, "at" if first == "as" else "as")
        ],
    )
    claims = m.rows("SELECT claim_text FROM pgfacts.search_claims('what did Greta work as?')")
    assert claims[0] == (texts["as"],)
    # A quoted phrase or websearch syntax has no pairs: only its own words count.
    assert {
        r[0]
        for r in m.rows(
            "SELECT (pgfacts_internal.parse_query(q)).pairs IS NULL FROM unnest(ARRAY["
            "'\"work as\" Greta', 'work OR as', 'Greta', 'the Greta']) AS q"
        )
    } == {True}


def test_websearch_quotes_or_and_exclusion(m: Caller) -> None:
    assert m.refs('"likes coffee"') == ["shared:prefs/bob"]
    assert set(m.refs("npm OR kpi")) == {"shared:tech/pkg", "shared:metrics/kpi"}
    assert m.refs("coffee -carl") == ["shared:prefs/bob"]


def test_stop_words_only_finds_nothing(m: Caller) -> None:
    assert m.refs("what is it that they were?") == []
    assert m.refs("") == []


def test_identical_content_is_one_hit(m: Caller) -> None:
    assert len(m.refs("wifi password")) == 1


def test_fuzzy_key_lookup(m: Caller) -> None:
    keys = [r[1] for r in m.rows("SELECT * FROM pgfacts.find_keys('metrcs/kpi')")]
    assert keys[0] == "metrics/kpi"


def test_query_length_is_capped_and_nothing_changes(m: Caller) -> None:
    raises("22023", m.refs, "x " * 600)
    raises("22023", m.rows, "SELECT * FROM pgfacts.search('coffee', \"limit\" => 101)")
    raises("22023", m.rows, "SELECT * FROM pgfacts.search('coffee', scope => 'everything')")
    raises("22023", m.rows, "SELECT * FROM pgfacts.search('coffee', intent => 'someday')")
    raises("22023", m.rows, "SELECT * FROM pgfacts.search_claims('x', \"limit\" => 0)")


def test_search_claims_floor_comes_from_the_tenant_setting(m: Caller) -> None:
    tea = m.entity("Tea drinker")
    m.one("SELECT pgfacts.define_predicate('drinks', 'many')")
    m.ingest(
        "t",
        [
            {
                "subject": tea,
                "predicate": "drinks",
                "object": "oolong",
                "confidence": 0.7,
                "valid_from": "2020-01-01",
            }
        ],
    )
    assert m.rows("SELECT object_value FROM pgfacts.search_claims('oolong')") == [("oolong",)]
    m.one("SELECT pgfacts.set_setting('confidence_floor', '0.8')")
    assert m.rows("SELECT object_value FROM pgfacts.search_claims('oolong')") == []
    assert m.rows("SELECT value FROM pgfacts.search('oolong')") == []
    assert m.rows(
        "SELECT object_value FROM pgfacts.search_claims('oolong', min_confidence => 0.5)"
    ) == [("oolong",)]


def test_an_alias_added_later_finds_the_claims_already_written(m: Caller) -> None:
    anna = m.entity("Anna")
    m.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    m.ingest(
        "n1",
        [
            {
                "subject": anna,
                "predicate": "lives_in",
                "object": "Berlin",
                "valid_from": "2020-01-01",
            }
        ],
    )
    assert m.search("Annushka", item_kinds=["claim"]) == []
    again = m.one(
        "SELECT pgfacts.ensure_entity('person', 'Anna', aliases => ARRAY['Annushka', 'Annushka'])"
    )
    assert again == anna  # the same entity, now with the alias (once)
    assert m.rows("SELECT aliases FROM pgfacts_internal.entities WHERE entity_id = %s", anna) == [
        (["Annushka"],)
    ]
    assert [h["content"] for h in m.search("Annushka", item_kinds=["claim"])] == [
        "Anna lives in Berlin"
    ]
    too_many = [f"alias {i}" for i in range(64)]
    raises(
        "22023", m.one, "SELECT pgfacts.ensure_entity('person', 'Anna', aliases => %s)", too_many
    )
    assert m.rows("SELECT aliases FROM pgfacts_internal.entities WHERE entity_id = %s", anna) == [
        (["Annushka"],)
    ]


def test_search_takes_at_most_64_tags_as_read_facts_does(db: Database) -> None:
    caller = Caller(db)
    tags = [f"t{i}" for i in range(64)]
    caller.fact("tagged/all", "a fact with every tag", tags=tags)
    assert caller.refs("fact", tags=tags) == ["shared:tagged/all"]
    raises("22023", lambda: caller.refs("fact", tags=[*tags, "t64"]))
    raises("22023", lambda: caller.refs("fact", tags=[""]))
    # The tool says so in its schema, from the same caps, and refuses 65 alike.
    schema = caller.one(
        "SELECT d -> 'input_schema' -> 'properties' -> 'tags' "
        "FROM jsonb_array_elements(pgfacts.tool_definitions()) d "
        "WHERE d ->> 'name' = 'facts_search'"
    )
    assert schema["maxItems"] == 64 and schema["items"]["maxLength"] == 100
    found = caller.one(
        "SELECT pgfacts.call_tool('facts_search', %s, %s)",
        Jsonb({"query": "fact", "tags": tags, "mode": "lexical"}),
        Jsonb({"tenant": "t1", "agent_kind": "operator"}),
    )
    assert [r["key"] for r in found["facts"]] == ["tagged/all"], found
    raises(
        "22023",
        caller.one,
        "SELECT pgfacts.call_tool('facts_search', %s, %s)",
        Jsonb({"query": "fact", "tags": [*tags, "t64"]}),
        Jsonb({"tenant": "t1", "agent_kind": "operator"}),
    )


def distinct_words(count: int, seed: int) -> list[str]:
    """count different eight-letter words (the hex digits of random bytes, as letters)."""
    letters = random.Random(seed).randbytes(4 * count).hex().translate(HEX_AS_LETTERS)
    return [letters[i : i + 8] for i in range(0, len(letters), 8)]


HEX_AS_LETTERS = str.maketrans("0123456789", "ghijklmnop")


def test_a_fact_too_large_for_one_tsvector_is_stored_and_its_first_text_found(
    db: Database,
) -> None:
    # 900,000 characters of different words: its words as written and stemmed would make
    # a tsvector over PostgreSQL's 1 MB (54000). The document reads the first 100,000.
    caller = Caller(db)
    words = distinct_words(100_000, seed=5)
    early, late = words[10], words[60_000]
    caller.fact("notes/big", " ".join(words))
    caller.fact("notes/object", {"a": " ".join(words[:50_000]), "b": [early, "zqzqzq"]})
    caller.fact("notes/other", "a small fact")
    assert sorted(caller.refs(early)) == ["shared:notes/big", "shared:notes/object"]
    assert caller.refs(late) == []  # past the first 100,000 characters
    assert caller.refs("zqzqzq") == []  # the object's strings in order: "b" comes after "a"
    # The version a known_at read rebuilds the document of: the same rule.
    believed = caller.one("SELECT clock_timestamp()")
    caller.fact("notes/big", "replaced")
    assert caller.refs(early, known_at=believed) == ["shared:notes/big", "shared:notes/object"]
    assert caller.refs(early) == ["shared:notes/object"]
