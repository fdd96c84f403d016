"""The conversational labelled set (bench/retrieval_conversations.py): its grading holds by
construction, it is the same at every run, and a slice of it goes through search with every
hit a turn of the set. The full set runs in ``make bench`` (retrieval_conversations) and
prints every figure; the floor here only catches a search that stops finding turns."""

from __future__ import annotations

import dataclasses

import psycopg
import pytest
from bench import retrieval_conversations as rc

from pgfacts.client import Context
from pgfacts.retrieval import HashEmbedder, run_embedding_queue

from .conftest import Database

TENANT = "t1"


def test_the_set_is_long_dated_and_graded_by_construction() -> None:
    rc.check()
    turns, asked = rc.build(rc.SIZES["full"])
    assert len(rc.CONVERSATIONS) >= 3 and len(turns) >= 300
    for conversation in rc.CONVERSATIONS:
        assert len(conversation.sessions) >= 6
        assert list(conversation.dates) == sorted(set(conversation.dates))
        speakers = {t.speaker for t in turns if t.conversation == conversation.slug}
        assert speakers == {name.split()[0] for name in conversation.people}
    assert {q.kind for q in asked} == set(rc.KINDS)
    assert len({t.key for t in turns}) == len(turns)
    for q in asked:
        assert (q.kind == "adversarial") == (not q.grades), q
        if q.grades:
            assert 2 in q.grades.values() and set(q.grades) <= {t.key for t in turns}


def test_the_set_is_the_same_at_every_run_and_size() -> None:
    assert rc.build(6) == rc.build(6)
    small, small_questions = rc.build(3)
    full, _ = rc.build(6)
    assert small == [t for t in full if t.session <= 3]
    # A question kept at the smaller size answers from the sessions it holds.
    keys = {t.key for t in small}
    assert all(set(q.grades) <= keys for q in small_questions)


def test_check_finds_a_turn_left_ungraded(monkeypatch: pytest.MonkeyPatch) -> None:
    first = rc.CONVERSATIONS[0]
    question = first.questions[0]
    grades = {k: g for k, g in question.grades.items() if k != "moved.0"}
    broken = dataclasses.replace(
        first, questions=(dataclasses.replace(question, grades=grades), *first.questions[1:])
    )
    monkeypatch.setattr(rc, "CONVERSATIONS", (broken, *rc.CONVERSATIONS[1:]))
    with pytest.raises(AssertionError, match="carrying the cello"):
        rc.check()


def test_a_slice_goes_through_search(db: Database) -> None:
    turns, asked = rc.build(3)
    embedder = HashEmbedder(64)
    with db.connect() as conn:
        rc.load(conn, TENANT, turns)
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context(%s, agent_kind => 'operator')", (TENANT,))
            conn.execute("SELECT pgfacts.register_embedding_model(%s, 64)", (embedder.model,))
    run_embedding_queue(embedder, Context(tenant=TENANT, agent_kind="operator"), dsn=db.dsn())
    with psycopg.connect(db.dsn()) as conn:
        lexical = rc.evaluate(conn, TENANT, asked, None, (1.0, 0.0), turns)
        hybrid = rc.evaluate(conn, TENANT, asked, embedder, (1.0, 1.0), turns)
    for scores in (lexical, hybrid):
        answerable = scores["answerable"]
        assert answerable.stray == 0  # every hit is a turn of the set
        assert answerable.queries + scores["adversarial"].queries == len(asked)
        assert all(0 <= answerable.recall[d] <= answerable.queries for d in rc.DEPTHS)
        assert answerable.recall[5] <= answerable.recall[10] <= answerable.recall[25]
    assert lexical["answerable"].recall[10] / lexical["answerable"].queries >= 0.6, lexical
    assert len(hybrid["adversarial"].top_similarity) == hybrid["adversarial"].queries
