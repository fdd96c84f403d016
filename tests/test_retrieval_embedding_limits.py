"""What one tenant's embedding calls may cost others, and what they may learn.

Model registration never builds an index (the DBA allows a dimension, which builds it), so
a tenant registering models changes no other tenant's locks or answers; a tenant holds at
most 16 models. The queue and set_embeddings answer each kind only for the keys it may
read; null values embed as `key: null`; vectors that would break similar_facts (zero after
the halfvec rounding, out of halfvec's range) and oversized batches or tool vectors are
refused with 22023.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import migrate

from .conftest import LOGIN_PASSWORD, SCHEMA, Database
from .support.caller import Caller, raises


def hnsw_indexes(db: Database) -> list[str]:
    with db.admin() as admin:
        return [
            r[0]
            for r in admin.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = 'pgfacts_internal' "
                "AND tablename = 'embeddings' AND indexname LIKE 'embeddings_hnsw_%' ORDER BY 1"
            ).fetchall()
        ]


def admin_one(db: Database, sql: str, *params: Any) -> Any:
    with db.admin() as admin:
        row = admin.execute(sql, params).fetchone()
    return row[0] if row else None


@pytest.fixture
def bound_login(db: Database) -> Iterator[str]:
    """A login bound to tenant ta only, holding the facts manager and operator kinds."""
    suffix = f"emb_{uuid.uuid4().hex[:8]}"
    login = f"{SCHEMA}_test_{suffix}"
    with db.admin() as admin:
        admin.execute(f"CREATE ROLE {login} LOGIN PASSWORD '{LOGIN_PASSWORD}'")
        admin.execute(f"GRANT {SCHEMA}_facts_manager, {SCHEMA}_operator TO {login}")
        admin.execute("SELECT pgfacts.bind_tenant_login(%s, 'ta')", (login,))
    yield suffix
    with db.admin() as admin:
        admin.execute(f"DROP ROLE IF EXISTS {login}")


def bound_caller(db: Database, login: str) -> Caller:
    return Caller(db, login, tenant="ta", kind="operator")


# --- 1. registration burdens no other tenant ------------------------------------------


def tenant_b(db: Database) -> Caller:
    b = Caller(db, tenant="tb", kind="facts_manager")
    b.one("SELECT pgfacts.register_embedding_model('hash-16', 16)")
    for i in range(20):
        b.fact(f"doc/{i}", f"document {i}")
    return b


def b_rows(b: Caller) -> Jsonb:
    ids = [r[0] for r in b.rows("SELECT item_id FROM pgfacts.claim_embedding_work(1000)")]
    if not ids:
        ids = [
            r[0] for r in b.rows("SELECT item_id FROM pgfacts_internal.embeddings ORDER BY item_id")
        ]
    return Jsonb(
        [
            {"item_kind": "fact", "item_id": i, "embedding": [1.0 + n % 3] + [0.5] * 15}
            for n, i in enumerate(ids)
        ]
    )


def locks_during(b: Caller, sql: str, *params: Any) -> tuple[list[Any], Any]:
    """The locks on the install's relations B's backend holds after one statement in an
    open transaction. System catalogs and their TOAST tables are left out: a statement
    locks them when it reloads a cache entry, which other sessions' CREATE DATABASE or
    CREATE ROLE (the shared catalogs) and DDL invalidate at any moment. Plans are made
    afresh for each measure: planning locks every index of a table it reads, while a plan
    cached by an earlier transaction locks only the indexes it scans, and whether one
    survives depends on invalidations other sessions cause (under load, a reset of the
    whole cache)."""
    with b.conn.transaction():
        b.conn.execute("DISCARD PLANS")
        b.set_context()
        answer = b.conn.execute(sql, params).fetchall()
        locked = b.conn.execute(
            "SELECT c.relname, l.mode FROM pg_locks AS l JOIN pg_class AS c ON c.oid = l.relation "
            "WHERE l.pid = pg_backend_pid() AND l.locktype = 'relation' "
            "AND c.relnamespace IN ('pgfacts'::regnamespace, 'pgfacts_internal'::regnamespace) "
            "ORDER BY 1, 2"
        ).fetchall()
    return locked, answer


def measure(b: Caller, rows: Jsonb) -> tuple[Any, ...]:
    nearest = "SELECT ref, similarity FROM pgfacts.nearest('hash-16', %s, k => 5)"
    query = "[" + ",".join(["1"] + ["0.5"] * 15) + "]"
    n_locks, n_answer = locks_during(b, nearest, query)
    s_locks, s_answer = locks_during(b, "SELECT pgfacts.set_embeddings('hash-16', %s)", rows)
    return n_locks, n_answer, s_locks, s_answer


def test_a_tenants_registrations_change_no_other_tenants_locks_or_answers(
    db: Database, bound_login: str
) -> None:
    b = tenant_b(db)
    rows = b_rows(b)
    b.one("SELECT pgfacts.set_embeddings('hash-16', %s)", rows)
    before = measure(b, rows)
    indexes = hnsw_indexes(db)
    a = bound_caller(db, bound_login)
    a.fact("notes/a", "tenant a's own fact")
    # Dimensions the DBA did not allow: refused, no index built.
    for dimension in (5, 6, 7, 9, 10, 11, 12, 13, 2000, 3999):
        raises(
            "22023",
            a.one,
            "SELECT pgfacts.register_embedding_model(%s, %s)",
            f"junk-{dimension}",
            dimension,
        )
    # Allowed ones, up to the tenant's cap: still no index.
    for n in range(16):
        a.one("SELECT pgfacts.register_embedding_model(%s, %s)", f"m-{n}", (384, 768, 16)[n % 3])
    raises("22023", a.one, "SELECT pgfacts.register_embedding_model('one-too-many', 384)")
    assert hnsw_indexes(db) == indexes
    assert measure(b, rows) == before
    a.close()
    # The measure sees an index: one more allowed dimension is one more index nearest's
    # plan locks (set_embeddings' upsert locks only its arbiter, the primary key).
    admin_one(db, "SELECT pgfacts.allow_embedding_dimension(5)")
    after = measure(b, rows)
    assert set(after[0]) - set(before[0]) == {("embeddings_hnsw_5", "AccessShareLock")}
    assert set(before[0]) <= set(after[0])
    assert after[2] == before[2]
    assert (after[1], after[3]) == (before[1], before[3])


def test_registering_builds_no_index_and_refuses_an_unallowed_dimension(db: Database) -> None:
    op = Caller(db)
    indexes = hnsw_indexes(db)
    with pytest.raises(psycopg.Error) as info:
        op.one("SELECT pgfacts.register_embedding_model('junk-5', 5)")
    assert info.value.sqlstate == "22023"
    assert "allow_embedding_dimension" in (info.value.diag.message_hint or "")
    assert admin_one(db, "SELECT count(*) FROM pgfacts_internal.embedding_models") == 0
    assert op.one("SELECT pgfacts.register_embedding_model('m', 384)")["created"] is True
    assert hnsw_indexes(db) == indexes


@pytest.mark.parametrize("dimension", [384, 768, 1024, 1536])
def test_common_dimensions_are_allowed_out_of_the_box(db: Database, dimension: int) -> None:
    assert f"embeddings_hnsw_{dimension}" in hnsw_indexes(db)
    op = Caller(db)
    assert op.one("SELECT pgfacts.register_embedding_model('m', %s)", dimension)["created"]


def test_a_tenant_holds_at_most_16_models(db: Database) -> None:
    op = Caller(db)
    for n in range(16):
        op.one("SELECT pgfacts.register_embedding_model(%s, 384)", f"m-{n}")
    # Registering a known model again is no new model.
    assert op.one("SELECT pgfacts.register_embedding_model('m-3', 384)")["created"] is False
    with pytest.raises(psycopg.Error) as info:
        op.one("SELECT pgfacts.register_embedding_model('m-16', 384)")
    assert info.value.sqlstate == "22023"
    assert admin_one(db, "SELECT count(*) FROM pgfacts_internal.embedding_models") == 16
    # Another tenant has its own 16.
    assert Caller(db, tenant="t2").one("SELECT pgfacts.register_embedding_model('m-16', 384)")


def test_only_the_dba_allows_a_dimension(db: Database, bound_login: str) -> None:
    for caller in (Caller(db), bound_caller(db, bound_login)):
        raises("42501", caller.one, "SELECT pgfacts.allow_embedding_dimension(5)")
    assert "embeddings_hnsw_5" not in hnsw_indexes(db)
    result = admin_one(db, "SELECT pgfacts.allow_embedding_dimension(5)")
    assert result["dimension"] == 5 and result["created"] is True
    assert 5 in result["allowed"]
    assert admin_one(db, "SELECT pgfacts.allow_embedding_dimension(5)")["created"] is False
    assert "embeddings_hnsw_5" in hnsw_indexes(db)
    assert Caller(db).one("SELECT pgfacts.register_embedding_model('five', 5)")["created"]
    with db.admin() as admin:
        for bad in (0, 4001, None):
            with pytest.raises(psycopg.Error) as info:
                admin.execute("SELECT pgfacts.allow_embedding_dimension(%s)", (bad,))
            assert info.value.sqlstate == "22023"


def test_an_index_left_invalid_is_reported_not_trusted(db: Database) -> None:
    with db.admin() as admin:
        admin.execute(
            "CREATE INDEX embeddings_hnsw_6 ON pgfacts_internal.embeddings (item_id)"
            " WHERE dimension = 6"
        )
        admin.execute(
            "UPDATE pg_index SET indisvalid = false "
            "WHERE indexrelid = 'pgfacts_internal.embeddings_hnsw_6'::regclass"
        )
        with pytest.raises(psycopg.Error) as info:
            admin.execute("SELECT pgfacts.allow_embedding_dimension(6)")
        assert info.value.sqlstate == "55000"
    raises("22023", Caller(db).one, "SELECT pgfacts.register_embedding_model('six', 6)")


def test_the_cli_allows_a_dimension_building_its_index_concurrently(db: Database) -> None:
    from .conftest import with_db
    from .test_runtime_cli import cli

    admin_dsn = with_db(db.admin_dsn, db.name)
    result = cli("embedding-dimension", "12", "--dsn", admin_dsn)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["dimension"] == 12
    assert "embeddings_hnsw_12" in hnsw_indexes(db)
    assert Caller(db).one("SELECT pgfacts.register_embedding_model('twelve', 12)")["created"]
    # Twice is once; a bad dimension is the SQL's 22023, nothing built.
    assert cli("embedding-dimension", "12", "--dsn", admin_dsn).returncode == 0
    bad = cli("embedding-dimension", "4001", "--dsn", admin_dsn)
    assert bad.returncode == 1 and "4000" in bad.stderr
    assert hnsw_indexes(db).count("embeddings_hnsw_12") == 1


# --- 2. a null value --------------------------------------------------------------------


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


# --- 3 and 4. workers and set_embeddings see only what their kind may read --------------


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


# --- 5, 6 and 7. vectors and batches ----------------------------------------------------


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
    "vector", ["[0,0,0,0]", "[1e-8,1e-8,1e-8,1e-8]", "[1e10,1,1,1]", "[1e38,1,1,1]", None]
)
def test_a_query_vector_halfvec_cannot_hold_is_22023(m4: Caller, vector: str | None) -> None:
    raises("22023", m4.rows, "SELECT * FROM pgfacts.nearest('m4', %s)", vector)
    if vector is None:
        return  # search without a vector is a lexical search
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
    m4: Caller, call: Caller, tool: str, size: int
) -> None:
    with pytest.raises(psycopg.Error) as info:
        call(tool, {"query": "first", "vector": [0.5] * size, "model": "m4"}, kind="operator")
    assert info.value.sqlstate == "22023"
    # At the model's dimension it works.
    assert call(tool, {"query": "first", "vector": [1, 0, 0, 0], "model": "m4"}, kind="operator")


def test_the_tool_schemas_declare_the_vector_cap(call: Caller) -> None:
    conn = call.tool_conn("app")
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
    m4: Caller, call: Caller, vector: str
) -> None:
    conn = call.tool_conn("app")
    for tool in ("facts_search", "search_skills"):
        with pytest.raises(psycopg.Error) as info:
            conn.execute(
                "SELECT pgfacts.call_tool(%s, jsonb_build_object('query', 'first', 'model', 'm4',"
                ' \'vector\', %s::jsonb), \'{"tenant": "t1", "agent_kind": "operator"}\')',
                (tool, vector),
            )
        assert info.value.sqlstate == "22023", (tool, vector, info.value)
