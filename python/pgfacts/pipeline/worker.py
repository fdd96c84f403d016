"""The extraction worker: drains every tenant's extraction events with leases.

A round serves each tenant with due events one batch, longest waiting first
(``extraction_backlog``), so one busy tenant cannot starve the others. A batch is claimed
in a transaction of its own (``claim_extraction_work`` commits the leases), the extractor
runs outside any transaction, and the batch's results are committed together by
``complete_extractions``, each only while its lease token still holds the event. A worker
that dies loses nothing: its leases expire and the events are claimed again. On SIGTERM
(``stop`` set) the worker finishes the memory in hand and gives the rest of its batch back
(``release_extraction``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..client import FactStore
from ..errors import PgfactsError
from ..rows import ExtractionWork
from .extractors import ExtractionFailed, Extractor

STALE_LEASE = "55000"  # complete/fail/release: the token no longer holds the event
# The backend ended: an administrator's command (pg_terminate_backend, a shutdown), a crash
# of another backend, or a server still starting.
CONNECTION_ENDED = frozenset({"57P01", "57P02", "57P03"})
RECONNECT_SECONDS = 120.0


@dataclass
class ExtractionTotals:
    done: int = 0
    failed: int = 0  # attempts recorded with fail_extraction (retried or parked)
    stale: int = 0  # results dropped: another worker took the event over
    released: int = 0


def drain_extractions(
    store: FactStore,
    extractor: Extractor,
    *,
    tenant: str | None = None,
    batch_size: int = 10,
    worker_id: str = "extraction-worker",
    stop: threading.Event | None = None,
    report: Callable[[str], None] = print,
) -> ExtractionTotals:
    """Work rounds until no tenant (or only ``tenant``) has a due event, or ``stop`` is set."""
    stop = stop or threading.Event()
    totals = ExtractionTotals()
    while not stop.is_set():
        claimed = extraction_round(
            store,
            extractor,
            totals,
            tenant=tenant,
            batch_size=batch_size,
            worker_id=worker_id,
            stop=stop,
            report=report,
        )
        if not claimed:
            break
    return totals


def extraction_round(
    store: FactStore,
    extractor: Extractor,
    totals: ExtractionTotals,
    *,
    tenant: str | None = None,
    batch_size: int = 10,
    worker_id: str = "extraction-worker",
    stop: threading.Event | None = None,
    report: Callable[[str], None] = print,
) -> int:
    """One round: a batch for each tenant with due events (``extraction_backlog``'s order,
    longest waiting first), or for ``tenant`` alone. Adds to ``totals``; returns how many
    events were claimed (0: nothing was due)."""
    stop = stop or threading.Event()
    tenants = [tenant] if tenant else [b.tenant for b in store.extraction_backlog() if b.due]
    claimed = 0
    for name in tenants:
        if stop.is_set():
            break
        tenant_store = store.with_context(tenant=name, agent_kind="operator", agent_id=worker_id)
        batch = tenant_store.claim_extraction_work(batch_size=batch_size)
        claimed += len(batch)
        _work_batch(tenant_store, extractor, batch, totals, stop, report)
    return claimed


def _work_batch(
    store: FactStore,
    extractor: Extractor,
    batch: list[ExtractionWork],
    totals: ExtractionTotals,
    stop: threading.Event,
    report: Callable[[str], None],
) -> None:
    """Extract each memory of the batch, then commit every result in one transaction
    (complete_extractions: each in a subtransaction of its own)."""
    results: list[dict[str, object]] = []
    held: dict[int, ExtractionWork] = {}
    for position, work in enumerate(batch):
        if stop.is_set():
            for left in batch[position:]:
                _settle(store.release_extraction, left, totals, "released")
            break
        try:
            claims = extractor.extract(work)
        except ExtractionFailed as exc:
            _settle(store.fail_extraction, work, totals, "failed", exc.code, str(exc))
            continue
        except Exception as exc:  # an extractor's bug is an unknown provider error, not fatal
            _settle(store.fail_extraction, work, totals, "failed", 9999, repr(exc))
            continue
        held[work.event_id] = work
        results.append(
            {"event_id": work.event_id, "lease_token": str(work.lease_token), "claims": claims}
        )
    if not results:
        return
    for outcome in _complete(store, extractor.name, results, report):
        if outcome.get("state") == "done":
            totals.done += 1
        elif outcome["sqlstate"] == STALE_LEASE:
            totals.stale += 1
        else:
            # ingest refused the claims (bad input, unknown entity): a bad extraction.
            report(f"extraction of event {outcome['event_id']} refused: {outcome['message']}")
            work = held[int(outcome["event_id"])]
            _settle(store.fail_extraction, work, totals, "failed", 1400, outcome["message"])


def connection_lost(exc: PgfactsError) -> bool:
    """Whether an error is the connection's (the server restarted or went away, the backend
    was terminated), not the statement's: worth reconnecting and trying again."""
    state = exc.sqlstate or ""
    return not state or state.startswith("08") or state in CONNECTION_ENDED


def _complete(
    store: FactStore,
    extractor: str,
    results: list[dict[str, object]],
    report: Callable[[str], None],
) -> Any:
    """complete_extractions, tried again on a new connection while the connection is lost
    (at most RECONNECT_SECONDS): the tokens make a repeat harmless, since a batch that did
    commit before the connection went answers 55000 (stale) for each of its events."""
    deadline = time.monotonic() + RECONNECT_SECONDS
    delay = 0.2
    while True:
        try:
            return store.complete_extractions(extractor, results)
        except PgfactsError as exc:
            if not connection_lost(exc) or time.monotonic() > deadline:
                raise
            reason = " ".join(str(exc).split())
            report(f"connection lost completing a batch ({reason}); trying again in {delay:g} s")
            time.sleep(delay)
            delay = min(delay * 2, 5.0)


def _settle(
    call: Callable[..., object],
    work: ExtractionWork,
    totals: ExtractionTotals,
    outcome: str,
    *args: object,
) -> None:
    try:
        call(work.event_id, work.lease_token, *args)
    except PgfactsError as exc:
        if exc.sqlstate != STALE_LEASE:
            raise
        totals.stale += 1
        return
    setattr(totals, outcome, getattr(totals, outcome) + 1)


def run_extractions(
    dsn: str | None,
    schema: str,
    extractor: Extractor,
    *,
    tenant: str | None = None,
    interval: float = 1.0,
    once: bool = False,
    batch_size: int = 10,
    stop: threading.Event | None = None,
    report: Callable[[str], None] = print,
) -> ExtractionTotals:
    """The extraction part of ``pgfacts.worker.run_worker`` alone: drain, then look again
    every ``interval`` seconds (``once``: drain and return); a health line every minute and
    at the end."""
    from ..worker import run_worker

    totals = run_worker(
        dsn,
        schema,
        extractor=extractor,
        parts={"extraction"},
        tenant=tenant,
        poll=interval,
        once=once,
        batch_size=batch_size,
        stop=stop,
        report=report,
    )
    return totals.extraction
