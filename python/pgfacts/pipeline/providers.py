"""Models over HTTP: for the kit, an OpenAI-compatible chat-completions endpoint (OpenAI,
vLLM, Ollama, LiteLLM all speak it) and Anthropic's messages API; for the embedding queue,
an OpenAI-compatible embeddings endpoint. The standard library's ``urllib`` only: the core
keeps its four dependencies.

Failures become seed 000's provider codes, which ``fail_extraction`` records: 1001 too
large (413), 1400 bad input (other 4xx), 1401 auth, 1403 forbidden, 1429 rate limited,
1500 server error (5xx, or no answer within the timeout), 1901 malformed payload, 9999
unknown. 429 and 5xx are retried here first, with exponential backoff, honouring
``Retry-After``.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

from ..retrieval import EmbedderError
from ..rows import JSONObject
from .extractors import ExtractionFailed

STATUS_CODES = {401: 1401, 403: 1403, 413: 1001, 429: 1429}


def _code_of(status: int) -> int:
    if status in STATUS_CODES:
        return STATUS_CODES[status]
    return 1500 if status >= 500 else 1400


class HttpProvider:
    """What the providers share: one JSON POST, retries, and the error mapping onto the
    ``failure`` exception (the worker that calls the provider records its code)."""

    failure: type[Exception] = ExtractionFailed

    def __init__(self, *, timeout: float = 60.0, retries: int = 3, backoff: float = 1.0) -> None:
        self.timeout, self.retries, self.backoff = timeout, retries, backoff

    def _post(self, url: str, body: JSONObject, headers: dict[str, str]) -> Any:
        data = json.dumps(body).encode()
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(
                url,
                data=data,
                method="POST",
                headers={"content-type": "application/json", **headers},
            )
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    raw = response.read()
            except urllib.error.HTTPError as exc:
                code = _code_of(exc.code)
                if code in (1429, 1500) and attempt < self.retries:
                    time.sleep(self._delay(attempt, exc.headers.get("retry-after")))
                    continue
                raise self.failure(code, f"HTTP {exc.code} from the provider") from None
            except (TimeoutError, urllib.error.URLError) as exc:
                if attempt < self.retries:
                    time.sleep(self._delay(attempt, None))
                    continue
                raise self.failure(1500, f"no answer from the provider: {exc}") from None
            try:
                return json.loads(raw)
            except ValueError:
                raise self.failure(1901, "the provider's answer is not JSON") from None
        raise AssertionError("unreachable")  # the loop returns or raises

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after and retry_after.isdigit():
            return min(float(retry_after), 60.0)
        return float(self.backoff * 2**attempt)


class HttpChatModel(HttpProvider):
    name = "http"


class OpenAIChatModel(HttpChatModel):
    """``POST {base_url}/chat/completions``; ``structured`` asks for the kit's JSON Schema
    as the response format (OpenAI, vLLM; leave it off for servers without it)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str = "https://api.openai.com/v1",
        api_key: str | None = None,
        structured: bool = True,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.model, self.base_url, self.api_key, self.structured = (
            model,
            base_url,
            api_key,
            structured,
        )
        self.name = f"openai:{model}"

    def complete(self, prompt: JSONObject) -> str:
        body: JSONObject = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": prompt["system"]},
                {"role": "user", "content": prompt["user"]},
            ],
        }
        if self.structured:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "extraction", "schema": prompt["schema"]},
            }
        headers = {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        answer = self._post(f"{self.base_url.rstrip('/')}/chat/completions", body, headers)
        try:
            content = answer["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise ExtractionFailed(1901, "the answer has no choices[0].message.content") from None
        if not isinstance(content, str):
            raise ExtractionFailed(1901, "the answer's content is not text")
        return content


class AnthropicChatModel(HttpChatModel):
    """``POST {base_url}/v1/messages`` with Anthropic's headers; the reply's text blocks."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str = "https://api.anthropic.com",
        max_tokens: int = 4096,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.model, self.api_key, self.base_url, self.max_tokens = (
            model,
            api_key,
            base_url,
            max_tokens,
        )
        self.name = f"anthropic:{model}"

    def complete(self, prompt: JSONObject) -> str:
        body = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": prompt["system"],
            "messages": [{"role": "user", "content": prompt["user"]}],
        }
        headers = {"x-api-key": self.api_key, "anthropic-version": "2023-06-01"}
        answer = self._post(f"{self.base_url.rstrip('/')}/v1/messages", body, headers)
        try:
            texts = [b["text"] for b in answer["content"] if b.get("type") == "text"]
        except (KeyError, TypeError, AttributeError):
            raise ExtractionFailed(1901, "the answer has no content blocks") from None
        if not texts or not all(isinstance(t, str) for t in texts):
            raise ExtractionFailed(1901, "the answer has no text block")
        return "".join(texts)


class OpenAIEmbedder(HttpProvider):
    """An ``Embedder`` over an OpenAI-compatible ``POST {base_url}/embeddings``, in batches
    of ``batch_size``; a vector of another length than ``dimension`` is a malformed
    payload (1901), as is an answer that does not give one vector per text."""

    failure = EmbedderError

    def __init__(
        self,
        model: str,
        dimension: int,
        *,
        base_url: str = "https://api.openai.com/v1",
        api_key: str | None = None,
        batch_size: int = 256,
        send_dimensions: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.model, self.dimension, self.base_url, self.api_key = (
            model,
            dimension,
            base_url,
            api_key,
        )
        self.batch_size, self.send_dimensions = batch_size, send_dimensions

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors += self._embed_batch(list(texts[start : start + self.batch_size]))
        return vectors

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        body: JSONObject = {"model": self.model, "input": texts}
        if self.send_dimensions:
            body["dimensions"] = self.dimension
        headers = {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        answer = self._post(f"{self.base_url.rstrip('/')}/embeddings", body, headers)
        try:
            rows = sorted(answer["data"], key=lambda row: row["index"])
            vectors = [[float(x) for x in row["embedding"]] for row in rows]
        except (KeyError, TypeError, ValueError):
            raise EmbedderError(1901, "the answer has no data[].embedding") from None
        if len(vectors) != len(texts) or any(len(v) != self.dimension for v in vectors):
            raise EmbedderError(1901, f"expected {len(texts)} vectors of {self.dimension} numbers")
        return vectors
