"""Embedding throughput through the queue (issue 27: >= 150 texts/s with the offline model on
the 2-core machine), next to the model alone on the same texts in the same run.

The texts are the conversational set's turns (bench/retrieval_conversations.py), each
stored as a fact, made unique by a numbered suffix so that no two share a vector, and
embedded by the path ``pgfacts worker --embedder minilm`` takes: one facts manager's
``run_embedding_queue`` (claim a batch, embed it, ``set_embeddings``, one transaction per
batch). The baseline embeds the same texts in the same batches with the model alone. Both
run with the offline model when the minilm extra is installed, else with the hash model
(which says how much of the time is the queue's)."""

from __future__ import annotations

import time
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from pgfacts import minilm
from pgfacts.client import Context
from pgfacts.retrieval import Embedder, HashEmbedder, run_embedding_queue

from . import retrieval_conversations
from .runner import Result

SIZE = {"smoke": 64, "full": 1200}
TENANT = "bench-embed-throughput"
BATCH = 64
TARGET = 150.0  # texts per second, the bound for the offline model


def _texts(count: int) -> list[str]:
    turns, _ = retrieval_conversations.build(6)
    return [f"{turns[i % len(turns)].text} (note {i})" for i in range(count)]


def _load(conn: psycopg.Connection[Any], texts: list[str], model: str, dimension: int) -> None:
    rows = [{"key": f"turns/{i}", "value": text, "shared": True} for i, text in enumerate(texts)]
    with conn.transaction():
        conn.execute(
            "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')", (TENANT,)
        )
        conn.execute("SELECT pgfacts.register_embedding_model(%s, %s)", (model, dimension))
        for start in range(0, len(rows), 200):
            conn.execute("SELECT pgfacts.store_facts(%s)", (Jsonb(rows[start : start + 200]),))


def _model_alone(embedder: Embedder, texts: list[str]) -> list[float]:
    samples = []
    for start in range(0, len(texts), BATCH):
        began = time.perf_counter()
        embedder.embed(texts[start : start + BATCH])
        samples.append((time.perf_counter() - began) * 1000)
    return samples


def run(dsn: str, size: str) -> list[Result]:
    embedder: Embedder = minilm.MiniLMEmbedder() if minilm.available() else HashEmbedder(384)
    texts = _texts(SIZE[size])
    embedder.embed(texts[:8])  # load the model before either arm is timed
    with psycopg.connect(dsn, autocommit=True) as conn:
        _load(conn, texts, embedder.model, embedder.dimension)
    alone = _model_alone(embedder, texts)
    batches: list[float] = []
    last = [time.perf_counter()]

    def lap(_: Any) -> None:
        now = time.perf_counter()
        batches.append((now - last[0]) * 1000)
        last[0] = now

    began = time.perf_counter()
    report = run_embedding_queue(
        embedder,
        Context(tenant=TENANT, agent_kind="facts_manager", agent_id="bench"),
        dsn=dsn,
        batch_size=BATCH,
        report=lap,
    )
    queue_seconds = time.perf_counter() - began
    wrong = abs(report.embedded - len(texts)) + report.failed_rows
    queue_rate = report.embedded / queue_seconds
    alone_rate = len(texts) / (sum(alone) / 1000)
    verdict = (
        ("met" if queue_rate >= TARGET else "missed") + f" (target {TARGET:.0f} texts/s)"
        if isinstance(embedder, minilm.MiniLMEmbedder)
        else "(hash model: the minilm extra is not installed)"
    )
    base = f"baseline: {embedder.model} alone, batches of {BATCH}"
    return [
        Result(base, alone, rows=len(texts), note=f"{alone_rate:.0f} texts/s"),
        Result(
            f"embedding queue: {embedder.model}, batches of {BATCH}",
            batches,
            baseline=base,
            rows=report.embedded,
            note=f"{queue_rate:.0f} texts/s end to end, {verdict}",
            wrong=wrong,
        ),
    ]
