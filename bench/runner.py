"""Benchmark plumbing: time operations, and print p50/p95/max beside a same-run baseline.

Benchmarks are not tests: they report, they do not pass or fail on a number. Each workload
measures its operations and the plain-SQL baseline they should be read against, in the same
run on the same server, so the ratio still means something on a noisy 2-core machine.
"""

from __future__ import annotations

import statistics
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from pgfacts import migrate, resolve_dsn

SIZES = ("smoke", "full")


@dataclass(frozen=True)
class Result:
    operation: str
    samples_ms: list[float]
    baseline: str | None = None  # the operation this one should be compared with
    rows: int | None = None
    bytes: int | None = None
    note: str = ""
    wrong: int = 0  # answers that disagreed with the workload's model: the run fails on any

    def percentile(self, p: float) -> float:
        ordered = sorted(self.samples_ms)
        if not ordered:
            return float("nan")
        index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
        return ordered[index]

    @property
    def p50(self) -> float:
        return statistics.median(self.samples_ms) if self.samples_ms else float("nan")

    @property
    def p95(self) -> float:
        return self.percentile(95)


def timed(operation: Callable[[], object], repeat: int, warmup: int = 5) -> list[float]:
    """Run ``operation`` ``warmup`` times unmeasured, then ``repeat`` times measured (ms)."""
    for _ in range(warmup):
        operation()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        operation()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def server_part(micro: dict[str, list[float]], name: str, base: str, what: str) -> Result:
    """One part of an in-server split: loop ``name`` less loop ``base``, round by round (one
    sample per round, in ms), its note giving the medians' difference in microseconds."""
    samples = [(a - b) / 1000 for a, b in zip(micro[name], micro[base], strict=True)]
    mid_name, mid_base = statistics.median(micro[name]), statistics.median(micro[base])
    return Result(
        f"server: {what}",
        samples,
        note=f"{mid_name - mid_base:.1f} us a transaction ({name} {mid_name:.1f} us "
        f"less {base} {mid_base:.1f} us; median of {len(micro[name])} rounds)",
    )


def timed_together(
    operations: list[Callable[[], object]], repeat: int, warmup: int = 5, first: int = 0
) -> list[list[float]]:
    """Like ``timed`` for several operations at once, taking turns call by call (each round
    starts with the next one, the first round with operation ``first``), so that whatever
    slows the machine for a while falls on all of them alike and their ratios stay
    comparable; the samples of each, in order. (A caller that times one round at a time
    passes its round number as ``first``, so the turns still rotate.)"""
    samples: list[list[float]] = [[] for _ in operations]
    for round_ in range(warmup + repeat):
        for turn in range(len(operations)):
            index = (first + round_ + turn) % len(operations)
            start = time.perf_counter()
            operations[index]()
            if round_ >= warmup:
                samples[index].append((time.perf_counter() - start) * 1000)
    return samples


@contextmanager
def bench_database() -> Iterator[str]:
    """A fresh database with pgfacts installed, dropped afterwards."""
    server = resolve_dsn()
    name = f"pgfacts_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    params = conninfo_to_dict(server)
    params["dbname"] = name
    dsn = make_conninfo(**params)
    try:
        migrate(dsn)
        yield dsn
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def database_copy(dsn: str) -> Iterator[str]:
    """A copy of the database ``dsn`` names, dropped afterwards: for measurements that change
    the schema, which the workloads after this one must not see. No one may be connected
    to the original while it is copied."""
    params = conninfo_to_dict(dsn)
    source = params["dbname"]
    name = f"{source}_copy"
    server = resolve_dsn()
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE {source} STRATEGY FILE_COPY")
    params["dbname"] = name
    try:
        yield make_conninfo(**params)
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def print_table(title: str, results: list[Result]) -> None:
    by_name = {r.operation: r for r in results}
    print(f"\n{title}")
    width = max([44, *(len(r.operation) for r in results)])
    header = (
        f"{'operation':<{width}} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
        f"{'p95/base':>9} {'rows':>9} {'bytes':>12}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        base = by_name.get(r.baseline) if r.baseline else None
        ratio = f"{r.p95 / base.p95:.2f}x" if base and base.p95 > 0 else ""
        worst = max(r.samples_ms) if r.samples_ms else float("nan")
        rows = "" if r.rows is None else str(r.rows)
        size = "" if r.bytes is None else f"{r.bytes:,}"
        print(
            f"{r.operation:<{width}} {len(r.samples_ms):>6} {r.p50:>8.3f} {r.p95:>8.3f} "
            f"{worst:>8.3f} {ratio:>9} {rows:>9} {size:>12}"
        )
        if r.note:
            print(f"    {r.note}")
