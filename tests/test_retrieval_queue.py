"""The embedding queue: queued in the writing transaction, SKIP LOCKED batches, one-by-one
retry of a failed batch, error codes, a content change clears them, a killed worker loses
nothing; and the Python worker with the deterministic offline embedder."""

from __future__ import annotations

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import Context, FactStore
from pgfacts.retrieval import EmbedderError, HashEmbedder, run_embedding_queue

from .conftest import Database
from .support.caller import Caller, raises


@pytest.fixture
def q(db: Database) -> Caller:
    caller = Caller(db)
    caller.one("SELECT pgfacts.register_embedding_model('hash-16', 16)")
    for i in range(5):
        caller.fact(f"doc/{i}", f"document number {i} about deployment")
    return caller


def backlog(c: Caller) -> dict:  # type: ignore[type-arg]
    return c.one("SELECT pgfacts.embedding_backlog()")  # type: ignore[no-any-return]


def test_failed_batch_is_retried_one_by_one_then_records_a_code(q: Caller) -> None:
    assert backlog(q)["queued"] == 5
    with q.conn.transaction():
        q.set_context()
        work = q.conn.execute(
            "SELECT item_kind, item_id FROM pgfacts.claim_embedding_work(3)"
        ).fetchall()
        items = [{"item_kind": k, "item_id": i} for k, i in work]
        q.conn.execute("SELECT pgfacts.fail_embedding_work(%s, 1500)", (Jsonb(items),))
    assert backlog(q)["retry"] == 3
    # Retry rows come first, one at a time.
    one = q.rows("SELECT item_id, retry FROM pgfacts.claim_embedding_work(3)")
    assert len(one) == 1 and one[0][1] is True
    q.one(
        "SELECT pgfacts.fail_embedding_work(%s, 1429)",
        Jsonb([{"item_kind": "fact", "item_id": one[0][0]}]),
    )
    assert backlog(q)["errors"] == {"1429": 1}
    # A content change clears the error.
    key = q.one("SELECT key FROM pgfacts_internal.facts WHERE fact_id = %s", one[0][0])
    q.fact(key, "changed content")
    assert backlog(q)["failed"] == 0


@pytest.mark.parametrize("code", [1001, 1400, 1401, 1403, 1429, 1500, 1901, 9999])
def test_each_error_code_is_recorded(q: Caller, code: int) -> None:
    item = q.rows("SELECT item_kind, item_id FROM pgfacts.claim_embedding_work(1)")[0]
    q.one(
        "SELECT pgfacts.fail_embedding_work(%s, %s)",
        Jsonb([{"item_kind": item[0], "item_id": item[1]}]),
        code,
    )
    assert backlog(q)["errors"] == {str(code): 1}


def test_unknown_code_is_refused_and_nothing_changes(q: Caller) -> None:
    raises(
        "22023",
        q.one,
        'SELECT pgfacts.fail_embedding_work(\'[{"item_kind": "fact", "item_id": 1}]\', 42)',
    )
    assert backlog(q)["queued"] == 5


def test_a_worker_killed_mid_batch_loses_nothing(db: Database, q: Caller) -> None:
    victim = db.connect("app")
    victim.execute("SELECT pgfacts.set_context('t1', agent_kind => 'operator')")
    claimed = victim.execute("SELECT item_id FROM pgfacts.claim_embedding_work(3)").fetchall()
    assert len(claimed) == 3
    # Another worker skips the locked rows.
    other = q.rows("SELECT item_id FROM pgfacts.claim_embedding_work(10)")
    assert {r[0] for r in other}.isdisjoint({r[0] for r in claimed}) and len(other) == 2
    pid = victim.info.backend_pid
    with db.admin() as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(psycopg.OperationalError):
        victim.execute("SELECT 1")
    assert backlog(q)["queued"] == 5  # nothing lost, nothing embedded
    assert q.one("SELECT count(*) FROM pgfacts_internal.embeddings") == 0


def test_python_worker_embeds_everything_once(db: Database, q: Caller) -> None:
    embedder = HashEmbedder(16, model="hash-16")
    report = run_embedding_queue(
        embedder, Context(tenant="t1", agent_kind="operator"), dsn=db.dsn("app"), batch_size=2
    )
    assert report.embedded == 5 and backlog(q)["queued"] == 0
    vector = embedder.embed_one("document number 3 about deployment")
    with FactStore(db.dsn("app"), context=Context(tenant="t1")) as store:
        hits = store.nearest("hash-16", vector, k=1)
        assert hits[0].ref == "shared:doc/3" and hits[0].similarity > 0.8
        hybrid = store.search("deployment", query_vector=vector, model="hash-16", limit=3)
        by_ref = {h.ref: h for h in hybrid}
        assert by_ref["shared:doc/3"].vector_rank == 1
        assert all(h.text_rank is not None for h in hybrid)


def test_embedder_errors_become_codes(db: Database, q: Caller) -> None:
    class Failing(HashEmbedder):
        def embed(self, texts):  # type: ignore[no-untyped-def, override]
            raise EmbedderError(1401)

    report = run_embedding_queue(
        Failing(16, model="hash-16"),
        Context(tenant="t1", agent_kind="operator"),
        dsn=db.dsn("app"),
        batch_size=5,
    )
    assert report.embedded == 0 and backlog(q)["errors"] == {"1401": 5}


def test_a_deleted_fact_leaves_the_queue_and_a_tenant_without_a_model_queues_nothing(
    q: Caller, db: Database
) -> None:
    assert backlog(q)["queued"] == 5
    q.one("SELECT pgfacts.delete_fact('doc/0', shared => true)")
    assert backlog(q)["queued"] == 4
    # Writes of another tenant, which has no model, are never queued: not on insert, not
    # on an overwrite, not on a delete.
    other = Caller(db, tenant="t2")
    other.fact("doc/a", "first")
    other.fact("doc/a", "second")
    other.one("SELECT pgfacts.delete_fact('doc/a', shared => true)")
    with db.admin() as admin:
        queued = admin.execute(
            "SELECT tenant, count(*) FROM pgfacts_internal.embedding_queue GROUP BY 1"
        ).fetchall()
    assert queued == [("t1", 4)]
    # Once the tenant has a model, its writes are queued.
    other.one("SELECT pgfacts.register_embedding_model('hash-16', 16)")
    other.fact("doc/b", "third")
    assert backlog(other)["queued"] == 1
