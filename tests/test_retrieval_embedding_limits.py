"""What one tenant's embedding calls may cost others, and what they may learn.

Model registration never builds an index (the DBA allows a dimension, which builds it), so
a tenant registering models changes no other tenant's locks or answers; a tenant holds at
most 16 models. The queue and set_embeddings answer each kind only for the keys it may
read; null values embed as `key: null`; vectors that would break similar_facts (zero after
the halfvec rounding, out of halfvec's range) and oversized batches or tool vectors are
refused with 22023.
"""

from __future__ import annotations

from typing import Any

import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .retrieval_support import Caller


def admin_one(db: Database, sql: str, *params: Any) -> Any:
    with db.admin() as admin:
        row = admin.execute(sql, params).fetchone()
    return row[0] if row else None


@pytest.fixture
def hidden(db: Database) -> dict[str, int]:
    agent = Caller(db, kind="agent", session="s1")
    agent.fact("intake/obs/s1", "an observation for the facts manager")
    fm = Caller(db, kind="facts_manager")
    fm.fact("config/facts-manager/prompt", "the facts manager's prompt")
    fm.fact("notes/open", "an ordinary note")
    with db.admin() as admin:
        admin.execute(
            "INSERT INTO pgfacts_internal.facts (tenant, scope_key, key, value, shared, "
            "tags, created_at, updated_at, etag, system_time) "
            "SELECT tenant, 'shared:tools/secret', 'tools/secret', '\"tool state\"', true, "
            "tags, created_at, updated_at, etag + 1000000, system_time "
            "FROM pgfacts_internal.facts WHERE key = 'notes/open'"
        )
    fm.one("SELECT pgfacts.register_embedding_model('m4', 4)")
    ids = admin_one(db, "SELECT jsonb_object_agg(key, fact_id) FROM pgfacts_internal.facts")
    return {str(k): int(v) for k, v in ids.items()}


@pytest.mark.parametrize("kind", ["crawler", "operator"])
def test_a_worker_claims_only_the_keys_its_kind_may_read(
    db: Database, hidden: dict[str, int], kind: str
) -> None:
    worker = Caller(db, kind=kind)
    assert worker.rows("SELECT content FROM pgfacts.claim_embedding_work(100)") == [
        ("notes/open: an ordinary note",)
    ]
    # The rows it may not read stay queued, unclaimed, for a facts manager's worker.
    assert admin_one(db, "SELECT sum(attempts) FROM pgfacts_internal.embedding_queue") == 1
    fm = Caller(db, kind="facts_manager")
    contents = sorted(
        r[0] for r in fm.rows("SELECT content FROM pgfacts.claim_embedding_work(100)")
    )
    assert contents == [
        "config/facts-manager/prompt: the facts manager's prompt",
        "intake/obs/s1: an observation for the facts manager",
        "notes/open: an ordinary note",
    ]


def test_retry_rows_a_kind_may_not_read_do_not_stall_its_worker(
    db: Database, hidden: dict[str, int]
) -> None:
    fm = Caller(db, kind="facts_manager")
    items = [
        {"item_kind": "fact", "item_id": hidden[k]}
        for k in ("intake/obs/s1", "config/facts-manager/prompt")
    ]
    fm.one("SELECT pgfacts.fail_embedding_work(%s, 1500)", Jsonb(items))
    crawler = Caller(db, kind="crawler")
    assert crawler.rows("SELECT content, retry FROM pgfacts.claim_embedding_work(10)") == [
        ("notes/open: an ordinary note", False)
    ]
    # Nor may it mark them failed.
    result = crawler.one(
        "SELECT pgfacts.fail_embedding_work(%s, 1400)",
        Jsonb([{"item_kind": "fact", "item_id": hidden["intake/obs/s1"]}]),
    )
    assert result["failed"] == 0
    assert (
        admin_one(
            db, "SELECT count(*) FROM pgfacts_internal.embedding_queue WHERE error_code IS NOT NULL"
        )
        == 0
    )
