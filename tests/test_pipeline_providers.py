"""The kit's HTTP chat models against a stub server on 127.0.0.1 (never a real provider):
success, 429 and 500 retried then mapped, a timeout, a malformed payload; and a memory
extracted end to end through KitExtractor, the kit in SQL and the worker."""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from psycopg.types.json import Jsonb

from pgfacts import Context, FactStore
from pgfacts.pipeline import (
    AnthropicChatModel,
    ExtractionFailed,
    KitExtractor,
    OpenAIChatModel,
    OpenAIEmbedder,
    drain_extractions,
)
from pgfacts.retrieval import EmbedderError, run_embedding_queue
from pgfacts.worker import load_embedder

from .conftest import Database
from .support.caller import Caller

PROMPT = {"system": "extract", "user": "<data>\n1: hi\n</data>", "schema": {"type": "object"}}


class Stub:
    """Answers each POST with the next scripted (status, body, delay) and keeps the requests."""

    def __init__(self) -> None:
        self.script: deque[tuple[int, Any, float]] = deque()
        self.requests: list[tuple[str, dict[str, str], Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["content-length"])
                stub.requests.append(
                    (
                        self.path,
                        {k.lower(): v for k, v in self.headers.items()},
                        json.loads(self.rfile.read(length)),
                    )
                )
                status, body, delay = stub.script.popleft()
                stop.wait(delay)
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                if status == 429:
                    self.send_header("retry-after", "0")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        stop = threading.Event()
        self._stop = stop
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(10)


@pytest.fixture
def stub() -> Iterator[Stub]:
    server = Stub()
    yield server
    server.close()


def chat(content: str) -> dict[str, Any]:
    return {"choices": [{"message": {"role": "assistant", "content": content}}]}


def openai(stub: Stub, **options: Any) -> OpenAIChatModel:
    return OpenAIChatModel("m1", base_url=stub.url + "/v1", api_key="k", backoff=0.01, **options)


def test_openai_compatible_success_sends_the_prompt_and_schema(stub: Stub) -> None:
    stub.script.append((200, chat('{"facts": []}'), 0))
    assert openai(stub).complete(PROMPT) == '{"facts": []}'
    [(path, headers, body)] = stub.requests
    assert path == "/v1/chat/completions" and headers["authorization"] == "Bearer k"
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["response_format"]["json_schema"]["schema"] == {"type": "object"}
    stub.script.append((200, chat("x"), 0))
    openai(stub, structured=False).complete(PROMPT)
    assert "response_format" not in stub.requests[-1][2]


@pytest.mark.parametrize(
    ("answers", "code", "tries"),
    [
        ([(429, {}, 0), (200, chat("ok"), 0)], None, 2),
        ([(500, {}, 0), (503, {}, 0), (200, chat("ok"), 0)], None, 3),
        ([(429, {}, 0)] * 3, 1429, 3),
        ([(502, {}, 0)] * 3, 1500, 3),
        ([(401, {}, 0)], 1401, 1),
        ([(403, {}, 0)], 1403, 1),
        ([(413, {}, 0)], 1001, 1),
        ([(400, {}, 0)], 1400, 1),
        ([(200, b"<html>not json", 0)], 1901, 1),
        ([(200, {"choices": []}, 0)], 1901, 1),
        ([(200, chat(None), 0)], 1901, 1),  # type: ignore[arg-type]
    ],
)
def test_failures_are_retried_then_mapped_onto_the_seed_codes(
    stub: Stub, answers: list[tuple[int, Any, float]], code: int | None, tries: int
) -> None:
    stub.script.extend(answers)
    model = openai(stub, retries=2)
    if code is None:
        assert model.complete(PROMPT) == "ok"
    else:
        with pytest.raises(ExtractionFailed) as info:
            model.complete(PROMPT)
        assert info.value.code == code
    assert len(stub.requests) == tries


def test_a_timeout_is_a_server_error_after_its_retries(stub: Stub) -> None:
    stub.script.extend([(200, chat("late"), 1.0)] * 2)
    with pytest.raises(ExtractionFailed) as info:
        openai(stub, timeout=0.2, retries=1).complete(PROMPT)
    assert info.value.code == 1500 and len(stub.requests) == 2


def test_anthropic_messages(stub: Stub) -> None:
    answer = {"content": [{"type": "text", "text": '{"facts": '}, {"type": "text", "text": "[]}"}]}
    stub.script.extend([(200, answer, 0), (200, {"content": []}, 0), (529, {}, 0)])
    model = AnthropicChatModel("claude-x", api_key="sk", base_url=stub.url, backoff=0.01, retries=0)
    assert model.complete(PROMPT) == '{"facts": []}'
    path, headers, body = stub.requests[0]
    assert path == "/v1/messages" and headers["x-api-key"] == "sk"
    assert headers["anthropic-version"] == "2023-06-01"
    assert body["system"] == "extract" and body["messages"] == [
        {"role": "user", "content": PROMPT["user"]}
    ]
    for code in (1901, 1500):
        with pytest.raises(ExtractionFailed) as info:
            model.complete(PROMPT)
        assert info.value.code == code


def test_a_memory_is_extracted_end_to_end_through_the_kit(db: Database, stub: Stub) -> None:
    op = Caller(db, kind="operator")
    anna = op.one("SELECT pgfacts.ensure_entity('person', 'Anna')")
    op.one("SELECT pgfacts.define_predicate('lives_in', 'one', 'home city')")
    agent = Caller(db, kind="agent", session="s1")
    lines = [{"id": "t1", "text": "Anna: I moved to Kyiv in March 2025."}]
    event = agent.one(
        "SELECT (pgfacts.record_memory('chat', 'c/1', %s, '2026-01-10Z') ->> 'event_id')::bigint",
        Jsonb(lines),
    )
    reply = {
        "facts": [
            {
                "subject": "e1",
                "predicate": "lives_in",
                "object": "Kyiv",
                "evidence": ["t1"],
                "valid_from": "2025-03-01",
                "quote": "moved to Kyiv",
            },
            {"subject": "e1", "predicate": "enjoys", "object": "hiking", "evidence": ["t1"]},
            {"subject": "e1", "predicate": "lives_in", "object": "Mars", "evidence": ["t9"]},
        ]
    }
    stub.script.append((200, chat("Here:\n```json\n" + json.dumps(reply) + "\n```"), 0))
    with FactStore(db.dsn("app"), context=Context("t1", agent_kind="operator")) as store:
        extractor = KitExtractor(store, openai(stub))
        assert extractor.name.startswith("kit/1+") and extractor.name.endswith("/openai:m1")
        totals = drain_extractions(store, extractor, tenant="t1")
        assert (totals.done, totals.failed) == (1, 0)
        sent = stub.requests[0][2]["messages"][1]["content"]
        assert "e1: person Anna" in sent and "t1: Anna: I moved to Kyiv" in sent
        current = {(c.predicate, json.dumps(c.object_value)) for c in store.current_claims(anna)}
    assert current == {("lives_in", '"Kyiv"'), ("statement", '"enjoys hiking"')}
    assert op.one("SELECT pgfacts.extraction_status(%s) ->> 'state'", event) == "done"
    with db.admin() as admin:
        row = admin.execute("SELECT extractor FROM pgfacts_internal.episodes").fetchone()
    assert row is not None and row[0] == extractor.name


def embeddings(*vectors: list[float]) -> dict[str, Any]:
    # Out of order on purpose: the index says which text a vector is for.
    rows = [{"index": i, "embedding": v} for i, v in enumerate(vectors)]
    return {"data": list(reversed(rows))}


def test_the_openai_embedder_batches_orders_and_checks_its_vectors(stub: Stub) -> None:
    stub.script.extend([(200, embeddings([1, 0], [0, 1]), 0), (200, embeddings([1, 1]), 0)])
    model = OpenAIEmbedder("e1", 2, base_url=stub.url, api_key="k", batch_size=2, backoff=0.01)
    assert model.embed(["a", "b", "c"]) == [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    assert [body["input"] for _, _, body in stub.requests] == [["a", "b"], ["c"]]
    assert stub.requests[0][0] == "/embeddings" and "dimensions" not in stub.requests[0][2]
    for answer, code in [
        ((200, embeddings([1, 0, 0]), 0), 1901),  # another dimension
        ((200, embeddings(), 0), 1901),  # no vector for the text
        ((200, {"data": [{"index": 0}]}, 0), 1901),
        ((401, {}, 0), 1401),
    ]:
        stub.script.append(answer)
        with pytest.raises(EmbedderError) as info:
            model.embed(["a"])
        assert info.value.code == code


def test_the_embedding_queue_runs_on_the_openai_embedder(db: Database, stub: Stub) -> None:
    op = Caller(db, kind="facts_manager")
    op.one("SELECT pgfacts.register_embedding_model('e1', 384)")
    op.fact("notes/a", "alpha")
    op.fact("notes/b", "beta")
    stub.script.append((200, embeddings([0.1] * 384, [0.2] * 384), 0))
    model = load_embedder("openai:e1:384")
    assert isinstance(model, OpenAIEmbedder)
    model.base_url = stub.url
    context = Context("t1", agent_kind="facts_manager", agent_id="embedder")
    report = run_embedding_queue(model, context, dsn=db.dsn("app"))
    assert (report.embedded, report.failed_rows) == (2, 0)
    assert sorted(stub.requests[0][2]["input"]) == ["notes/a: alpha", "notes/b: beta"]
    with pytest.raises(ValueError):
        load_embedder("openai:e1")
