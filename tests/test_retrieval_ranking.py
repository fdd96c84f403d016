"""search's ranking (issue 27): the lists' scores calibrated before they are fused, the rows
about the entities a question names first and other entities' look-alikes left out while
one is left, and a historical question's preference for what no longer holds."""

from __future__ import annotations

import pytest

from pgfacts.client import Context
from pgfacts.retrieval import HashEmbedder, run_embedding_queue

from .conftest import Database
from .support.caller import Caller

EMBEDDER = HashEmbedder(64)


@pytest.fixture
def people(db: Database) -> Caller:
    """Three people who live somewhere, one of them known by an alias; a note that names
    no one; an unrelated fact."""
    caller = Caller(db)
    caller.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    ola = caller.one(
        "SELECT pgfacts.ensure_entity('person', 'Ola Nordmann', aliases => ARRAY['Olly'])"
    )
    for name, city in (
        ("Ola Nordmann", "Bergen"),
        ("Kari Hansen", "Oslo"),
        ("Per Olsen", "Tromso"),
    ):
        subject = ola if name == "Ola Nordmann" else caller.entity(name)
        caller.ingest(
            f"note-{city}",
            [
                {
                    "subject": subject,
                    "predicate": "lives_in",
                    "object": city,
                    "valid_from": "2020-01-01",
                    "text": f"{name} lives in {city}",
                }
            ],
        )
    caller.fact("notes/move", "Moving day: where everyone lives is in the shared sheet")
    caller.fact("notes/coffee", "The office coffee machine is broken")
    return caller


def contents(caller: Caller, query: str, **kwargs: object) -> list[str]:
    return [h["content"] for h in caller.search(query, **kwargs)]


def test_a_named_entity_s_rows_come_first_and_look_alikes_stay_out(people: Caller) -> None:
    # "lives" is every claim's predicate word: without the name filter the other people's
    # claims rank beside Ola's.
    assert contents(people, "Where does Kari Hansen live?", item_kinds=["claim"]) == [
        "Kari Hansen lives in Oslo"
    ]
    found = contents(people, "Where does Ola Nordmann live now?")
    assert found[0] == "Ola Nordmann lives in Bergen"
    assert "Kari Hansen lives in Oslo" not in found and "Per Olsen lives in Tromso" not in found
    # A fact that names no entity is not a look-alike: it fills what is left, after Ola's.
    assert "notes/move: Moving day: where everyone lives is in the shared sheet" in found[1:]


def test_an_alias_as_written_and_a_possessive_name_the_entity(people: Caller) -> None:
    assert contents(people, "Where does Olly live?", item_kinds=["claim"]) == [
        "Ola Nordmann lives in Bergen"
    ]
    assert contents(people, "What is Per Olsen's city?", item_kinds=["claim"]) == [
        "Per Olsen lives in Tromso"
    ]
    # Case does not matter for a name; stop words name no entity.
    assert contents(people, "Did KARI HANSEN's neighbour move?", item_kinds=["claim"]) == [
        "Kari Hansen lives in Oslo"
    ]
    assert len(contents(people, "where is it living", item_kinds=["claim"])) == 3


def test_a_question_naming_no_entity_ranks_every_entity_s_claims(people: Caller) -> None:
    found = contents(people, "Who lives where?", item_kinds=["claim"])
    assert sorted(found) == [
        "Kari Hansen lives in Oslo",
        "Ola Nordmann lives in Bergen",
        "Per Olsen lives in Tromso",
    ]


def test_scores_are_standardised_over_each_list(db: Database, people: Caller) -> None:
    # Lexical alone: the scores of the whole list are z scores (they sum to about zero, the
    # tie-breaking reciprocal ranks aside); rank fusion's are all positive.
    hits = people.search("lives in Bergen Oslo", item_kinds=["claim"])
    assert len(hits) == 3
    assert abs(sum(h["score"] for h in hits)) < 0.01
    assert min(h["score"] for h in hits) < 0 < max(h["score"] for h in hits)
    # With a vector list the ranks of both lists stay in text_rank and vector_rank.
    with db.connect() as conn, conn.transaction():
        conn.execute("SELECT pgfacts.set_context('t1', agent_kind => 'operator')")
        conn.execute("SELECT pgfacts.register_embedding_model(%s, 64)", (EMBEDDER.model,))
    run_embedding_queue(EMBEDDER, Context(tenant="t1", agent_kind="operator"), dsn=db.dsn())
    vector = "[" + ",".join(str(x) for x in EMBEDDER.embed(["Bergen"])[0]) + "]"
    both = people.search("Bergen", query_vector=vector, model=EMBEDDER.model, item_kinds=["claim"])
    assert both[0]["content"] == "Ola Nordmann lives in Bergen"
    assert both[0]["text_rank"] == 1 and both[0]["vector_rank"] is not None


def test_a_historical_question_prefers_what_no_longer_holds(db: Database) -> None:
    caller = Caller(db)
    caller.one("SELECT pgfacts.define_predicate('drives', 'one')")
    lena = caller.entity("Lena")
    # The current value first: equal scores fall to the lower id, the current claim's.
    for year, car in ((2021, "Saab"), (2015, "Volvo")):
        caller.ingest(
            f"car-{year}",
            [
                {
                    "subject": lena,
                    "predicate": "drives",
                    "object": car,
                    "valid_from": f"{year}-01-01",
                    "text": f"Lena drives a {car}",
                }
            ],
        )
    assert contents(caller, "What car does Lena drive now?", item_kinds=["claim"])[0] == (
        "Lena drives a Saab"
    )
    # Both claims hold the question's words alike; the one no longer true answers "before".
    assert contents(caller, "What car did Lena drive before?", item_kinds=["claim"])[0] == (
        "Lena drives a Volvo"
    )
