"""The reranking seam: a second stage for ``search`` and ``context_pack``, off unless the
caller passes a reranker (``store.search(..., reranker=...)``).

A reranker re-orders the top rows search already returned, by a model SQL cannot run (as an
Embedder turns text into vectors). SQL still decides what may be returned: a reranker never
adds a row, never drops one, and sees only the text of rows the reader was given. It runs
inside the call's transaction, so a reranker that fails undoes the call (the uses search
counted are not kept) and the caller gets a RerankerError.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol, TypeGuard, runtime_checkable

from .errors import PgfactsError


class RerankerError(PgfactsError):
    """A reranker failed, or answered something other than one finite score per document.
    Raised inside the call's transaction: the call is undone (nothing it wrote is kept).
    A PgfactsError with no SQLSTATE: the server refused nothing."""


@runtime_checkable
class Reranker(Protocol):
    """Scores documents for a query, higher first: the shape of a cross-encoder.

    ``documents`` come best first, in search's order, so a reranker may use that order as
    a prior; each is a hit's text (with, in a context pack with neighbours, the turns
    beside it). ``score`` returns one finite number per document."""

    name: str

    def score(self, query: str, documents: Sequence[str]) -> list[float]: ...


def _scores(reranker: Reranker, query: str, documents: list[str]) -> list[float]:
    name = getattr(reranker, "name", type(reranker).__name__)
    try:
        scores = reranker.score(query, documents)
    except Exception as exc:
        raise RerankerError(f"the reranker {name} failed: {exc}") from exc
    try:  # any iterable of numbers: a list, a tuple, a numpy array
        values = [float(s) for s in scores]
    except (TypeError, ValueError) as exc:
        raise RerankerError(
            f"the reranker {name} returned {type(scores).__name__}, not a number per document"
        ) from exc
    if len(values) != len(documents):
        raise RerankerError(
            f"the reranker {name} returned {len(values)} scores for {len(documents)} "
            "documents: it must return one per document"
        )
    if not all(math.isfinite(v) for v in values):
        raise RerankerError(f"the reranker {name} returned a score that is not finite")
    return values


def stage_runs(reranker: Any, top_n: int | None) -> TypeGuard[Reranker]:
    """Whether a call has a reranking stage (the store's search and context_pack ask): its
    arguments checked before anything is sent."""
    if reranker is None:
        if top_n is not None:
            raise ValueError("rerank_top_n needs a reranker")
        return False
    _check_reranker(reranker, top_n)
    return True


def _check_reranker(reranker: Any, top_n: int | None) -> None:
    if not isinstance(reranker, Reranker):
        raise TypeError("a reranker has a name and score(query, documents) -> list[float]")
    if top_n is not None and (isinstance(top_n, bool) or not 1 <= top_n <= 1000):
        raise ValueError("rerank_top_n must be between 1 and 1000 (None: every hit)")


def _order(scores: list[float]) -> list[int]:
    """Positions by score, highest first; equal scores keep search's order."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def rerank_hits(
    query: str, hits: Sequence[Any], reranker: Reranker, top_n: int | None = None
) -> list[Any]:
    """search's hits with the first ``top_n`` (all by default) in the reranker's order; the
    rest follow as search ranked them. Each hit's document is its content."""
    _check_reranker(reranker, top_n)
    head, tail = list(hits[:top_n]), list(hits[len(hits[:top_n]) :])
    if len(head) < 2:
        return head + tail
    scores = _scores(reranker, query, [h.content for h in head])
    return [head[i] for i in _order(scores)] + tail


def rerank_pack(
    query: str, pack: dict[str, Any], reranker: Reranker, top_n: int | None = None
) -> dict[str, Any]:
    """context_pack's answer with its first ``top_n`` hits (all by default) in the
    reranker's order. A hit moves with the neighbours the pack brought for it; a hit's
    document is its content with theirs, in key order. Claims waiting for review
    (``candidate``) stay after every believed item. Positions are numbered again; each
    reranked hit's ``why`` gains ``rerank: {reranker, score, search_position}``, and the
    trace ``rerank: {reranker, top_n}``. The items, their tokens and the total are as the
    pack had them."""
    _check_reranker(reranker, top_n)
    groups: list[list[dict[str, Any]]] = []
    by_ref: dict[str, list[dict[str, Any]]] = {}
    for item in pack.get("items", []):
        owner = item.get("why", {}).get("neighbour_of")
        if owner is not None and owner in by_ref:
            by_ref[owner].append(item)
        else:
            by_ref[item["ref"]] = [item]
            groups.append(by_ref[item["ref"]])
    believed = [g for g in groups if g[0]["item_kind"] != "candidate"]
    rest = [g for g in groups if g[0]["item_kind"] == "candidate"]
    head, tail = believed[:top_n], believed[len(believed[:top_n]) :]
    out = dict(pack)
    out["trace"] = {**pack.get("trace", {}), "rerank": {"reranker": reranker.name, "top_n": top_n}}
    if len(head) >= 2:
        documents = [
            "\n".join(i["content"] for i in sorted(g, key=lambda i: i["why"].get("side", 0)))
            for g in head
        ]
        scores = _scores(reranker, query, documents)
        head = [
            [
                {
                    **g[0],
                    "why": {
                        **g[0]["why"],
                        "rerank": {
                            "reranker": reranker.name,
                            "score": scores[n],
                            "search_position": g[0]["position"],
                        },
                    },
                },
                *g[1:],
            ]
            for n, g in ((n, head[n]) for n in _order(scores))
        ]
    items = [item for group in (*head, *tail, *rest) for item in group]
    out["items"] = [{**item, "position": n} for n, item in enumerate(items, start=1)]
    return out
