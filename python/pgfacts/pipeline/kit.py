"""The extractor that uses the kit: context, prompt, parser and validator are SQL
(``extraction_context``, ``extraction_prompt``, ``parse_extraction_reply``,
``validate_extraction``); the only thing done here is the model call, through a
``ChatModel`` (``pgfacts.pipeline.providers`` has an OpenAI-compatible and an Anthropic one).
"""

from __future__ import annotations

from typing import Protocol

from ..client import FactStore
from ..errors import PgfactsError
from ..rows import ExtractionWork, JSONObject
from .extractors import Claims, ExtractionFailed

MALFORMED_PAYLOAD = 1901
# The smallest context the prompt accepts: enough to ask SQL for the kit's name.
_NAME_CONTEXT = {"occurred_at": "2026-01-01T00:00:00Z", "lines": [{"id": "1", "text": ""}]}


class ChatModel(Protocol):
    """A model behind some API: ``complete`` sends the kit's prompt ({system, user, schema})
    and returns the reply's text, or raises ``ExtractionFailed`` with a provider code."""

    name: str

    def complete(self, prompt: JSONObject) -> str: ...


class KitExtractor:
    """An ``Extractor`` over the kit: its name is the kit's (``kit/1+<digest>``, which
    changes with any rule, prompt or schema) and the model's, stored with every episode."""

    def __init__(self, store: FactStore, model: ChatModel, worker_id: str = "extraction-worker"):
        self.model = model
        self._store = store
        self._worker_id = worker_id
        kit = store.with_context(tenant="kit", agent_kind="operator")
        self.name = f"{kit.extraction_prompt(_NAME_CONTEXT)['extractor']}/{model.name}"

    def extract(self, work: ExtractionWork) -> Claims:
        store = self._store.with_context(
            tenant=work.tenant, agent_kind="operator", agent_id=self._worker_id
        )
        context = store.extraction_context(work.memory_id)
        reply = self.model.complete(store.extraction_prompt(context))
        try:
            output = store.parse_extraction_reply(reply)
        except PgfactsError as exc:
            raise ExtractionFailed(MALFORMED_PAYLOAD, exc.message) from None
        checked = store.validate_extraction(context, output)
        return list(checked["claims"])
