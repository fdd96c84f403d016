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

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import migrate

from .conftest import Database, ToolCaller
from .retrieval_support import Caller, raises


def admin_one(db: Database, sql: str, *params: Any) -> Any:
    with db.admin() as admin:
        row = admin.execute(sql, params).fetchone()
    return row[0] if row else None


def test_a_null_value_embeds_as_its_key_and_null(db: Database) -> None:
    fm = Caller(db, kind="facts_manager")
    fm.one("SELECT pgfacts.store_fact('notes/n', 'null', NULL, true)")
    assert fm.one("SELECT pgfacts.register_embedding_model('m4', 4)")["queued"] == 1
    work = fm.rows("SELECT item_id, content, content_hash FROM pgfacts.claim_embedding_work(10)")
    assert [w[1] for w in work] == ["notes/n: null"]
    # Embedded, then changed to null again from another value: queued, never deleted.
    row = Jsonb(
        [
            {
                "item_kind": "fact",
                "item_id": work[0][0],
                "embedding": [1, 0, 0, 0],
                "content_hash": work[0][2],
            }
        ]
    )
    assert fm.one("SELECT pgfacts.set_embeddings('m4', %s)", row)["written"] == 1
    fm.fact("notes/n", "text")
    fm.one("SELECT pgfacts.store_fact('notes/n', 'null', NULL, true)")
    assert admin_one(db, "SELECT count(*) FROM pgfacts_internal.embeddings") == 1
    again = fm.rows("SELECT content FROM pgfacts.claim_embedding_work(10)")
    assert again == [("notes/n: null",)]
    assert fm.rows("SELECT content FROM pgfacts.nearest('m4', '[1,0,0,0]')") == [("notes/n: null",)]


def test_the_upgrade_queues_the_null_facts_it_had_dropped(empty_db: str) -> None:
    """Before migration 0029 a null value was read as deleted: never queued. The upgrade
    queues the live ones of the tenants that embed."""
    migrate(empty_db, target="0027_claims_without_asserted_valid.sql")
    with psycopg.connect(empty_db, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO pgfacts_internal.embedding_models (tenant, model, dimension)"
            " VALUES ('t', 'm', 384)"
        )
        for tenant, key, value in (
            ("t", "notes/n", "null"),
            ("t", "notes/s", '"text"'),
            ("u", "notes/n", "null"),
        ):
            conn.execute(
                "INSERT INTO pgfacts_internal.facts (tenant, scope_key, key, value, shared,"
                " created_at, updated_at, etag, system_time) VALUES (%s, 'shared:' || %s, %s,"
                " %s::jsonb, true, now(), now(), 1, tstzrange(now(), NULL))",
                (tenant, key, key, value),
            )
    migrate(empty_db)
    with psycopg.connect(empty_db) as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't', agent_kind => 'facts_manager')")
        work = conn.execute("SELECT content FROM pgfacts.claim_embedding_work()").fetchall()
        assert work == [("notes/n: null",)]
        queued = conn.execute("SELECT tenant FROM pgfacts_internal.embedding_queue").fetchall()
        assert queued == [("t",)]


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


@pytest.mark.parametrize("kind", ["agent", "crawler", "operator"])
def test_set_embeddings_answers_for_an_unreadable_fact_as_for_a_missing_one(
    db: Database, hidden: dict[str, int], kind: str
) -> None:
    writer = Caller(db, kind=kind, session="s1")
    missing = max(hidden.values()) + 1000

    def answer(item_id: int, content: str) -> Any:
        import hashlib

        row = {
            "item_kind": "fact",
            "item_id": item_id,
            "embedding": [1, 0, 0, 0],
            "content_hash": hashlib.md5(content.encode()).hexdigest(),
        }
        return writer.one("SELECT pgfacts.set_embeddings('m4', %s)", Jsonb([row]))

    for key, value in (
        ("intake/obs/s1", "an observation for the facts manager"),
        ("config/facts-manager/prompt", "the facts manager's prompt"),
        ("tools/secret", "tool state"),
    ):
        right = answer(hidden[key], f"{key}: {value}")
        wrong = answer(hidden[key], f"{key}: a wrong guess")
        assert right == wrong == answer(missing, "anything")
        assert right["written"] == 0
    assert admin_one(db, "SELECT count(*) FROM pgfacts_internal.embeddings") == 0
    assert answer(hidden["notes/open"], "notes/open: an ordinary note")["written"] == 1


@pytest.fixture
def m4(db: Database) -> Caller:
    op = Caller(db)
    op.one("SELECT pgfacts.register_embedding_model('m4', 4)")
    op.fact("notes/a", "first")
    op.fact("notes/b", "second")
    return op


def fact_ids(c: Caller) -> list[int]:
    return [r[0] for r in c.rows("SELECT fact_id FROM pgfacts_internal.facts ORDER BY fact_id")]


