"""``pgfacts worker``: one process that does the background work of every tenant.

In one loop, round after round: a batch of extraction events per tenant with due events
(with an extractor), a batch of each tenant's embedding queue (with an embedder), every
tenant's graph projection brought up to date, and ``run_maintenance()`` every
``maintenance_interval`` seconds. Each tenant gets one batch of each kind per round, so a
busy tenant delays another by at most a batch; ``tenant`` narrows every part to one tenant.
SQL decides what is due and in which order (``extraction_backlog``,
``embedding_backlog_by_tenant``, ``graph_projection_backlog``); this loop only calls. Several
workers may run at once: the queues hand each item to one of them (``SKIP LOCKED``).

A stop (SIGTERM) lets the worker finish the item in hand, give the rest of its extraction
batch back and return; a lost connection (a restarted server, a terminated backend) is
retried on a new one for up to two minutes. A health line every ``interval`` seconds, or a
live display (rich) when the report goes to a terminal.
"""

from __future__ import annotations

import importlib
import json
import threading
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg

from .client import Context, FactStore
from .errors import PgfactsError, translate
from .pipeline.extractors import Extractor
from .pipeline.worker import (
    RECONNECT_SECONDS,
    ExtractionTotals,
    connection_lost,
    extraction_round,
)

PARTS = frozenset({"extraction", "embeddings", "graph", "maintenance"})
RETENTION_BATCH = 100  # episodes (and memories) one apply_retention call removes at most
UNKNOWN_BACKLOG = {"due": "?", "leased": "?", "failed": "?", "lag_seconds": "nan"}


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


def sync_graph_projections(
    store: FactStore,
    *,
    max_changes: int = 10000,
    tenant: str | None = None,
    report: Callable[[str], None] = print,
) -> dict[str, int]:
    """One pass over every tenant's AGE projection (or ``tenant``'s): apply each tenant's
    logged changes (up to ``max_changes``, as its operator) or rebuild a missing or broken
    projection. Returns {tenant: changes applied}; a tenant that fails is reported and left
    for the next pass."""
    applied: dict[str, int] = {}
    for projection in store.graph_projection_backlog():
        if projection.pending == 0 and projection.state == "ok":
            continue
        if tenant is not None and projection.tenant != tenant:
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


# -- the one-process worker ------------------------------------------------------------------


@dataclass
class WorkerTotals:
    """What a worker did since it started (``run_worker`` returns it)."""

    extraction: ExtractionTotals = field(default_factory=ExtractionTotals)
    embedded: int = 0
    embedding_failed: int = 0  # rows of failed batches (retried one by one) and failed rows
    projected: int = 0  # graph projection changes applied (or nodes of a rebuild)
    maintenance_runs: int = 0


@dataclass
class Health:
    """One health report: the totals, and the backlog SQL reports now."""

    totals: WorkerTotals
    parts: Collection[str] = PARTS
    extraction: dict[str, Any] | None = None  # extraction_health(): due, leased, failed, lag
    embeddings: int | None = None  # rows queued or to retry, over the tenants served

    def line(self) -> str:
        t = self.totals
        parts = []
        if self.extraction is not None:
            x, e = t.extraction, self.extraction
            parts.append(
                f"extraction {x.done} done, {x.failed} failed, {x.stale} stale, "
                f"{x.released} released; backlog {e['due']} due, {e['leased']} leased, "
                f"{e['failed']} parked, lag {float(e['lag_seconds']):.1f} s"
            )
        if self.embeddings is not None:
            parts.append(
                f"embeddings {t.embedded} embedded, {t.embedding_failed} failed; "
                f"backlog {self.embeddings}"
            )
        if "graph" in self.parts:
            parts.append(f"projection {t.projected} changes applied")
        if "maintenance" in self.parts:
            parts.append(f"maintenance {t.maintenance_runs} runs")
        return "health: " + " | ".join(parts)


class PlainHealth:
    """Health as a line per interval (and messages as lines), for logs and pipes."""

    def __init__(self, report: Callable[[str], None]) -> None:
        self.message = report

    def show(self, health: Health, *, due: bool) -> None:
        if due:
            self.message(health.line())

    def close(self) -> None:
        pass


class LiveHealth:
    """Health as a rich live display on a terminal, redrawn after every round; messages
    scroll above it. The last state stays on screen at the end."""

    def __init__(self, console: Any) -> None:
        from rich.live import Live

        self._live = Live("pgfacts worker: starting", console=console, refresh_per_second=4)
        self._live.start()

    def message(self, text: str) -> None:
        self._live.console.print(text, markup=False, highlight=False, style="dim")

    def show(self, health: Health, *, due: bool) -> None:
        from rich.table import Table

        table = Table(title="pgfacts worker", show_header=False, box=None)
        for part in health.line().removeprefix("health: ").split(" | "):
            name, _, rest = part.partition(" ")
            table.add_row(f"[bold]{name}[/]", rest)
        self._live.update(table)

    def close(self) -> None:
        self._live.stop()


