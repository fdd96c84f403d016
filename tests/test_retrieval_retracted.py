"""Retracted and outranked claims never answer (issue 27): a retraction says an assertion was
an error, never true, so no version of it answers a question of any intent, the historical
and "both" ones included, in search, context_pack and nearest; an outranked claim was never
believed. A claim superseded by a later truth still answers a question about the past. The
auditor's view (search_claims with include_history) still lists both, marked; a search as
of an instant before the retraction answers what was believed then, as it did at the time."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts.client import Context
from pgfacts.retrieval import HashEmbedder, run_embedding_queue

from .conftest import Database
from .support.caller import Caller, raises

INTENTS = ("current", "historical", "both", "unknown")
EMBEDDER = HashEmbedder(64)
# Questions whose detected intent is each of the four (context_pack takes the detected one).
PACK_QUESTIONS = {
    "current": "Where does Ben live now?",
    "historical": "Where did Ben use to live?",
    "both": "How has the city Ben lives in changed over time?",
    "unknown": "Ben home city",
}


def lives(subject: int, city: str, year: int, name: str) -> dict[str, Any]:
    return {
        "subject": subject,
        "predicate": "lives_in",
        "object": city,
        "valid_from": f"{year}-01-01",
        "text": f"{name} lives in {city}",
    }


class Story:
    """Anna: Kyiv from 2010, then Lviv from 2018 (both told by the owner: Kyiv is a past
    truth), and a third party's Odesa from 2015, outranked. Ben: Porto from 2012, Faro from
    2014, Braga from 2018 (an agent's notes), then Faro retracted: its row superseded by
    Braga and the narrowed row the retraction retired are both of a retracted assertion.
    Every claim is embedded while live (HashEmbedder, 64 dimensions)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.op = Caller(db)
        self.op.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
        self.op.one("SELECT pgfacts.register_embedding_model(%s, 64)", EMBEDDER.model)
        self.anna = self.op.entity("Anna")
        self.ben = self.op.entity("Ben")
        self.tell("anna/1", self.anna, "Kyiv", 2010, "Anna", trust="owner")
        self.tell("anna/2", self.anna, "Lviv", 2018, "Anna", trust="owner")
        outcome = self.tell("anna/3", self.anna, "Odesa", 2015, "Anna", trust="third_party")
        assert outcome["counters"]["outranked"] == 1
        self.tell("ben/1", self.ben, "Porto", 2012, "Ben")
        self.tell("ben/2", self.ben, "Faro", 2014, "Ben")
        self.tell("ben/3", self.ben, "Braga", 2018, "Ben")
        self.before_retraction = self.op.now()
        faro = self.op.one(
            "SELECT claim_id FROM pgfacts.claim_history(%s, 'lives_in') "
            "WHERE object_value = '\"Faro\"' AND retired_at IS NULL",
            self.ben,
        )
        assert self.op.one("SELECT pgfacts.retract(%s)", faro)["rows"] == 1
        self.faro = faro

    def tell(self, ref: str, subject: int, city: str, year: int, name: str, **kw: Any) -> Any:
        outcome = self.op.ingest(ref, [lives(subject, city, year, name)], **kw)
        run_embedding_queue(
            EMBEDDER, Context(tenant="t1", agent_kind="operator"), dsn=self.db.dsn()
        )
        return outcome

    def ids(self, subject: int, city: str) -> set[int]:
        """Every claim row of that city in the slot, whatever its state."""
        return {
            r[0]
            for r in self.op.rows(
                "SELECT claim_id FROM pgfacts.claim_history(%s, 'lives_in') "
                "WHERE object_value = %s",
                subject,
                Jsonb(city),
            )
        }

    def vector(self, text: str) -> str:
        return "[" + ",".join(f"{x:.6f}" for x in EMBEDDER.embed([text])[0]) + "]"


@pytest.fixture
def story(db: Database) -> Story:
    return Story(db)


def claim_ids(hits: list[dict[str, Any]]) -> set[int]:
    return {int(h["ref"].split(":")[1]) for h in hits if h["item_kind"] == "claim"}


def test_the_story_holds_what_it_says(story: Story) -> None:
    # Two rows of Faro (the one Braga superseded, the one the retraction retired), one of
    # Odesa, stored already retired (never believed), and Kyiv's past row is live.
    history = {
        (r[0], r[3])
        for r in story.op.history(story.ben, "lives_in")
        if r[0] == "Faro"  # object_value, retired_reason
    }
    assert history == {("Faro", "superseded"), ("Faro", "retracted")}
    assert [r[3] for r in story.op.history(story.anna, "lives_in") if r[0] == "Odesa"] == [
        "outranked"
    ]
    assert len(story.ids(story.ben, "Faro")) == 2


@pytest.mark.parametrize("intent", INTENTS)
def test_no_intent_answers_with_a_retracted_or_outranked_claim(story: Story, intent: str) -> None:
    never = story.ids(story.ben, "Faro") | story.ids(story.anna, "Odesa")
    for question in ("Did Ben live in Faro?", "Ben Faro", "Anna Odesa", "Where did Ben live?"):
        for vector in (None, story.vector(question)):
            hits = story.op.search(
                question,
                intent=intent,
                query_vector=vector,
                model=EMBEDDER.model if vector else None,
            )
            assert not claim_ids(hits) & never, (question, intent, hits)
            assert not any("Faro" in h["content"] or "Odesa" in h["content"] for h in hits)


@pytest.mark.parametrize("intent", ("historical", "both"))
def test_a_truth_superseded_later_still_answers_the_past(story: Story, intent: str) -> None:
    for vector in (None, story.vector("Where did Anna live before?")):
        hits = story.op.search(
            "Where did Anna live before?",
            intent=intent,
            query_vector=vector,
            model=EMBEDDER.model if vector else None,
        )
        kyiv = [h for h in hits if h["content"] == "Anna lives in Kyiv"]
        assert kyiv and not kyiv[0]["current"]
        assert any(
            h["content"] == "Ben lives in Porto"
            for h in story.op.search("Ben Porto", intent=intent)
        )
    # A current question is answered with what holds now.
    now = story.op.search("Where does Anna live now?")
    assert now[0]["content"] == "Anna lives in Lviv" and now[0]["current"]


@pytest.mark.parametrize("include_history", (False, True))
def test_nearest_never_returns_them(story: Story, include_history: bool) -> None:
    never = story.ids(story.ben, "Faro") | story.ids(story.anna, "Odesa")
    for text in ("Ben lives in Faro", "Anna lives in Odesa"):
        near = {
            r[0]
            for r in story.op.rows(
                "SELECT item_id FROM pgfacts.nearest(%s, %s::vector, k => 50, "
                "item_kinds => '{claim}', include_history => %s)",
                EMBEDDER.model,
                story.vector(text),
                include_history,
            )
        }
        assert near and not near & never
        if include_history:  # the past truths are there
            assert story.ids(story.anna, "Kyiv") & near and story.ids(story.ben, "Porto") & near


@pytest.mark.parametrize("intent", INTENTS)
def test_context_pack_leaves_them_out(story: Story, intent: str) -> None:
    question = PACK_QUESTIONS[intent]
    for vector in (None, story.vector(question)):
        pack = story.op.one(
            "SELECT pgfacts.context_pack(%s, query_vector => %s::vector, model => %s)",
            question,
            vector,
            EMBEDDER.model if vector else None,
        )
        assert pack["intent"] == intent
        never = {f"claim:{i}" for i in story.ids(story.ben, "Faro")}
        refs = {i["ref"] for i in pack["items"]} | set(pack["trace"]["suppressed"])
        assert refs and not refs & never, pack
        assert not any("Faro" in i["content"] for i in pack["items"])


def test_the_auditor_sees_them_marked(story: Story) -> None:
    listed = {
        r[0]: r[1:]
        for r in story.op.rows(
            "SELECT claim_id, current, stopped_believed_at FROM pgfacts.search_claims("
            "'Faro OR Odesa', include_history => true, \"limit\" => 20)"
        )
    }
    never = story.ids(story.ben, "Faro") | story.ids(story.anna, "Odesa")
    assert set(listed) == never
    # Each marked: not current, with the instant it stopped being believed; the outranked
    # one stopped the instant it was recorded (never believed).
    assert all(not current and stopped is not None for current, stopped in listed.values())
    (odesa,) = story.ids(story.anna, "Odesa")
    recorded = story.op.one(
        "SELECT recorded_at FROM pgfacts.claim_history(%s, 'lives_in') WHERE claim_id = %s",
        story.anna,
        odesa,
    )
    assert listed[odesa][1] == recorded
    # Without the auditor's option, neither is listed.
    assert not story.op.rows("SELECT claim_id FROM pgfacts.search_claims('Faro OR Odesa')")


def test_as_of_before_the_retraction_answers_what_was_believed_then(story: Story) -> None:
    # The one meaning of known_at: what was believed at that instant, the same answer at
    # any later time. Faro was believed then; the retraction came after.
    then = story.op.search(
        "Where did Ben live?", intent="historical", known_at=story.before_retraction
    )
    faro = story.ids(story.ben, "Faro")
    assert claim_ids(then) & faro  # identical content is one hit: one of its two rows
    now = story.op.search("Where did Ben live?", intent="historical")
    assert now and not claim_ids(now) & faro


def test_a_restored_assertion_answers_again(story: Story) -> None:
    restored = story.op.one("SELECT pgfacts.restore(%s)", story.faro)["restored_as"]
    assert len(restored) == 1
    hits = story.op.search("Did Ben live in Faro?", intent="historical")
    assert any(h["content"] == "Ben lives in Faro" for h in hits)
    assert claim_ids(hits) & story.ids(story.ben, "Faro")


def test_bad_input_is_refused_as_before(story: Story) -> None:
    invalid = psycopg.errors.InvalidParameterValue.sqlstate
    raises(invalid, lambda: story.op.search("Ben", intent="sometimes"))
    raises(invalid, lambda: story.op.search("Ben", query_vector="[1,0,0]", model=EMBEDDER.model))
    raises(
        invalid,
        story.op.rows,
        "SELECT * FROM pgfacts.search_claims('Faro', include_history => true, \"limit\" => 101)",
    )
    raises(
        invalid,
        story.op.rows,
        "SELECT * FROM pgfacts.nearest(%s, '[1,0,0]', include_history => true)",
        EMBEDDER.model,
    )
    raises(invalid, story.op.rows, "SELECT pgfacts.context_pack('Ben', token_budget => 0)")
