"""Transfer workload (issue 26): a plain import of facts through the write rules
(``pgfacts.transfer.import_file``: COPY into the staging table, then set-based batches of
bulk_store_facts' checks and writes), next to a COPY of the same file into a bare table in
the same run; then the imported tenant exported and restored into an empty one (the
lossless family), and exported again, which must give the same bytes. The plain import is
also timed into a tenant whose audit is off (its `audit_enabled` setting at 0, an
operator's choice, docs/governance.md): the same write rules without the audit trail's
row a fact, which is the largest single cost of a fact written (docs/transfer.md, Speed).
The same facts are also written by bulk_store_facts, the live bulk path, in calls of 5,000
from two sessions: what the same checks and writes cost without the import's own steps
(staging, the outcome of each line, checkpoints, the order between batches)."""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

from pgfacts import Context, FactStore, transfer
from pgfacts.queries import COPY_OPTIONS

from .runner import Result

SIZE = {"smoke": 2_000, "full": 1_000_000}
TARGET = 20_000  # facts/s, the bound for the plain import


def _fact(n: int) -> dict[str, object]:
    """The n-th fact of the workload, as bulk_store_facts takes it."""
    return {
        "key": f"imported/{n // 1000}/{n}",
        "value": {"n": n, "text": f"an imported note number {n} about the project"},
        "tags": ["import", f"group-{n % 10}"],
        "shared": True,
    }