class _Embeddings:
    """The embedding part: one connection of its own (a batch is one transaction around the
    embedder's call, as run_embedding_queue works), a facts manager's store per tenant."""

    def __init__(self, dsn: str | None, schema: str, embedder: Any, batch_size: int) -> None:
        self.dsn, self.schema, self.embedder, self.batch_size = dsn, schema, embedder, batch_size
        self._conn: psycopg.Connection[Any] | None = None
        self._stores: dict[str, FactStore] = {}

    def round(
        self,
        store: FactStore,
        tenant: str | None,
        totals: WorkerTotals,
        stop: threading.Event,
        say: Callable[[str], None],
    ) -> int:
        """One batch of each tenant that registered the embedder's model and has rows queued;
        returns how many rows were embedded or failed."""
        from .retrieval import work_one_batch
        from .runtime import resolve_dsn

        worked = 0
        for queue in store.embedding_backlog_by_tenant(model=self.embedder.model):
            if stop.is_set() or queue.queued + queue.retry == 0:
                continue
            if tenant is not None and queue.tenant != tenant:
                continue
            if self._conn is None or self._conn.closed:
                self._conn = psycopg.connect(resolve_dsn(self.dsn), autocommit=True)
                self._stores = {}
            tenant_store = self._stores.get(queue.tenant)
            if tenant_store is None:
                context = Context(
                    tenant=queue.tenant, agent_kind="facts_manager", agent_id="embedding-worker"
                )
                tenant_store = FactStore(context=context, schema=self.schema, connection=self._conn)
                self._stores[queue.tenant] = tenant_store
            try:
                try:
                    embedded, failed = work_one_batch(
                        tenant_store, self._conn, self.embedder, self.batch_size
                    )
                except psycopg.Error as exc:
                    raise translate(exc) from exc
            except PgfactsError as exc:
                if connection_lost(exc):
                    raise
                # One tenant's refusal (its batch rolled back) leaves the others served.
                say(f"embeddings of {queue.tenant!r} failed: {json.dumps(exc.as_dict())}")
                continue
            totals.embedded += embedded
            totals.embedding_failed += failed
            worked += embedded + failed
        return worked

    def backlog(self, store: FactStore, tenant: str | None) -> int:
        return sum(
            q.queued + q.retry
            for q in store.embedding_backlog_by_tenant(model=self.embedder.model)
            if tenant is None or q.tenant == tenant
        )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def run_worker(
    dsn: str | None,
    schema: str,
    *,
    extractor: Extractor | None = None,
    embedder: Any = None,
    parts: Collection[str] = PARTS,
    tenant: str | None = None,
    interval: float = 60.0,
    poll: float = 1.0,
    maintenance_interval: float = 21600.0,
    once: bool = False,
    batch_size: int = 10,
    embedding_batch_size: int = 64,
    max_changes: int = 10000,
    stop: threading.Event | None = None,
    report: Callable[[str], None] = print,
    live_console: Any = None,
) -> WorkerTotals:
    """Work every part in ``parts`` that can run (extraction needs ``extractor``,
    embeddings ``embedder``; maintenance crosses tenants, so a worker narrowed to ``tenant``
    leaves it to an unnarrowed one) round after round, waiting ``poll`` seconds after a
    round that found nothing to do (``once``: return then instead). Returns the totals."""
    stop = stop or threading.Event()
    active = set(parts) & PARTS
    if extractor is None:
        active.discard("extraction")
    if embedder is None:
        active.discard("embeddings")
    if tenant is not None:
        active.discard("maintenance")
    totals = WorkerTotals()
    embeddings = (
        _Embeddings(dsn, schema, embedder, embedding_batch_size) if "embeddings" in active else None
    )
    health: PlainHealth | LiveHealth = (
        LiveHealth(live_console) if live_console is not None else PlainHealth(report)
    )
    say = health.message
    next_maintenance = time.monotonic()
    next_health = time.monotonic() + interval
    next_redraw = time.monotonic()
    try:
        with FactStore(dsn, schema=schema) as store:
            active -= _parts_in_pg_cron(store, active, say)
            with _reconnecting(stop, say, embeddings) as attempt:
                while not stop.is_set():
                    worked = -1  # stays so when the round is cut short (attempt waited)
                    with attempt():
                        worked = 0
                        if "extraction" in active:
                            assert extractor is not None
                            worked += extraction_round(
                                store,
                                extractor,
                                totals.extraction,
                                tenant=tenant,
                                batch_size=batch_size,
                                stop=stop,
                                report=say,
                            )
                        if embeddings is not None:
                            worked += embeddings.round(store, tenant, totals, stop, say)
                        if "graph" in active and not stop.is_set():
                            applied = sync_graph_projections(
                                store, max_changes=max_changes, tenant=tenant, report=say
                            )
                            totals.projected += sum(applied.values())
                            worked += sum(applied.values())
                        if "maintenance" in active and time.monotonic() >= next_maintenance:
                            _maintain(store, totals, say, once)
                            next_maintenance = time.monotonic() + maintenance_interval
                        now = time.monotonic()
                        due = now >= next_health
                        # The live display asks for the backlog at most 4 times a second.
                        if due or (live_console is not None and now >= next_redraw):
                            health.show(_health(store, totals, active, tenant, embeddings), due=due)
                            next_redraw = now + 0.25
                            if due:
                                next_health = now + interval
                    if worked == 0 and once:
                        break
                    if worked == 0:
                        stop.wait(poll)
            # The last word: what was done, and what is left (unknown with no connection).
            try:
                final = _health(store, totals, active, tenant, embeddings)
            except PgfactsError as exc:
                if not connection_lost(exc):
                    raise
                final = Health(totals, active, extraction=UNKNOWN_BACKLOG, embeddings=None)
            health.show(final, due=True)
    finally:
        health.close()
        if embeddings is not None:
            embeddings.close()
    if live_console is not None:
        report(final.line())
    return totals


