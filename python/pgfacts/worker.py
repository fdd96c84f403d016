"""Background worker: periodic maintenance where pg_cron is not installed."""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable
from typing import Any

from .client import Context, FactStore
from .errors import PgfactsError


def run_forever(
    dsn: str | None,
    schema: str,
    *,
    interval: float = 21600,
    once: bool = False,
    report: Callable[[str], None] = print,
) -> None:
    """Call ``run_maintenance()`` now and then every ``interval`` seconds."""
    with FactStore(dsn, schema=schema) as store:
        while True:
            try:
                result = store.run_maintenance()
            except PgfactsError as exc:
                if once:
                    raise
                # A failed run is reported and retried at the next interval, never fatal.
                report(f"maintenance failed: {json.dumps(exc.as_dict())}")
            else:
                report(f"maintenance: {json.dumps(result)}")
            if once:
                return
            time.sleep(interval)


def load_embedder(spec: str) -> Any:
    """``offline`` / ``offline:DIM``: the deterministic HashEmbedder; ``minilm``: the real
    model of the minilm extra; ``openai:MODEL:DIM``: an OpenAI-compatible embeddings
    endpoint ($OPENAI_BASE_URL, default OpenAI's, and $OPENAI_API_KEY); ``module:factory``:
    a callable (or class) returning an Embedder, for a configured model."""
    from .retrieval import Embedder, HashEmbedder

    if spec == "minilm":
        from .minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    if spec == "offline" or spec.startswith("offline:"):
        _, _, dim = spec.partition(":")
        return HashEmbedder(int(dim) if dim else 384)
    if spec.startswith("openai:"):
        import os

        from .pipeline.providers import OpenAIEmbedder

        model, _, dim = spec.removeprefix("openai:").rpartition(":")
        if not model or not dim.isdigit():
            raise ValueError(f"--embedder openai needs openai:MODEL:DIMENSION, not {spec!r}")
        return OpenAIEmbedder(
            model,
            int(dim),
            base_url=os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"),
            api_key=os.environ.get("OPENAI_API_KEY"),
        )
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ValueError(
            "--embedder must be offline, offline:DIM, minilm, openai:MODEL:DIM or "
            f"module:factory, not {spec!r}"
        )
    embedder = getattr(importlib.import_module(module), name)()
    if not isinstance(embedder, Embedder):
        raise TypeError(f"{spec} did not return an Embedder (model, dimension, embed)")
    return embedder


def run_embeddings(
    dsn: str | None,
    schema: str,
    tenant: str,
    embedder_spec: str,
    *,
    interval: float = 5,
    once: bool = False,
    batch_size: int = 64,
    report: Callable[[str], None] = print,
) -> None:
    """Work ``tenant``'s embedding queue (as the facts manager): until empty with ``once``,
    else again every ``interval`` seconds. A progress line per batch."""
    from .retrieval import QueueReport, run_embedding_queue

    embedder = load_embedder(embedder_spec)
    context = Context(tenant=tenant, agent_kind="facts_manager", agent_id="embedding-worker")

    def progress(totals: QueueReport) -> None:
        report(
            f"embeddings {embedder.model}: {totals.embedded} embedded, {totals.failed_rows} "
            f"failed in {totals.failed_batches} batches, {totals.batches} batches"
        )

    while True:
        totals = run_embedding_queue(
            embedder, context, dsn=dsn, schema=schema, batch_size=batch_size, report=progress
        )
        report(f"embedding queue empty: {totals.embedded} embedded, {totals.failed_rows} failed")
        if once:
            return
        time.sleep(min(interval, 60))


def sync_graph_projections(
    store: FactStore, *, max_changes: int = 10000, report: Callable[[str], None] = print
) -> dict[str, int]:
    """One pass over every tenant's AGE projection: apply each tenant's logged changes (up
    to ``max_changes``, as its operator) or rebuild a missing or broken projection. Returns
    {tenant: changes applied}; a tenant that fails is reported and left for the next pass."""
    applied: dict[str, int] = {}
    for projection in store.graph_projection_backlog():
        if projection.pending == 0 and projection.state == "ok":
            continue
        tenant_store = store.with_context(
            tenant=projection.tenant, agent_kind="operator", agent_id="graph-worker"
        )
        try:
            result = tenant_store.sync_graph_projection(max_changes=max_changes)
        except PgfactsError as exc:
            report(f"graph projection of {projection.tenant!r} failed: {json.dumps(exc.as_dict())}")
            continue
        applied[projection.tenant] = int(result.get("applied") or result.get("nodes") or 0)
        report(f"graph projection {projection.tenant!r}: {json.dumps(result)}")
    return applied


def run_graph_projections(
    dsn: str | None,
    schema: str,
    *,
    interval: float = 1.0,
    once: bool = False,
    max_changes: int = 10000,
    report: Callable[[str], None] = print,
) -> None:
    """Keep every tenant's AGE projection in step: a pass every ``interval`` seconds (at
    most 1), another at once while a pass found ``max_changes`` to apply. The projection
    lags the graph tables by about one interval plus a pass (docs/operations.md)."""
    with FactStore(dsn, schema=schema) as store:
        while True:
            applied = sync_graph_projections(store, max_changes=max_changes, report=report)
            if once and not any(n >= max_changes for n in applied.values()):
                return
            if not any(n >= max_changes for n in applied.values()):
                time.sleep(min(interval, 1.0))