def _write_source(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8") as sink:
        for n in range(count):
            sink.write(json.dumps({"type": "fact", **_fact(n)}) + "\n")


def _bulk_calls(count: int, per_call: int) -> list[tuple[bytes, str]]:
    """The same facts as bulk_store_facts sources of per_call records: (JSON array, sha256)."""
    calls = []
    for first in range(0, count, per_call):
        text = json.dumps([_fact(n) for n in range(first, min(first + per_call, count))]).encode()
        calls.append((text, hashlib.sha256(text).hexdigest()))
    return calls


def _bulk_path(dsn: str, context: Context, calls: list[tuple[bytes, str]], sessions: int) -> int:
    """Write the calls from sessions threads, a share each; the facts committed."""

    def session(share: list[tuple[bytes, str]]) -> int:
        with FactStore(dsn, context=context) as store:
            return sum(
                store.bulk_store_facts(source=text, sha256=digest)["committed_count"]
                for text, digest in share
            )

    with ThreadPoolExecutor(sessions) as pool:
        return sum(pool.map(session, [calls[n::sessions] for n in range(sessions)]))


def _ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def run(dsn: str, size: str) -> list[Result]:
    count = SIZE[size]
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "facts.jsonl"
        _write_source(source, count)

        # The baseline: the same bytes COPYed into a table with nothing on it.
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS public.bench_bare_lines")
            conn.execute("CREATE TABLE public.bench_bare_lines (line jsonb)")
            start = time.perf_counter()
            with (
                conn.cursor().copy(
                    f"COPY public.bench_bare_lines (line) FROM STDIN {COPY_OPTIONS}"
                ) as copy,
                source.open("rb") as lines,
            ):
                while chunk := lines.read(1 << 20):
                    copy.write(chunk)
            copy_ms = _ms_since(start)
            conn.execute("DROP TABLE public.bench_bare_lines")

        # The live bulk path with the same facts, two sessions as the import has.
        calls = _bulk_calls(count, 5_000)
        bulk = Context(tenant="bench-bulk", agent_kind="operator")
        start = time.perf_counter()
        bulk_committed = _bulk_path(dsn, bulk, calls, sessions=2)
        bulk_ms = _ms_since(start)
        del calls

        plain = Context(tenant="bench-import", agent_kind="operator")
        start = time.perf_counter()
        answer = transfer.import_file(source, plain, dsn)
        import_ms = _ms_since(start)
        wrong_import = int(answer["inserted"] != count or answer["rejected"] != 0)

        # The same file into a tenant whose audit is off (set by its operator first).
        unaudited = Context(tenant="bench-import-unaudited", agent_kind="operator")
        with psycopg.connect(dsn) as conn, conn.transaction():
            conn.execute(
                "SELECT pgfacts.set_context(%s, agent_kind => 'operator')", (unaudited.tenant,)
            )
            conn.execute("SELECT pgfacts.set_setting('audit_enabled', '0')")
        start = time.perf_counter()
        unaudited_answer = transfer.import_file(source, unaudited, dsn)
        unaudited_ms = _ms_since(start)
        with psycopg.connect(dsn) as conn:  # the superuser: the audit rows of each import
            stored = dict(
                conn.execute(  # type: ignore[arg-type]
                    "SELECT tenant, count(*) FROM pgfacts_internal.audit_log "
                    "WHERE tenant = ANY (%s) AND operation = 'store' GROUP BY tenant",
                    ([plain.tenant, unaudited.tenant],),
                ).fetchall()
            )
        wrong_import |= int(stored.get(plain.tenant, 0) != count)
        wrong_unaudited = int(
            unaudited_answer["inserted"] != count
            or unaudited_answer["rejected"] != 0
            or stored.get(unaudited.tenant, 0) != 0
        )

        start = time.perf_counter()
        first = io.BytesIO()
        transfer.export_tenant(first, plain, dsn)
        export_ms = _ms_since(start)
        dump = Path(scratch) / "export.jsonl"
        dump.write_bytes(first.getvalue())

        restored = Context(tenant="bench-restored", agent_kind="operator")
        start = time.perf_counter()
        transfer.import_file(dump, restored, dsn)
        restore_ms = _ms_since(start)
        again = io.BytesIO()
        transfer.export_tenant(again, restored, dsn)
        wrong_restore = int(again.getvalue() != first.getvalue())

    def rate(ms: float) -> int:
        return round(count / (ms / 1000)) if ms > 0 else 0

    base = "COPY the file into a bare table"
    return [
        Result(base, [copy_ms], rows=count, note=f"{rate(copy_ms):,} lines/s"),
        Result(
            f"bulk_store_facts {count:,} facts, 5,000 a call, two sessions (the live bulk path)",
            [bulk_ms],
            baseline=base,
            rows=count,
            note=f"{rate(bulk_ms):,} facts/s; committed {bulk_committed} (wrong unless all)",
            wrong=int(bulk_committed != count),
        ),
        Result(
            f"import {count:,} plain facts (write rules)",
            [import_ms],
            baseline=base,
            rows=count,
            note=f"{rate(import_ms):,} facts/s (target >= {TARGET:,}), "
            f"{import_ms / bulk_ms:.2f}x the live bulk path's time; inserted "
            f"{answer['inserted']}, rejected {answer['rejected']} (wrong unless all inserted, "
            "each with its audit row)",
            wrong=wrong_import,
        ),
        Result(
            f"import {count:,} plain facts, the tenant's audit off (audit_enabled 0)",
            [unaudited_ms],
            baseline=base,
            rows=count,
            note=f"{rate(unaudited_ms):,} facts/s; inserted {unaudited_answer['inserted']}, "
            f"rejected {unaudited_answer['rejected']} (wrong unless all inserted, no audit row)",
            wrong=wrong_unaudited,
        ),
        Result(
            f"export the tenant ({count:,} facts)",
            [export_ms],
            baseline=base,
            rows=count,
            bytes=len(first.getvalue()),
            note=f"{rate(export_ms):,} facts/s",
        ),
        Result(
            "restore the export into an empty tenant",
            [restore_ms],
            baseline=base,
            rows=count,
            note=f"{rate(restore_ms):,} facts/s; exported again: "
            + ("the same bytes" if not wrong_restore else "DIFFERENT bytes (wrong)"),
            wrong=wrong_restore,
        ),
    ]
