"""A tenant exported and restored (issue 26): export, import into an empty tenant under
another name, export again gives the same bytes, system times, ids and etags included; the
restored tenant goes on working; a tenant that holds rows is refused; an interrupted import
resumes from its checkpoint; a tampered export writes nothing."""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path

import pytest
from psycopg.types.json import Jsonb

from pgfacts import Context, FactStore, transfer
from pgfacts.errors import PgfactsError

from .conftest import Database
from .support.caller import Caller

CONTEXT_AS_OPERATOR = "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')"


def operator(tenant: str, session: str | None = None) -> Context:
    return Context(tenant=tenant, session_id=session, agent_id="mover", agent_kind="operator")


def export_bytes(db: Database, tenant: str, **options: bool) -> bytes:
    out = io.BytesIO()
    transfer.export_tenant(out, operator(tenant), db.dsn(), **options)
    return out.getvalue()


def seed(db: Database, tenant: str) -> None:
    """A tenant with a bit of everything: versions and tombstones, a session tree,
    superseded and retracted claims, vectors, a graph with evidence, a setting, an audit."""
    op = Caller(db, tenant=tenant, kind="operator", session="plan-1", agent="planner")
    op.one("SELECT pgfacts.register_session('plan-1', agent_id => 'planner')")
    op.one("SELECT pgfacts.register_session('work-1', parent_session_id => 'plan-1')")
    op.fact("notes/tea", "Bob drinks tea", shared=True)
    op.fact("notes/tea", 'Bob drinks "green" tea\\n', shared=True)
    op.fact("scratch/a", {"steps": [1, 2.5, None]}, shared=False, tags=["t1", "t2"])
    op.one("SELECT pgfacts.delete_fact('scratch/a')")
    op.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    anna = op.one("SELECT pgfacts.ensure_entity('person', 'Anna', '{Ann}', 'ref:anna')")
    op.ingest(
        "note-1",
        [
            {
                "subject": anna,
                "predicate": "lives_in",
                "object": "Kyiv",
                "valid_from": "2026-01-01",
                "confidence": 0.7,
            }
        ],
    )
    out = op.ingest(
        "note-2",
        [{"subject": anna, "predicate": "lives_in", "object": "Lviv", "valid_from": "2026-03-01"}],
    )
    op.one("SELECT pgfacts.retract(%s)", out["outcomes"][0]["claim_id"])
    op.one("SELECT pgfacts.register_embedding_model('toy-4', 4)")
    facts = op.rows("SELECT item_id FROM pgfacts.search('tea', item_kinds => '{fact}')")
    op.one(
        "SELECT pgfacts.set_embeddings('toy-4', %s)",
        Jsonb(
            [{"item_kind": "fact", "item_id": r[0], "embedding": [0.5, 0.25, 0, 1]} for r in facts]
        ),
    )
    op.one("SELECT pgfacts.graph_upsert_node('person', 'Anna', evidence => '{shared:notes/tea}')")
    op.one("SELECT pgfacts.graph_upsert_node('city', 'Lviv')")
    op.one("SELECT pgfacts.graph_upsert_edge('person:anna', 'city:lviv', 'lives in')")
    op.one("SELECT pgfacts.set_setting('bulk_max_records', '900')")
    op.close()


@pytest.fixture(scope="module")
def db(module_db: Database) -> Database:
    """One seeded source tenant for the module; each test restores it under its own name."""
    seed(module_db, "source")
    return module_db


def test_export_import_export_gives_the_same_bytes(db: Database, tmp_path: Path) -> None:
    first = export_bytes(db, "source", embeddings=True, audit=True)
    lines = [json.loads(line) for line in first.decode().splitlines()]
    assert lines[0] == {"type": "pgfacts_export", "version": 1, "embeddings": True, "audit": True}
    tables = {line["table"] for line in lines[1:]}
    assert {
        "facts",
        "fact_versions",
        "sessions",
        "predicates",
        "entities",
        "episodes",
        "claims",
        "claim_sources",
        "retractions",
        "embedding_models",
        "embeddings",
        "graph_nodes",
        "graph_edges",
        "graph_node_evidence",
        "settings",
        "audit_log",
    } <= tables
    assert all("tenant" not in line["row"] for line in lines[1:])

    path = tmp_path / "source.jsonl"
    path.write_bytes(first)
    answer = transfer.import_file(path, operator("copy"), db.dsn(), batch_size=7)
    assert answer["finished"] and answer["family"] == "lossless"
    assert answer["inserted"] == len(lines) - 1 and answer["rejected"] == 0

    assert export_bytes(db, "copy", embeddings=True, audit=True) == first
    assert export_bytes(db, "copy") == export_bytes(db, "source")


def test_the_restored_tenant_goes_on_working(db: Database, tmp_path: Path) -> None:
    path = tmp_path / "source.jsonl"
    path.write_bytes(export_bytes(db, "source"))
    transfer.import_file(path, operator("working"), db.dsn())
    with FactStore(db.dsn(), context=operator("working", "plan-1")) as store:
        # Sequences moved past the restored numbers: new rows take new ids and etags.
        before = max(h.etag for h in store.fact_history("notes/tea", shared=True))
        store.store_fact("notes/tea", "Bob drinks coffee", shared=True)
        assert max(h.etag for h in store.fact_history("notes/tea", shared=True)) > before
        anna = store.ensure_entity("person", "Anna", external_ref="ref:anna")
        fresh = store.ensure_entity("person", "Zoe")
        assert fresh > anna
        history = store.fact_history("notes/tea", shared=True)
        assert [h.value for h in history][-3:] == [
            "Bob drinks tea",
            'Bob drinks "green" tea\\n',
            "Bob drinks coffee",
        ]


