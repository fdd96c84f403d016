"""``make bench`` / ``python -m bench --size smoke|full``: run every workload, print tables."""

from __future__ import annotations

import argparse
import sys
import time

from . import (
    embedding_throughput,
    foundation,
    governance,
    graph,
    knowledge,
    lifecycle,
    pipeline,
    redaction,
    retrieval,
    retrieval_conversations,
    retrieval_quality,
    retrieval_speed,
    transfer,
    working_memory,
)
from .runner import SIZES, bench_database, print_table

WORKLOADS = {
    "foundation": ("foundation: one SQL API call", foundation.run),
    "working_memory": ("working memory: store, read, delete facts", working_memory.run),
    "knowledge": ("knowledge: ingest claims, as_of, history", knowledge.run),
    "retrieval": ("retrieval: nearest, hybrid search, storage options", retrieval.run),
    "retrieval_quality": ("retrieval: the labelled set through search()", retrieval_quality.run),
    "retrieval_conversations": (
        "retrieval: the conversational set, turn by turn, through search()",
        retrieval_conversations.run,
    ),
    "retrieval_speed": (
        "retrieval: search, nearest and context_pack at 50,000 rows in one tenant of five",
        retrieval_speed.run,
    ),
    "embedding_throughput": (
        "retrieval: embedding throughput through the queue, next to the model alone",
        embedding_throughput.run,
    ),
    "graph": ("graph: upserts, neighbourhoods, search, merges, the AGE projection", graph.run),
    "pipeline": ("pipeline: the outbox, the extraction worker", pipeline.run),
    "governance": ("governance: the mutation audit on and off", governance.run),
    "redaction": ("governance: redaction refusal and incognito triggers on and off", redaction.run),
    "transfer": ("transfer: a plain import, an export and a restore of facts", transfer.run),
    "lifecycle": ("lifecycle: usage counting on and off, its fold", lifecycle.run),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", choices=SIZES, default="full")
    parser.add_argument(
        "--only", choices=WORKLOADS, action="append", help="run just these workloads (repeatable)"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    wrong: list[str] = []
    with bench_database() as dsn:
        for name in args.only or WORKLOADS:
            title, workload = WORKLOADS[name]
            began = time.perf_counter()
            results = workload(dsn, args.size)
            print_table(f"{title}  [size {args.size}]", results)
            print(f"({name}: {time.perf_counter() - began:.1f} s)")
            wrong += [f"{name}: {r.operation}: {r.wrong}" for r in results if r.wrong]
    print(f"\nbench finished in {time.perf_counter() - started:.1f} s")
    if wrong:
        # A wrong answer is a defect, whatever the timings say: make test fails on it.
        sys.exit("wrong answers: " + "; ".join(wrong))


if __name__ == "__main__":
    main()
