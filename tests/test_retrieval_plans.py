"""Every search path uses its indexes as an agent login (not the owner, not a superuser),
at a size where the planner would notice a sequential scan: 12,000 facts (2,000 in the
agent's session, a tenth shared), 12,000 claims (a tenth no longer valid) and their
embeddings, built set-based. No plan of any statement a search runs scans facts, claims
or embeddings sequentially."""

from __future__ import annotations

import re

from .conftest import Database
from .support.caller import Caller
from .support.embeddings import insert_with_index_rebuilt

ROWS = 12_000
# A random 16-dimension vector for every queued row.
EMBED_QUEUED = (
    "INSERT INTO pgfacts_internal.embeddings (tenant, model, item_kind, item_id, "
    "dimension, content_hash, embedding) SELECT q.tenant, 'toy-16', q.item_kind, "
    "q.item_id, 16, q.content_hash, array(SELECT random() - 0.5 "
    "FROM generate_series(1, 16) WHERE q.item_id > 0)::real[]::halfvec "
    "FROM pgfacts_internal.embedding_queue q"
)


def _load(db: Database) -> None:
    for session, first, last in (("other", 1, ROWS - 2000), ("s1", ROWS - 1999, ROWS)):
        Caller(db, session=session).rows(
            "SELECT pgfacts.store_facts(jsonb_agg(jsonb_build_object('key', 'k/' || i, "
            "'value', format('fact %%s about w%%s and w%%s', i, i %% 997, i %% 101), "
            "'shared', i %% 10 = 0))) FROM generate_series(%s::int, %s::int) AS i "
            "GROUP BY i / 1000",
            first,
            last,
        )
    op = Caller(db)
    op.one("SELECT pgfacts.define_predicate('says', 'many')")
    subject = op.entity("Speaker")
    op.one("SELECT pgfacts.register_embedding_model('toy-16', 16)")
    with db.admin() as admin:
        admin.execute(
            """INSERT INTO pgfacts_internal.claims (tenant, subject_id, predicate, cardinality,
                   object_value, text, confidence, assertion, valid, system_time)
               SELECT 't1', %(s)s, 'says', 'many', to_jsonb('w' || i %% 997),
                      format('claim %%s about w%%s', i, i %% 997), 1, 'plan:' || i, r,
                      tstzrange(now(), NULL)
                 FROM generate_series(1, %(n)s) AS i,
                      LATERAL (SELECT CASE WHEN i %% 10 = 0
                                           THEN tstzrange('2010-01-01', '2015-01-01')
                                           ELSE tstzrange('2010-01-01', NULL) END AS r) AS v""",
            {"s": subject, "n": ROWS},
        )
        insert_with_index_rebuilt(admin, 16, EMBED_QUEUED)
        admin.execute("DELETE FROM pgfacts_internal.embedding_queue")
        admin.execute("VACUUM ANALYZE")
        for setting in (
            "session_preload_libraries = 'auto_explain'",
            "auto_explain.log_min_duration = 0",
            "auto_explain.log_nested_statements = on",
            "auto_explain.log_level = notice",
        ):
            admin.execute(f"ALTER ROLE pgfacts_test_agent IN DATABASE {db.name} SET {setting}")


SEARCHES = (
    "SELECT * FROM pgfacts.search('w5 w7', \"limit\" => 10)",
    "SELECT * FROM pgfacts.search('what was w5 before?', \"limit\" => 10)",
    "SELECT * FROM pgfacts.search('w5', query_vector => %(v)s, model => 'toy-16')",
    "SELECT * FROM pgfacts.search('', query_vector => %(v)s, model => 'toy-16', "
    "item_kinds => '{claim}')",
    "SELECT * FROM pgfacts.nearest('toy-16', %(v)s, k => 50)",
    "SELECT * FROM pgfacts.nearest('toy-16', %(v)s, k => 10, item_kinds => '{fact}', "
    "scope => 'session')",
    # find_keys is left out: every key here is k/<n>, so a trigram pattern matches most rows
    # and a sequential scan is the right plan; test_retrieval_access shows its index in use.
    "SELECT * FROM pgfacts.search_claims('w5')",
    "SELECT pgfacts.context_pack('where is w5 now?', query_vector => %(v)s, model => 'toy-16')",
)


def test_no_search_scans_facts_claims_or_embeddings_sequentially(db: Database) -> None:
    _load(db)
    vector = "[" + ",".join(str((i % 5) - 2.1) for i in range(16)) + "]"
    for sql in SEARCHES:
        plans: list[str] = []
        with db.connect("agent", autocommit=True) as conn:
            conn.add_notice_handler(lambda n, plans=plans: plans.append(n.message_primary or ""))
            with conn.transaction():
                conn.execute("SELECT pgfacts.set_context('t1', session_id => 's1')")
                conn.execute(sql, {"v": vector}).fetchall()
        text = "\n".join(plans)
        assert "Index" in text, sql
        scans = re.findall(r"Seq Scan on (facts|claims|embeddings)\b", text)
        assert not scans, f"{sql}: sequential scan of {scans}\n{text}"
    _few_facts_are_searched_exactly(db, vector)


def _few_facts_are_searched_exactly(db: Database, vector: str) -> None:
    """The tenant holds 24,000 embeddings, so its claims go through HNSW; a session of 500
    facts (fewer than 1,000) is read through the session index and ranked exactly: the
    answer is exact search's, whatever the graph would find."""
    Caller(db, session="s2").rows(
        "SELECT pgfacts.store_facts(jsonb_agg(jsonb_build_object('key', 'small/' || i, "
        "'value', format('fact %%s about w%%s', i, i %% 997)))) FROM generate_series(1, 500) AS i"
    )
    with db.admin() as admin:
        admin.execute(EMBED_QUEUED)
        admin.execute("DELETE FROM pgfacts_internal.embedding_queue")
        admin.execute("ANALYZE")
    plans: list[str] = []
    with db.connect("agent", autocommit=True) as conn:
        conn.add_notice_handler(lambda n: plans.append(n.message_primary or ""))
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context('t1', session_id => 's2')")
            got = conn.execute(
                "SELECT item_id FROM pgfacts.nearest('toy-16', %s, k => 10, "
                "item_kinds => '{fact}', scope => 'session')",
                (vector,),
            ).fetchall()
    with db.admin() as admin:
        exact = admin.execute(
            """SELECT e.item_id FROM pgfacts_internal.embeddings AS e
                 JOIN pgfacts_internal.facts AS f ON f.tenant = e.tenant AND f.fact_id = e.item_id
                WHERE e.tenant = 't1' AND e.model = 'toy-16' AND e.item_kind = 'fact'
                  AND f.session_id = 's2' AND NOT f.shared AND f.deleted_at IS NULL
                ORDER BY e.embedding <=> %s::halfvec, e.item_id LIMIT 10""",
            (vector,),
        ).fetchall()
    assert len(got) == 10
    assert {r[0] for r in got} == {r[0] for r in exact}
    text = "\n".join(plans)
    assert "facts_scope_idx" in text
    assert "embeddings_hnsw_16" not in text, text
