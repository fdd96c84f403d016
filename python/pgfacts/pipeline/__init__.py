"""The pipeline's Python side (issue 24): extractors and the extraction worker over the
SQL outbox of ``sql/50_pipeline`` (record_memory, claim/complete/fail_extraction)."""

from .extractors import ExtractionFailed, Extractor, ScriptedExtractor, load_extractor
from .kit import ChatModel, KitExtractor
from .providers import AnthropicChatModel, OpenAIChatModel, OpenAIEmbedder
from .worker import ExtractionTotals, drain_extractions, run_extractions

__all__ = [
    "AnthropicChatModel",
    "ChatModel",
    "ExtractionFailed",
    "ExtractionTotals",
    "Extractor",
    "KitExtractor",
    "OpenAIChatModel",
    "OpenAIEmbedder",
    "ScriptedExtractor",
    "drain_extractions",
    "load_extractor",
    "run_extractions",
]
