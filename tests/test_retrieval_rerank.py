"""The reranking seam (issue 27): a Reranker re-orders the top rows search and context_pack
returned, in the call's transaction, off unless the caller passes one. It adds nothing,
drops nothing, and a reranker that fails undoes the call (the uses search counted)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from psycopg.types.json import Jsonb

from pgfacts import AsyncFactStore, Context, FactStore, PgfactsError
from pgfacts.minilm import MiniLMReranker
from pgfacts.rerank import Reranker, RerankerError, rerank_hits

from .conftest import Database
from .support.caller import Caller

# A chat kept one fact per turn. The ferry's timetable and small talk share the question's
# words; the turn that answers it ("seasick") shares none, and comes right after a short
# question that does.
CHAT = [
    ("ben", "The island ferry crossing timetable is posted at the harbour office."),
    ("ana", "Thanks, I will check it before the weekend."),
    ("ana", "Ben, your bike by the ferry needs a new tyre."),
    ("ben", "I know, I will fix it at the weekend."),
    ("ana", "The island bakery near the ferry sells great bread."),
    ("ben", "I love their rye loaf."),
    ("ana", "So how was the crossing?"),
    ("ben", "Awful, I was seasick the whole way and the boat rocked for an hour."),
    ("ana", "Did the ferry crossing to the island get cheaper this year?"),
    ("ben", "No idea, I never look at prices."),
]
QUESTION = "how was Ben's ferry crossing to the island?"


def store_chat(caller: Caller) -> None:
    for n, (speaker, text) in enumerate(CHAT):
        caller.one(
            "SELECT pgfacts.store_fact(%s, %s, shared => true)",
            f"chat/t-{n:02d}",
            Jsonb(f"{speaker}: {text}"),
        )


class ByWord:
    """A deterministic reranker: documents holding ``word`` first."""

    name = "by-word"

    def __init__(self, word: str) -> None:
        self.word = word

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        return [float(self.word in d) for d in documents]


def store_of(db: Database) -> FactStore:
    return FactStore(db.dsn("app"), context=Context(tenant="t1"))


def uses(db: Database) -> int:
    with db.admin() as conn:
        row = conn.execute("SELECT count(*) FROM pgfacts_internal.fact_uses").fetchone()
    assert row is not None
    return int(row[0])


def test_the_minilm_reranker_lifts_the_turn_about_the_crossing_above_small_talk(
    db: Database,
) -> None:
    store_chat(Caller(db))
    with store_of(db) as store:
        plain = [h.key for h in store.search(QUESTION, limit=5)]
        reranked = [h.key for h in store.search(QUESTION, limit=5, reranker=MiniLMReranker())]
        # Lexically the bakery (ferry, island) outranks "So how was the crossing?", the
        # question Ben's seasick answer follows; the model puts them the other way round.
        assert plain.index("chat/t-04") < plain.index("chat/t-06")
        assert reranked.index("chat/t-06") < reranked.index("chat/t-04")
        assert sorted(reranked) == sorted(plain)  # the same rows: re-ordered, not replaced

        before = store.context_pack(QUESTION, neighbours=1, limit=5)
        after = store.context_pack(QUESTION, neighbours=1, limit=5, reranker=MiniLMReranker())
    hits = [i["key"] for i in after["items"] if "neighbour_of" not in i["why"]]
    assert hits.index("chat/t-06") < hits.index("chat/t-04")
    # Every item as the pack gave it (same refs, tokens and total), numbered again, and each
    # neighbour still right after its own hit.
    assert sorted(i["ref"] for i in after["items"]) == sorted(i["ref"] for i in before["items"])
    assert after["tokens_used"] == before["tokens_used"]
    assert [i["position"] for i in after["items"]] == list(range(1, len(after["items"]) + 1))
    owner = None
    for item in after["items"]:
        if "neighbour_of" in item["why"]:
            assert item["why"]["neighbour_of"] == owner
        else:
            owner = item["ref"]
            assert item["why"]["rerank"]["reranker"] == "minilm-biencoder"
    assert after["trace"]["rerank"] == {"reranker": "minilm-biencoder", "top_n": None}
    assert "rerank" not in before["trace"]


def test_off_by_default_search_and_the_pack_are_as_sql_ranks_them(db: Database) -> None:
    caller = Caller(db)
    store_chat(caller)
    in_sql = [
        r[0] for r in caller.rows('SELECT key FROM pgfacts.search(%s, "limit" => 8)', QUESTION)
    ]
    with store_of(db) as store:
        assert [h.key for h in store.search(QUESTION, limit=8)] == in_sql
        assert store.search(QUESTION, limit=8, reranker=None) == store.search(QUESTION, limit=8)
        pack = store.context_pack(QUESTION, neighbours=1)
        assert pack == store.context_pack(QUESTION, neighbours=1, reranker=None)
        assert all("rerank" not in i["why"] for i in pack["items"])
    caller.close()


def test_a_reranker_reorders_the_top_n_and_leaves_the_rest_as_search_ranked_them(
    db: Database,
) -> None:
    store_chat(Caller(db))
    with store_of(db) as store:
        plain = [h.key for h in store.search(QUESTION, limit=5)]
        tyre = ByWord("tyre")
        assert isinstance(tyre, Reranker)
        reranked = [h.key for h in store.search(QUESTION, limit=5, reranker=tyre)]
        assert reranked[0] == "chat/t-02" != plain[0]  # the tyre turn first
        assert [k for k in reranked[1:]] == [k for k in plain if k != "chat/t-02"]
        # Only the first two are the reranker's to order: the tyre turn is third in search.
        assert plain.index("chat/t-02") == 2
        assert [
            h.key for h in store.search(QUESTION, limit=5, reranker=tyre, rerank_top_n=2)
        ] == plain
        pack = store.context_pack(QUESTION, neighbours=1, limit=5, reranker=tyre)
        assert [i["key"] for i in pack["items"][:2]] == ["chat/t-02", "chat/t-03"]


class Failing:
    name = "failing"

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        raise RuntimeError("model file missing")


class Short:
    name = "short"

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        return [1.0]


class NotANumber:
    name = "nan"

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        return [float("nan")] * len(documents)


class Words:
    name = "words"

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        return "high" if documents else []  # type: ignore[return-value]


class AsArray:
    """Scores as a numpy array, as a cross-encoder's predict returns them."""

    name = "array"

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        import numpy as np

        return np.array([float("tyre" in d) for d in documents])  # type: ignore[return-value]