@pytest.mark.parametrize(
    "vector",
    [
        "[0, 0, 0, 0]",
        "[1e-8, 1e-8, 1e-8, 1e-8]",
        "[1e10, 1, 1, 1]",
        "[-70000, 0, 0, 1]",
        "[1e400, 0, 0, 1]",
        "[1e-400, 0, 0, 0]",
    ],
    ids=["zero", "zero-as-halfvec", "too-large", "too-small", "huge", "tiny"],
)
def test_a_vector_halfvec_cannot_hold_is_refused(m4: Caller, db: Database, vector: str) -> None:
    a, b = fact_ids(m4)
    good = f'{{"item_kind": "fact", "item_id": {b}, "embedding": [1, 0, 0, 0]}}'
    bad = f'{{"item_kind": "fact", "item_id": {a}, "embedding": {vector}}}'
    with pytest.raises(psycopg.Error) as info:
        m4.one("SELECT pgfacts.set_embeddings('m4', %s::jsonb)", f"[{good}, {bad}]")
    assert info.value.sqlstate == "22023", info.value
    assert admin_one(db, "SELECT count(*) FROM pgfacts_internal.embeddings") == 0
    # similar_facts and nearest keep working for everyone.
    m4.one("SELECT pgfacts.set_embeddings('m4', %s::jsonb)", f"[{good}]")
    assert m4.rows("SELECT mode FROM pgfacts.similar_facts('shared:notes/b')") is not None
    assert len(m4.rows("SELECT ref FROM pgfacts.nearest('m4', '[1,0,0,0]')")) == 1


@pytest.mark.parametrize(
    "vector", ["[0,0,0,0]", "[1e-8,1e-8,1e-8,1e-8]", "[1e10,1,1,1]", "[1e38,1,1,1]"]
)
def test_a_query_vector_halfvec_cannot_hold_is_22023(m4: Caller, vector: str) -> None:
    raises("22023", m4.rows, "SELECT * FROM pgfacts.nearest('m4', %s)", vector)
    raises(
        "22023",
        m4.rows,
        "SELECT * FROM pgfacts.search('first', query_vector => %s, model => 'm4')",
        vector,
    )


def test_set_embeddings_takes_at_most_1000_rows(m4: Caller, db: Database) -> None:
    (a, _b) = fact_ids(m4)
    rows = [{"item_kind": "fact", "item_id": a, "embedding": [1, 0, 0, 0]}]
    rows += [{"item_kind": "fact", "item_id": -n, "embedding": [1, 0, 0, 0]} for n in range(999)]
    assert m4.one("SELECT pgfacts.set_embeddings('m4', %s)", Jsonb(rows)) == {
        "model": "m4",
        "written": 1,
        "skipped": 999,
    }
    rows.append({"item_kind": "fact", "item_id": -1000, "embedding": [1, 0, 0, 0]})
    with db.admin() as admin:
        admin.execute("DELETE FROM pgfacts_internal.embeddings")
    with pytest.raises(psycopg.Error) as info:
        m4.one("SELECT pgfacts.set_embeddings('m4', %s)", Jsonb(rows))
    assert info.value.sqlstate == "22023"
    assert info.value.diag.message_hint
    assert admin_one(db, "SELECT count(*) FROM pgfacts_internal.embeddings") == 0


@pytest.mark.parametrize("tool", ["facts_search", "search_skills"])
@pytest.mark.parametrize("size", [4001, 16001, 20000])
def test_a_tool_vector_longer_than_the_largest_dimension_is_22023(
    m4: Caller, call: ToolCaller, tool: str, size: int
) -> None:
    with pytest.raises(psycopg.Error) as info:
        call(tool, {"query": "first", "vector": [0.5] * size, "model": "m4"}, kind="operator")
    assert info.value.sqlstate == "22023"
    # At the model's dimension it works.
    assert call(tool, {"query": "first", "vector": [1, 0, 0, 0], "model": "m4"}, kind="operator")


def test_the_tool_schemas_declare_the_vector_cap(call: ToolCaller) -> None:
    conn = call.conn("app")
    for tool in ("facts_search", "search_skills"):
        row = conn.execute(
            "SELECT d -> 'input_schema' -> 'properties' -> 'vector' ->> 'maxItems' "
            "FROM jsonb_array_elements(pgfacts.tool_definitions()) d WHERE d ->> 'name' = %s",
            (tool,),
        ).fetchone()
        assert row is not None and row[0] == "4000", tool


@pytest.mark.parametrize(
    "vector", ["[]", "[1e39, 0, 0, 1]", "[1e400, 0, 0, 1]", "[70000, 0, 0, 1]", '["1", 0, 0, 1]']
)
def test_a_tool_vector_pgvector_would_refuse_is_22023(
    m4: Caller, call: ToolCaller, vector: str
) -> None:
    conn = call.conn("app")
    for tool in ("facts_search", "search_skills"):
        with pytest.raises(psycopg.Error) as info:
            conn.execute(
                "SELECT pgfacts.call_tool(%s, jsonb_build_object('query', 'first', 'model', 'm4',"
                ' \'vector\', %s::jsonb), \'{"tenant": "t1", "agent_kind": "operator"}\')',
                (tool, vector),
            )
        assert info.value.sqlstate == "22023", (tool, vector, info.value)
