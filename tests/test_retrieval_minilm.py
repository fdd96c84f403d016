"""The minilm extra: a real sentence model (all-MiniLM-L6-v2, int8 ONNX), offline, through
the same Embedder protocol and queue as the deterministic embedder. The test extra installs
it, so these run everywhere the suite runs."""

from __future__ import annotations

import math

import pytest

from pgfacts import Context, FactStore
from pgfacts.minilm import MODEL, MiniLMEmbedder, available, default_embedder
from pgfacts.retrieval import BAD_INPUT, TOO_LARGE, EmbedderError, run_embedding_queue
from pgfacts.worker import load_embedder

from .conftest import Database
from .support.caller import Caller


@pytest.fixture(scope="module")
def model() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_the_extra_is_what_the_demo_and_worker_pick() -> None:
    assert available()
    assert isinstance(default_embedder(), MiniLMEmbedder)
    assert isinstance(load_embedder("minilm"), MiniLMEmbedder)


def test_a_question_lands_near_its_answer_not_near_unrelated_text(model: MiniLMEmbedder) -> None:
    question, answer, unrelated, paraphrase = model.embed(
        [
            "where does Anna live now?",
            "Anna lives in Berlin",
            "The quarterly report is due on Friday",
            "Anna's home is in Berlin",
        ]
    )
    assert len(question) == model.dimension == 384
    assert math.isclose(math.sqrt(cosine(answer, answer)), 1.0, rel_tol=1e-4)
    assert cosine(question, answer) > cosine(question, unrelated) + 0.3
    assert cosine(answer, paraphrase) > 0.8
    # A batch computes what single texts compute (padding is masked out of the pooling).
    [alone] = model.embed(["Anna lives in Berlin"])
    assert cosine(alone, answer) > 0.9999
    assert model.embed([]) == []


def test_bad_input_gets_the_queue_codes(model: MiniLMEmbedder) -> None:
    with pytest.raises(EmbedderError) as too_large:
        model.embed(["word " * 5000])
    assert too_large.value.code == TOO_LARGE
    with pytest.raises(EmbedderError) as bad:
        model.embed([b"bytes"])  # type: ignore[list-item]
    assert bad.value.code == BAD_INPUT


def test_semantic_search_finds_a_paraphrase_no_word_of_which_matches(
    db: Database, model: MiniLMEmbedder
) -> None:
    caller = Caller(db)
    caller.one("SELECT pgfacts.register_embedding_model(%s, 384)", MODEL)
    caller.fact("office/pet", "The office cat is called Whiskers")
    caller.fact("office/wifi", "The guest network password rotates monthly")
    caller.fact("office/lunch", "Team lunch is on Thursdays at noon")
    report = run_embedding_queue(
        model, Context(tenant="t1", agent_kind="operator"), dsn=db.dsn("app")
    )
    assert report.embedded == 3
    [vector] = model.embed(["what is the name of our kitten?"])
    with FactStore(db.dsn("app"), context=Context(tenant="t1")) as store:
        assert store.search("what is the name of our kitten?", limit=3) == []  # no word matches
        hits = store.nearest(MODEL, vector, k=3)
        assert hits[0].ref == "shared:office/pet"
    caller.close()
