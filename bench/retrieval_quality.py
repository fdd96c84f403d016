"""Retrieval quality: the labelled set (bench/retrieval_set.py) asked through ``search``,
lexical only, vector only and hybrid with the deterministic offline embedder (HashEmbedder,
384 dimensions) and, when the minilm extra is installed, with the real model
(all-MiniLM-L6-v2); recall@5, @10 and @25, nDCG@10 per intent, the share of questions with
a look-alike (another person's value of the asked slot) in the top 5 and the stale share of
current answers.
With the real model, the reranking stage (``minilm.MiniLMReranker`` over the 25 hits of
hybrid search, off by default) is scored as one more list.
The timing rows are the hybrid search (HashEmbedder) beside a lexical-only search of the
same questions, and that search with the reranker (the model, not cached vectors) beside it."""

from __future__ import annotations

from typing import Any

import psycopg

from pgfacts import minilm
from pgfacts.client import Context
from pgfacts.retrieval import Embedder, HashEmbedder, run_embedding_queue

from . import retrieval_set as rs
from .embedding_cache import cached_minilm
from .runner import Result, timed

TENANT = "quality"
SIZES = {"smoke": (30, 2), "full": (320, 1)}  # memories, questions per memory
# The timed statement: limit 10 and the default weights, as timed before the scores went to
# limit 25 (so the latencies compare across runs).
TIMED_SEARCH = (
    'SELECT content FROM pgfacts.search(%s, query_vector => %s::vector, model => %s, "limit" => 10)'
)


def prepare(dsn: str, memories: int, per_memory: int, real_model: bool = True) -> tuple[Any, ...]:
    mems = rs.build_memories(memories)
    queries = rs.build_queries(mems, per_memory)
    embedders: list[Embedder] = [HashEmbedder(384)]
    if real_model and minilm.available():
        embedders.append(cached_minilm())
    with psycopg.connect(dsn) as conn:
        labels = rs.load(conn, TENANT, mems)
    # The queue holds rows, not (row, model) pairs: registering a model queues every row,
    # and one worker empties it. So each model is registered and worked in turn.
    for embedder in embedders:
        with psycopg.connect(dsn) as conn, conn.transaction():
            conn.execute(
                "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')", (TENANT,)
            )
            conn.execute(
                "SELECT pgfacts.register_embedding_model(%s, %s)",
                (embedder.model, embedder.dimension),
            )
        run_embedding_queue(embedder, Context(tenant=TENANT, agent_kind="operator"), dsn=dsn)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return mems, queries, labels, embedders


def run(dsn: str, size: str) -> list[Result]:
    count, per_memory = SIZES[size]
    # The real model's lists at full size only, as retrieval_conversations says why.
    mems, queries, labels, embedders = prepare(dsn, count, per_memory, real_model=size == "full")
    embedder = embedders[0]
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT (SELECT count(*) FROM pgfacts_internal.claims WHERE tenant = %s), "
            "(SELECT count(*) FROM pgfacts_internal.facts WHERE tenant = %s)",
            (TENANT, TENANT),
        ).fetchone()
        print(
            f"\nlabelled set: {len(mems)} memories, {len(queries)} questions, "
            f"{rows[0] if rows else 0} claim rows, {rows[1] if rows else 0} facts"
        )
        lexical = rs.evaluate(conn, TENANT, mems, queries, labels, None)
        rs.print_scores("retrieval quality, lexical only (baseline)", lexical)
        for each in embedders:
            real = "" if each is embedder else ", a real model"
            for title, weights in (("vector only", (0.0, 1.0)), ("hybrid", (1.0, 1.0))):
                scores = rs.evaluate(conn, TENANT, mems, queries, labels, each, weights)
                rs.print_scores(f"retrieval quality, {title} ({each.model}{real})", scores)
        if len(embedders) > 1:  # the reranking stage (off by default) on the real model's hybrid
            reranker = minilm.MiniLMReranker(embedders[-1])
            scores = rs.evaluate(
                conn, TENANT, mems, queries, labels, embedders[-1], (1.0, 1.0), reranker
            )
            rs.print_scores(
                f"retrieval quality, hybrid + rerank ({embedders[-1].model}, {reranker.name} "
                "over the 25 hits)",
                scores,
            )
        if len(embedders) == 1:
            print(
                "(the real model's lists, the reranking stage's among them, at full size only)"
                if minilm.available()
                else "(the minilm extra is not installed: no run with a real model)"
            )
        sample = queries[: min(len(queries), 100)]
        vectors = [rs.vector_literal(v) for v in embedder.embed([q.text for q in sample])]
        state = {"i": 0}

        def ask(with_vector: bool, reranker: minilm.MiniLMReranker | None = None) -> None:
            i = state["i"] = (state["i"] + 1) % len(sample)
            with conn.transaction():
                conn.execute("SELECT pgfacts.set_context(tenant => %s)", (TENANT,))
                rows = conn.execute(
                    TIMED_SEARCH,
                    (
                        sample[i].text,
                        vectors[i] if with_vector else None,
                        embedder.model if with_vector else None,
                    ),
                ).fetchall()
                if reranker is not None:  # in the transaction, as the store runs it
                    rs.rerank_texts(sample[i].text, [r[0] for r in rows], reranker)

        repeat = 50 if size == "smoke" else 300
        results = [
            Result("search lexical (baseline)", timed(lambda: ask(False), repeat)),
            Result(
                "search hybrid 384-d",
                timed(lambda: ask(True), repeat),
                baseline="search lexical (baseline)",
            ),
        ]
        # The reranking stage (full size only, as its list above): the model itself, not the
        # cached vectors, is what a caller pays.
        if minilm.available() and size == "full":
            reranker = minilm.MiniLMReranker()
            results.append(
                Result(
                    f"search hybrid 384-d + rerank ({reranker.name}, 10 hits)",
                    timed(lambda: ask(True, reranker), repeat // 3),
                    baseline="search hybrid 384-d",
                )
            )
        return results
