"""Retrieval from Python: the Embedder protocol, a deterministic offline embedder, the
embedding queue worker, and the Reranker protocol (``pgfacts.rerank``, re-exported here).

SQL decides what is embedded (``claim_embedding_work`` hands out the text and its hash),
who may search what, and how results rank; Python only turns text into vectors, which SQL
cannot do. A worker claims a batch, embeds it and stores the vectors (or reports the
failure) in one transaction, so a worker killed mid-batch loses nothing and embeds
nothing twice.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import psycopg

from .client import Context, FactStore
from .rerank import Reranker as Reranker  # the reranking seam, beside the Embedder
from .rerank import RerankerError as RerankerError
from .runtime import resolve_dsn

# The embedder error codes the queue records; fail_embedding_work checks them.
TOO_LARGE = 1001
BAD_INPUT = 1400
AUTH = 1401
FORBIDDEN = 1403
RATE_LIMITED = 1429
SERVER_ERROR = 1500
MALFORMED = 1901
UNKNOWN = 9999


class EmbedderError(Exception):
    """An embedding failure with one of the queue's numeric codes."""

    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(message or f"embedding failed ({code})")
        self.code = code


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors of ``dimension`` numbers for ``model``."""

    model: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


_WORD = re.compile(r"\w+", re.UNICODE)


class HashEmbedder:
    """A deterministic offline embedder for tests and demos: hashed word and word-stem
    features, signed, L2-normalised. Texts sharing words are near; no model, no network."""

    def __init__(self, dimension: int = 384, model: str | None = None) -> None:
        self.dimension = dimension
        self.model = model or f"hash-{dimension}"

    def _bucket(self, feature: str) -> tuple[int, float]:
        digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
        value = int.from_bytes(digest, "big")
        return value % self.dimension, 1.0 if (value >> 63) & 1 else -1.0

    def embed_one(self, text: str) -> list[float]:
        vector = [0.0] * self.dimension
        for word in _WORD.findall(text.lower()):
            for feature, weight in ((f"w:{word}", 1.0), (f"s:{word[:5]}", 0.7)):
                index, sign = self._bucket(feature)
                vector[index] += sign * weight
        norm = math.sqrt(sum(v * v for v in vector))
        if norm == 0:
            index, _ = self._bucket("empty")
            vector[index] = 1.0
            return vector
        return [v / norm for v in vector]

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_one(t) for t in texts]


@dataclass
class QueueReport:
    embedded: int = 0
    failed_batches: int = 0
    failed_rows: int = 0
    batches: int = 0


def _check_vectors(vectors: Any, count: int, dimension: int) -> list[list[float]]:
    if not isinstance(vectors, list) or len(vectors) != count:
        raise EmbedderError(MALFORMED, "the embedder returned the wrong number of vectors")
    for vector in vectors:
        if len(vector) != dimension or not all(math.isfinite(float(x)) for x in vector):
            raise EmbedderError(MALFORMED, "the embedder returned a malformed vector")
    return [[float(x) for x in vector] for vector in vectors]


def work_one_batch(
    store: FactStore, conn: psycopg.Connection[Any], embedder: Embedder, batch_size: int = 64
) -> tuple[int, int]:
    """Claim, embed and store one batch in one transaction: (rows embedded, rows failed)."""
    with conn.transaction():
        work = store.claim_embedding_work(batch_size=batch_size)
        if not work:
            return 0, 0
        items = [{"item_kind": w.item_kind, "item_id": w.item_id} for w in work]
        try:
            vectors = _check_vectors(
                embedder.embed([w.content for w in work]), len(work), embedder.dimension
            )
        except EmbedderError as exc:
            store.fail_embedding_work(items, exc.code)
            return 0, len(work)
        except Exception:  # any other failure is the unknown code
            store.fail_embedding_work(items, UNKNOWN)
            return 0, len(work)
        rows = [
            {**item, "content_hash": w.content_hash, "embedding": vector}
            for item, w, vector in zip(items, work, vectors, strict=True)
        ]
        result = store.set_embeddings(embedder.model, rows)
        return int(result["written"]), 0


def run_embedding_queue(
    embedder: Embedder,
    context: Context,
    *,
    dsn: str | None = None,
    schema: str = "pgfacts",
    batch_size: int = 64,
    report: Callable[[QueueReport], None] | None = None,
) -> QueueReport:
    """Work the tenant's embedding queue until it is empty (rows with an error code stay)."""
    totals = QueueReport()
    with psycopg.connect(resolve_dsn(dsn)) as conn:
        store = FactStore(context=context, schema=schema, connection=conn)
        while True:
            embedded, failed = work_one_batch(store, conn, embedder, batch_size)
            if embedded == 0 and failed == 0:
                break
            totals.batches += 1
            totals.embedded += embedded
            if failed:
                totals.failed_batches += 1
                totals.failed_rows += failed
            if report:
                report(totals)
    return totals