def test_a_failing_reranker_is_a_clear_error_and_the_call_is_undone(db: Database) -> None:
    store_chat(Caller(db))
    with store_of(db) as store:
        store.search(QUESTION, limit=5)
        counted = uses(db)
        assert counted > 0  # a search counts the facts it returned as used
        for bad, message in (
            (Failing(), "the reranker failing failed: model file missing"),
            (Short(), "the reranker short returned 1 scores for 5 documents"),
            (NotANumber(), "the reranker nan returned a score that is not finite"),
            (Words(), "the reranker words returned str, not a number per document"),
        ):
            with pytest.raises(RerankerError, match=message):
                store.search(QUESTION, limit=5, reranker=bad)
            with pytest.raises(RerankerError, match="the reranker"):
                store.context_pack(QUESTION, limit=5, reranker=bad)
        assert uses(db) == counted  # nothing the failed calls counted was kept
        assert len(store.search(QUESTION, limit=5)) == 5  # and the store goes on working
        assert uses(db) == counted + 5
        # A numpy array of scores is as good as a list; a RerankerError is a PgfactsError
        # (what a caller catching the store's errors catches), with no SQLSTATE.
        assert store.search(QUESTION, limit=5, reranker=AsArray())[0].key == "chat/t-02"
        with pytest.raises(PgfactsError) as caught:
            store.search(QUESTION, limit=5, reranker=Failing())
        assert isinstance(caught.value, RerankerError) and caught.value.sqlstate is None

    async def in_async() -> None:
        async with AsyncFactStore(db.dsn("app"), context=Context(tenant="t1")) as store:
            with pytest.raises(RerankerError, match="model file missing"):
                await store.search(QUESTION, limit=5, reranker=Failing())
            hits = await store.search(QUESTION, limit=5, reranker=ByWord("tyre"))
            assert hits[0].key == "chat/t-02"

    before = uses(db)
    asyncio.run(in_async())
    assert uses(db) == before + 5  # the failed call's uses were undone, the other's kept


def test_bad_reranker_arguments_are_refused_before_anything_is_sent() -> None:
    store = FactStore("postgresql://nobody@127.0.0.1:1/none", context=Context(tenant="t1"))
    with pytest.raises(TypeError, match="score"):
        store.search("x", reranker=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rerank_top_n"):
        store.search("x", reranker=ByWord("x"), rerank_top_n=0)
    with pytest.raises(ValueError, match="rerank_top_n"):
        store.context_pack("x", reranker=ByWord("x"), rerank_top_n=1001)
    with pytest.raises(ValueError, match="rerank_top_n needs a reranker"):
        store.search("x", rerank_top_n=5)
    assert rerank_hits("x", [], ByWord("x")) == []
