"""A slice of the labelled retrieval set (bench/retrieval_set.py) with floors, so a change
that makes search find fewer right answers, or hand a current question stale truth, fails.
The full set runs in ``make bench`` (retrieval_quality) and prints every figure."""

from __future__ import annotations

import psycopg
from bench import retrieval_set as rs

from pgfacts.client import Context
from pgfacts.retrieval import HashEmbedder, run_embedding_queue

from .conftest import Database

TENANT = "t1"


def test_the_labelled_slice_meets_its_floors(db: Database) -> None:
    memories = rs.build_memories(16)
    queries = rs.build_queries(memories, 3)
    embedder = HashEmbedder(64)
    with db.connect() as conn:
        labels = rs.load(conn, TENANT, memories)
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context(%s, agent_kind => 'operator')", (TENANT,))
            conn.execute("SELECT pgfacts.register_embedding_model(%s, 64)", (embedder.model,))
    run_embedding_queue(embedder, Context(tenant=TENANT, agent_kind="operator"), dsn=db.dsn())
    with psycopg.connect(db.dsn()) as conn:
        lexical = rs.evaluate(conn, TENANT, memories, queries, labels, None)
        hybrid = rs.evaluate(conn, TENANT, memories, queries, labels, embedder)
    assert {q.intent for q in queries} == set(rs.INTENTS)
    for scores in (lexical, hybrid):
        every = scores["all"]
        assert every.queries == len(queries) == 48
        assert every.stale5 == 0  # no current or unknown question is answered with stale truth
        assert every.recall5 / every.queries >= 0.9, every
        assert every.ndcg10 / every.queries >= 0.8, every
        for intent in rs.INTENTS:
            assert scores[intent].recall5 / scores[intent].queries >= 0.75, (intent, scores)