def test_a_tenant_that_holds_rows_is_refused(db: Database, tmp_path: Path) -> None:
    path = tmp_path / "source.jsonl"
    path.write_bytes(export_bytes(db, "source"))
    Caller(db, tenant="busy", kind="operator").fact("notes/x", "already here", shared=True)
    with pytest.raises(PgfactsError) as refused:
        transfer.import_file(path, operator("busy"), db.dsn())
    assert refused.value.sqlstate == "PT001"
    assert "facts" in (refused.value.detail or "")
    with db.admin() as admin:
        assert admin.execute(
            "SELECT count(*) FROM pgfacts_internal.transfer_imports WHERE tenant = 'busy'"
        ).fetchone() == (0,)
        assert admin.execute(
            "SELECT count(*) FROM pgfacts_internal.facts WHERE tenant = 'busy'"
        ).fetchone() == (1,)


def test_an_interrupted_import_resumes_from_its_checkpoint(db: Database, tmp_path: Path) -> None:
    first = export_bytes(db, "source", embeddings=True)
    path = tmp_path / "source.jsonl"
    path.write_bytes(first)
    seen: list[int] = []
    stopped = transfer.import_file(
        path,
        operator("resumed"),
        db.dsn(),
        batch_size=5,
        max_batches=2,
        on_progress=lambda p: seen.append(p.done),
    )
    assert not stopped["finished"] and stopped["lines_done"] == 10 and seen == [0, 5, 10]

    # Another file cannot start while this one is open.
    other = tmp_path / "other.jsonl"
    other.write_text('{"type": "fact", "key": "k", "value": 1, "shared": true}\n')
    with pytest.raises(PgfactsError) as blocked:
        transfer.import_file(other, operator("resumed"), db.dsn())
    assert blocked.value.sqlstate == "PT002"

    # The same file again: no second COPY, on from line 10, nothing written twice.
    resumed = transfer.import_file(path, operator("resumed"), db.dsn(), batch_size=5)
    assert resumed["resumed"] and resumed["finished"]
    assert resumed["inserted"] == len(first.decode().splitlines()) - 1
    assert export_bytes(db, "resumed", embeddings=True) == first
    with db.admin() as admin:
        assert admin.execute(
            "SELECT count(*) FROM pgfacts_internal.transfer_lines WHERE tenant = 'resumed'"
        ).fetchone() == (0,)


def test_a_tampered_export_writes_nothing_of_its_batch(db: Database, tmp_path: Path) -> None:
    lines = export_bytes(db, "source").decode().splitlines()
    row = json.loads(lines[3])
    row["row"]["no_such_column"] = 1
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join([*lines[:3], json.dumps(row), *lines[4:]]) + "\n")
    with pytest.raises(PgfactsError) as refused:
        transfer.import_file(path, operator("tampered"), db.dsn(), batch_size=100)
    assert refused.value.sqlstate == "PT003"
    assert "no_such_column" in refused.value.message
    with db.admin() as admin:
        for table in ("entities", "facts", "episodes"):
            assert admin.execute(
                f"SELECT count(*) FROM pgfacts_internal.{table} WHERE tenant = 'tampered'"
            ).fetchone() == (0,)
    abandoned = transfer.abandon_import(operator("tampered"), db.dsn())
    assert abandoned["abandoned"] and abandoned["lines_done"] == 0


def test_export_and_import_are_the_operators(db: Database) -> None:
    agent = Caller(db, tenant="source", kind="agent", session="s")
    assert agent.refused("SELECT * FROM pgfacts.export_tenant()") == "42501"
    assert agent.refused("SELECT pgfacts.import_open(repeat('a', 64), NULL)") == "42501"
    op = Caller(db, tenant="source", kind="operator")
    assert op.refused("SELECT pgfacts.import_open('abc', NULL)") == "22023"
    assert op.refused("SELECT pgfacts.import_batch()") == "P0002"
    assert op.refused("SELECT pgfacts.import_abandon()") == "P0002"


def test_two_sessions_opening_one_import_at_once_share_it(db: Database) -> None:
    """The loser of the race for the tenant's one open import resumes the winner's (it
    waits for the winner's commit), never a unique violation."""
    barrier = threading.Barrier(2)
    opened: list[int] = []

    def open_import() -> None:
        with db.connect() as conn:
            conn.execute(CONTEXT_AS_OPERATOR, ("raced",))
            barrier.wait()
            answer = conn.execute("SELECT pgfacts.import_open(repeat('c', 64), NULL)").fetchone()
            time.sleep(0.2)  # the winner holds its row a moment before committing
            conn.commit()
            opened.append(answer[0]["import_id"])  # type: ignore[index]

    threads = [threading.Thread(target=open_import) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(opened) == 2 and opened[0] == opened[1]