def _health(
    store: FactStore,
    totals: WorkerTotals,
    active: set[str],
    tenant: str | None,
    embeddings: _Embeddings | None,
) -> Health:
    return Health(
        totals,
        active,
        extraction=store.extraction_health(tenant=tenant) if "extraction" in active else None,
        embeddings=embeddings.backlog(store, tenant) if embeddings is not None else None,
    )


def _parts_in_pg_cron(store: FactStore, active: set[str], say: Callable[[str], None]) -> set[str]:
    """The parts whose maintenance job this login installed in pg_cron (maintenance_jobs():
    `pgfacts schedule install`), which therefore do not run here."""
    if not active & {"maintenance", "graph"}:
        return set()
    try:
        jobs = store.maintenance_jobs()
    except PgfactsError:  # not the operator: nothing can be scheduled by this login
        return set()
    skipped = set()
    for job in jobs["jobs"]:
        scheduled = job.get("scheduled")
        if scheduled and scheduled.get("active") and job["worker_part"] in active:
            skipped.add(job["worker_part"])
            say(f"{job['worker_part']}: runs in pg_cron (job {job['cron_name']!r}), not here")
    return skipped


def _maintain(
    store: FactStore, totals: WorkerTotals, say: Callable[[str], None], once: bool
) -> None:
    try:
        result = store.run_maintenance()
    except PgfactsError as exc:
        if once or connection_lost(exc):
            raise
        # A failed run is reported and retried at the next interval, never fatal.
        say(f"maintenance failed: {json.dumps(exc.as_dict())}")
        return
    totals.maintenance_runs += 1
    say(f"maintenance: {json.dumps(result)}")
    _apply_retention(store, say, once)


def _apply_retention(store: FactStore, say: Callable[[str], None], once: bool) -> None:
    """Every tenant's retention through the purge path (apply_retention_everywhere: SQL
    acts as each tenant's operator in turn, and reports a tenant that failed)."""
    try:
        result = store.apply_retention_everywhere(batch=RETENTION_BATCH)
    except PgfactsError as exc:
        if once or connection_lost(exc):
            raise
        say(f"retention failed: {json.dumps(exc.as_dict())}")
        return
    for tenant, applied in result["applied"].items():
        say(f"retention {tenant!r}: {json.dumps(applied)}")
    for tenant, failure in result["failed"].items():
        say(f"retention of {tenant!r} failed: {json.dumps(failure)}")


@contextmanager
def _reconnecting(
    stop: threading.Event,
    say: Callable[[str], None],
    embeddings: _Embeddings | None,
) -> Iterator[Callable[[], Any]]:
    """``attempt()`` around each round: a lost connection is reported and the round tried
    again on a new one (the pool opens it) after a growing pause, for at most
    RECONNECT_SECONDS of outage; then the error is raised (the process exits non-zero)."""
    outage: dict[str, float] = {}

    @contextmanager
    def attempt() -> Iterator[None]:
        try:
            yield
        except PgfactsError as exc:
            if not connection_lost(exc):
                raise
            started = outage.setdefault("since", time.monotonic())
            if time.monotonic() - started > RECONNECT_SECONDS:
                raise
            delay = min(0.2 * 2 ** outage.get("tries", 0), 5.0)
            outage["tries"] = outage.get("tries", 0) + 1
            reason = " ".join(str(exc).split())
            state = exc.sqlstate or "closed"
            say(f"connection lost ({state}: {reason}); reconnecting in {delay:g} s")
            if embeddings is not None:
                embeddings.close()
            stop.wait(delay)
        else:
            outage.clear()

    yield attempt
