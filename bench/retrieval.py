"""Retrieval workload: nearest neighbours and hybrid search over clustered embeddings.

The data (``full``): 50,000 claims of tenant ``retrieval`` with 1024-dimension embeddings drawn
around 1,000 cluster centres (uniform random vectors make every index look bad), a tenth
of them no longer valid (their valid time ended in 2015, so the time filter drops them),
and, for the filtered 1% cases, a second tenant ``retrieval-small`` holding 1% as many rows
and, in tenant ``retrieval``, working-memory facts of one spawn tree (1% as many rows)
among ten times as many facts of other sessions. Claims and embeddings are written as the
admin in a few set-based statements (the write path is benchmarked in ``knowledge``); the
text and embedding of a claim are what the API would store; facts go through
``store_facts``.

Measured: ``nearest`` (the layer's default, halfvec HNSW with iterative scan, tenant and
time filters) at limit 50, its recall@10 against exact search under the same filters, the
bytes per embedding (table plus index), the two filtered 1% cases (a tenant of many, a task
agent's spawn tree), hybrid ``search``, and the exact search beside them as the baseline.
Then the frontier of storage options on a copy of the same vectors (bytes, recall,
latency): halfvec HNSW; HNSW over a reduced representation (binary quantization, the
first 256 or 512 dimensions) with exact re-rank by the full vector; and the reduced
representations alone, which are all that fits 1.5 KB per embedding at 1024 dimensions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import psycopg

from .runner import Result, timed

TENANT = "retrieval"
SMALL = "retrieval-small"


@dataclass(frozen=True)
class Size:
    rows: int
    dims: int
    clusters: int
    queries: int
    repeat: int


SIZES = {
    "smoke": Size(rows=4_000, dims=128, clusters=80, queries=20, repeat=20),
    "full": Size(rows=50_000, dims=1024, clusters=1_000, queries=100, repeat=200),
}


def load(conn: psycopg.Connection[Any], tenant: str, rows: int, dims: int, clusters: int) -> None:
    """``rows`` claims of one ``many`` predicate with their embeddings (admin, set-based)."""
    with conn.transaction():
        _load(conn, tenant, rows, dims, clusters)


def _load(conn: psycopg.Connection[Any], tenant: str, rows: int, dims: int, clusters: int) -> None:
    model = f"bench-{dims}"
    conn.execute("SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')", (tenant,))
    conn.execute("SELECT pgfacts.define_predicate('notes', 'many', 'a note about a topic')")
    subject = conn.execute("SELECT pgfacts.ensure_entity('topic', 'Bench')").fetchone()[0]  # type: ignore[index]
    # The DBA step for a dimension not allowed out of the box (the smoke size's 128).
    conn.execute("SELECT pgfacts.allow_embedding_dimension(%s)", (dims,))
    conn.execute("SELECT pgfacts.register_embedding_model(%s, %s)", (model, dims))
    conn.execute(
        """INSERT INTO pgfacts_internal.claims (tenant, subject_id, predicate, cardinality,
               object_value, text, confidence, assertion, valid, system_time)
           SELECT %(t)s, %(s)s, 'notes', 'many', to_jsonb('topic t' || i %% %(c)s),
                  format('note %%s about topic t%%s and item w%%s', i, i %% %(c)s, i %% 997), 1,
                  'bench:' || i, r, tstzrange(now(), NULL)
             FROM generate_series(1, %(n)s) AS i,
                  LATERAL (SELECT CASE WHEN i %% 10 = 0
                                       THEN tstzrange('2010-01-01', '2015-01-01')
                                       ELSE tstzrange('2010-01-01', NULL) END AS r) AS v""",
        {"t": tenant, "s": subject, "c": clusters, "n": rows},
    )
    conn.execute("DELETE FROM pgfacts_internal.embedding_queue WHERE tenant = %s", (tenant,))
    # Centres uniform in [-0.5, 0.5]^dims; a row is its centre plus noise of half that
    # spread per dimension, so a cluster's rows are near each other and far from the rest.
    conn.execute(
        """CREATE TEMP TABLE IF NOT EXISTS bench_centres AS
           SELECT c, array_agg(random() - 0.5 ORDER BY d) AS v
             FROM generate_series(0, %(c)s - 1) AS c, generate_series(1, %(d)s) AS d
            GROUP BY c""",
        {"c": clusters, "d": dims},
    )
    conn.execute(
        """INSERT INTO pgfacts_internal.embeddings (tenant, model, item_kind, item_id, dimension,
               content_hash, embedding)
           SELECT x.tenant, %(m)s, 'claim', x.claim_id, %(d)s, 'bench',
                  (SELECT array_agg(ce.v[d] + 0.5 * (random() - 0.5) ORDER BY d)
                     FROM generate_series(1, %(d)s) AS d WHERE x.claim_id > 0)::halfvec
             FROM pgfacts_internal.claims AS x
             JOIN bench_centres AS ce ON ce.c = substr(x.object_value #>> '{}', 8)::int
            WHERE x.tenant = %(t)s AND x.predicate = 'notes'""",
        {"m": model, "d": dims, "t": tenant},
    )


TREE = ("tree-root", "tree-a", "tree-b")  # one spawn tree: a root and two children


def load_tree(
    conn: psycopg.Connection[Any], tenant: str, rows: int, dims: int, clusters: int
) -> None:
    """``rows`` facts of one spawn tree and ten times as many of ten other sessions, each
    with an embedding around a centre, as ``load`` makes them (the ``bench_centres`` table)."""
    with conn.transaction():
        sessions = [(s, "tree-root" if s != "tree-root" else None) for s in TREE]
        sessions += [(f"other-{n}", None) for n in range(10)]
        for number, (session, parent) in enumerate(sessions):
            share = rows // len(TREE) + 1 if session in TREE else rows
            first = number * rows * 2
            conn.execute(
                "SELECT pgfacts.set_context(tenant => %s, session_id => %s, "
                "parent_session_id => %s, agent_kind => 'agent')",
                (tenant, session, parent),
            )
            for start in range(first, first + share, 1000):
                conn.execute(
                    """SELECT pgfacts.store_facts(jsonb_agg(jsonb_build_object(
                           'key', 'note/' || i, 'value', format('note %%s about topic t%%s', i,
                           i %% %(c)s)))) FROM generate_series(%(a)s::int, %(b)s::int) AS i""",
                    {"c": clusters, "a": start, "b": min(start + 999, first + share - 1)},
                )
        conn.execute(
            """INSERT INTO pgfacts_internal.embeddings (tenant, model, item_kind, item_id,
                   dimension, content_hash, embedding)
               SELECT f.tenant, %(m)s, 'fact', f.fact_id, %(d)s, 'bench',
                      (SELECT array_agg(ce.v[d] + 0.5 * (random() - 0.5) ORDER BY d)
                         FROM generate_series(1, %(d)s) AS d WHERE f.fact_id > 0)::halfvec
                 FROM pgfacts_internal.facts AS f
                 JOIN bench_centres AS ce ON ce.c = substr(f.key, 6)::int %% %(c)s
                WHERE f.tenant = %(t)s""",
            {"m": f"bench-{dims}", "d": dims, "t": tenant, "c": clusters},
        )
        conn.execute(
            "DELETE FROM pgfacts_internal.embedding_queue WHERE tenant = %s AND item_kind = 'fact'",
            (tenant,),
        )


def query_vectors(conn: psycopg.Connection[Any], count: int, dims: int) -> list[str]:
    """Questions near a random centre (not rows of the table)."""
    return [
        r[0]
        for r in conn.execute(
            """SELECT (SELECT array_agg(ce.v[d] + 0.5 * (random() - 0.5) ORDER BY d)
                         FROM generate_series(1, %(d)s) AS d WHERE q > 0)::halfvec::text
                 FROM generate_series(1, %(n)s) AS q
                 JOIN bench_centres AS ce
                   ON ce.c = (q * 7919) %% (SELECT count(*) FROM bench_centres)""",
            {"d": dims, "n": count},
        ).fetchall()
    ]


EXACT = """SELECT e.item_id, e.embedding <=> %(q)s::halfvec AS distance
  FROM pgfacts_internal.embeddings AS e
  JOIN pgfacts_internal.claims AS c ON c.tenant = e.tenant AND c.claim_id = e.item_id
 WHERE e.tenant = %(t)s AND e.model = %(m)s AND e.item_kind = 'claim'
   AND upper_inf(c.system_time) AND c.valid @> now()
 ORDER BY 2, 1 LIMIT %(k)s"""
EXACT_TREE = """SELECT e.item_id, e.embedding <=> %(q)s::halfvec AS distance
  FROM pgfacts_internal.embeddings AS e
  JOIN pgfacts_internal.facts AS f ON f.tenant = e.tenant AND f.fact_id = e.item_id
 WHERE e.tenant = %(t)s AND e.model = %(m)s AND e.item_kind = 'fact'
   AND f.session_id = ANY (%(s)s) AND f.deleted_at IS NULL
 ORDER BY 2, 1 LIMIT %(k)s"""
NEAREST = "SELECT item_id FROM pgfacts.nearest(%s, %s::vector, k => %s, item_kinds => '{claim}')"
NEAREST_FACTS = (
    "SELECT item_id FROM pgfacts.nearest(%s, %s::vector, k => %s, item_kinds => '{fact}')"
)
SEARCH = (
    "SELECT item_id FROM pgfacts.search(%s, query_vector => %s::vector, model => %s, "
    "\"limit\" => 20, item_kinds => '{claim}')"
)


def exact(
    conn: psycopg.Connection[Any], tenant: str, model: str, q: str, k: int, sql: str = EXACT
) -> list[Any]:
    with conn.transaction():
        conn.execute("SET LOCAL enable_indexscan = off")  # the exact scan, not the index
        return conn.execute(
            sql, {"q": q, "t": tenant, "m": model, "k": k, "s": list(TREE)}
        ).fetchall()


def api(conn: psycopg.Connection[Any], tenant: str, sql: str, *args: Any) -> list[int]:
    with conn.transaction():
        conn.execute(
            "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')", (tenant,)
        )
        return [r[0] for r in conn.execute(sql, args).fetchall()]


def tree_api(conn: psycopg.Connection[Any], tenant: str, sql: str, *args: Any) -> list[int]:
    """As a task agent in the spawn tree (it sees the tree's facts and the shared ones)."""
    with conn.transaction():
        conn.execute(
            "SELECT pgfacts.set_context(tenant => %s, session_id => 'tree-a', "
            "parent_session_id => 'tree-root', agent_kind => 'agent')",
            (tenant,),
        )
        return [r[0] for r in conn.execute(sql, args).fetchall()]


def recall(truth: list[list[Any]], got: list[list[Any]], k: int = 10) -> float:
    """The share of each question's exact top k that the call's top k holds, on average."""
    return sum(len(set(t[:k]) & set(g[:k])) / k for t, g in zip(truth, got, strict=True)) / len(
        truth
    )


def sizes(conn: psycopg.Connection[Any], table: str, index: str, rows: int) -> tuple[int, int]:
    row = conn.execute(
        "SELECT pg_table_size(%s::regclass), pg_relation_size(%s::regclass)", (table, index)
    ).fetchone()
    assert row is not None
    return round(row[0] / rows), round(row[1] / rows)


def cycle(items: list[Any]) -> Any:
    state = {"i": -1}

    def next_item() -> Any:
        state["i"] = (state["i"] + 1) % len(items)
        return items[state["i"]]

    return next_item


def split_recall(truth11: list[list[Any]], got: list[list[int]]) -> str:
    """Recall@10 over all questions, and apart for the ones whose own neighbourhood the
    filters removed (their exact tenth neighbour is farther than 0.5: a cluster that is
    no longer valid), where the neighbours left are nearly equidistant."""
    truth = [[r[0] for r in t] for t in truth11]
    far = [i for i, t in enumerate(truth11) if len(t) > 9 and t[9][1] > 0.5]
    near = [i for i in range(len(truth)) if i not in far]
    parts = [f"recall@10 {recall(truth, got):.3f}"]
    for name, idx in (("neighbourhood kept", near), ("neighbourhood filtered out", far)):
        if idx:
            r = recall([truth[i] for i in idx], [got[i] for i in idx])
            parts.append(f"{name}: {r:.3f} ({len(idx)})")
    return "; ".join(parts)


# The frontier: (name, table, index, ef_search, candidates re-ranked, query). A query takes
# %(q)s (the full question vector) and %(n)s (how many index candidates to re-rank).
RERANK = "SELECT id FROM ({}) AS s ORDER BY h <=> %(q)s::halfvec, id LIMIT 10"


def frontier(d: int) -> list[tuple[str, str, str, int, int, str]]:
    first = "subvector(h, 1, {n})::halfvec({n})"
    q_first = "subvector(%(q)s::halfvec, 1, {n})::halfvec({n})"
    by = "SELECT id, h FROM bench_opt ORDER BY {} LIMIT %(n)s"
    bits = f"binary_quantize(h)::bit({d}) <~> binary_quantize(%(q)s::halfvec)"
    sub = {n: f"{first.format(n=n)} <=> {q_first.format(n=n)}" for n in (256, 512)}
    hnsw = "SELECT id FROM bench_opt ORDER BY h <=> %(q)s::halfvec, id LIMIT 10"
    return [
        ("option halfvec HNSW ef 100", "bench_opt", "bench_opt_h", 100, 0, hnsw),
        ("option halfvec HNSW ef 200", "bench_opt", "bench_opt_h", 200, 0, hnsw),
        (
            "option bq HNSW + re-rank 400",
            "bench_opt",
            "bench_opt_bq",
            400,
            400,
            RERANK.format(by.format(bits)),
        ),
        (
            "option bq HNSW + re-rank 1000",
            "bench_opt",
            "bench_opt_bq",
            1000,
            1000,
            RERANK.format(by.format(bits)),
        ),
        (
            f"option halfvec({d // 2}) HNSW + re-rank 200",
            "bench_opt",
            "bench_opt_s512",
            200,
            200,
            RERANK.format(by.format(sub[512].replace("512", str(d // 2)))),
        ),
        (
            f"option halfvec({d // 4}) HNSW + re-rank 200",
            "bench_opt",
            "bench_opt_s256",
            200,
            200,
            RERANK.format(by.format(sub[256].replace("256", str(d // 4)))),
        ),
        (
            f"option halfvec({d // 4}) alone, ef 100",
            "bench_opt_small",
            "bench_opt_small_h",
            100,
            0,
            f"SELECT id FROM bench_opt_small ORDER BY s <=> {q_first.format(n=d // 4)}, id "
            "LIMIT 10",
        ),
        (
            "option bits alone, ef 400",
            "bench_opt_bits",
            "bench_opt_bits_b",
            400,
            0,
            "SELECT id FROM bench_opt_bits ORDER BY b <~> binary_quantize(%(q)s::halfvec), id "
            "LIMIT 10",
        ),
    ]


def options(
    conn: psycopg.Connection[Any], spec: Size, qs: list[str], truth11: list[list[Any]]
) -> list[Result]:
    """The storage options on a copy of the live rows of tenant bench: bytes, recall, latency.

    The copy keeps the vector in the row as the layer does (storage MAIN). Its HNSW
    indexes are built like the layer's (ef_construction 128). Options that re-rank keep the
    full halfvec; the reduced representations alone (a quarter of the dimensions, or one bit
    per dimension) are the only ones under 1.5 KB per embedding at 1024 dimensions."""
    d = spec.dims
    conn.execute(f"CREATE TABLE bench_opt (id bigint, h halfvec({d}) STORAGE MAIN)")
    conn.execute(
        """INSERT INTO bench_opt SELECT e.item_id, e.embedding
              FROM pgfacts_internal.embeddings AS e
              JOIN pgfacts_internal.claims AS c ON c.tenant = e.tenant AND c.claim_id = e.item_id
             WHERE e.tenant = 'retrieval' AND e.item_kind = 'claim' AND c.valid @> now()"""
    )
    conn.execute(
        f"CREATE TABLE bench_opt_small AS SELECT id, subvector(h, 1, {d // 4})::halfvec({d // 4})"
        f" AS s FROM bench_opt"
    )
    conn.execute(
        f"CREATE TABLE bench_opt_bits AS SELECT id, binary_quantize(h)::bit({d}) AS b "
        "FROM bench_opt"
    )
    conn.execute("VACUUM ANALYZE bench_opt, bench_opt_small, bench_opt_bits")
    hnsw = "USING hnsw ({}) WITH (ef_construction = 128)"
    for index, table, expression in (
        ("bench_opt_h", "bench_opt", "h halfvec_cosine_ops"),
        ("bench_opt_bq", "bench_opt", f"(binary_quantize(h)::bit({d})) bit_hamming_ops"),
        (
            "bench_opt_s512",
            "bench_opt",
            f"(subvector(h, 1, {d // 2})::halfvec({d // 2})) halfvec_cosine_ops",
        ),
        (
            "bench_opt_s256",
            "bench_opt",
            f"(subvector(h, 1, {d // 4})::halfvec({d // 4})) halfvec_cosine_ops",
        ),
        ("bench_opt_small_h", "bench_opt_small", "s halfvec_cosine_ops"),
        ("bench_opt_bits_b", "bench_opt_bits", "b bit_hamming_ops"),
    ):
        conn.execute(f"CREATE INDEX {index} ON {table} {hnsw.format(expression)}")
    rows = conn.execute("SELECT count(*) FROM bench_opt").fetchone()[0]  # type: ignore[index]
    results = []
    for name, table, index, ef, n, sql in frontier(d):
        table_b, index_b = sizes(conn, table, index, rows)
        conn.execute(f"SET hnsw.ef_search = {ef}")
        got = [[r[0] for r in conn.execute(sql, {"q": q, "n": n}).fetchall()] for q in qs]
        nxt = cycle(qs)
        samples = timed(
            lambda sql=sql, n=n, nxt=nxt: conn.execute(sql, {"q": nxt(), "n": n}).fetchall(),
            spec.repeat,
        )
        results.append(
            Result(
                name,
                samples,
                baseline="exact search (baseline)",
                rows=rows,
                bytes=table_b + index_b,
                note=f"{split_recall(truth11, got)}; bytes/embedding: table {table_b} + "
                f"index {index_b}",
            )
        )
    conn.execute("RESET hnsw.ef_search")
    return results


def run(dsn: str, size: str) -> list[Result]:
    spec = SIZES[size]
    model = f"bench-{spec.dims}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SET max_parallel_maintenance_workers = 0")  # pgvector 0.8.0 parallel HNSW bug
        conn.execute("SET maintenance_work_mem = '512MB'")
        load(conn, TENANT, spec.rows, spec.dims, spec.clusters)
        load(conn, SMALL, spec.rows // 100, spec.dims, spec.clusters)
        load_tree(conn, TENANT, spec.rows // 100, spec.dims, spec.clusters)
        conn.execute("VACUUM ANALYZE")
        qs = query_vectors(conn, spec.queries, spec.dims)
        truth11 = [exact(conn, TENANT, model, q, 11) for q in qs]
        gaps = [t[10][1] - t[9][1] for t in truth11 if len(t) == 11]
        tenth = [t[9][1] for t in truth11 if len(t) == 11]
        print(
            f"\nneighbourhoods: {spec.rows:,} rows x {spec.dims} dims around {spec.clusters} "
            f"centres; exact 10th neighbour cosine distance {sum(tenth) / len(tenth):.4f}, "
            f"gap to the 11th {sum(gaps) / len(gaps):.5f} on average "
            f"(min {min(gaps):.5f}, {sum(1 for g in gaps if g < 1e-4)} of {len(gaps)} under 1e-4)"
        )
        got = [api(conn, TENANT, NEAREST, model, q, 50) for q in qs]
        small_truth = [exact(conn, SMALL, model, q, 10) for q in qs]
        small_got = [api(conn, SMALL, NEAREST, model, q, 10) for q in qs]
        tree_truth = [exact(conn, TENANT, model, q, 10, EXACT_TREE) for q in qs]
        tree_got = [tree_api(conn, TENANT, NEAREST_FACTS, model, q, 10) for q in qs]
        tree_rows = len(
            conn.execute(
                "SELECT 1 FROM pgfacts_internal.facts WHERE tenant = %s AND session_id = ANY (%s)",
                (TENANT, list(TREE)),
            ).fetchall()
        )
        table_rows = conn.execute("SELECT count(*) FROM pgfacts_internal.embeddings").fetchone()[0]  # type: ignore[index]
        layer_table, layer_index = sizes(
            conn,
            "pgfacts_internal.embeddings",
            f"pgfacts_internal.embeddings_hnsw_{spec.dims}",
            table_rows,
        )
        nxt = cycle(qs)
        results = [
            Result(
                "exact search (baseline)",
                timed(lambda: exact(conn, TENANT, model, nxt(), 50), max(10, spec.repeat // 10), 2),
                rows=spec.rows,
            ),
            Result(
                "nearest k=50 tenant+time (halfvec HNSW)",
                timed(lambda: api(conn, TENANT, NEAREST, model, nxt(), 50), spec.repeat),
                baseline="exact search (baseline)",
                rows=spec.rows,
                bytes=layer_table + layer_index,
                note=f"{split_recall(truth11, got)} vs exact under the same filters; "
                f"bytes/embedding: table {layer_table} + index {layer_index}",
            ),
            Result(
                "nearest k=10, caller's rows 1%: a tenant",
                timed(lambda: api(conn, SMALL, NEAREST, model, nxt(), 10), spec.repeat),
                baseline="exact search (baseline)",
                rows=spec.rows // 100,
                note=f"{split_recall(small_truth, small_got)} (tenant {SMALL}: "
                f"{spec.rows // 100} of {table_rows} rows)",
            ),
            Result(
                "nearest k=10, caller's rows 1%: spawn tree",
                timed(lambda: tree_api(conn, TENANT, NEAREST_FACTS, model, nxt(), 10), spec.repeat),
                baseline="exact search (baseline)",
                rows=tree_rows,
                note=f"{split_recall(tree_truth, tree_got)} (facts of a task agent's spawn "
                f"tree: {tree_rows} of {table_rows} rows)",
            ),
        ]
        # Specific words (a topic, an item: about 1 row in 1,000 each), as a question names
        # a person or a product; a word every row holds makes the lexical list score them all.
        words = [f"t{random.Random(i).randrange(spec.clusters)} w{i % 997}" for i in range(len(qs))]
        pairs = list(zip(words, qs, strict=True))
        nxt_pair = cycle(pairs)
        results.append(
            Result(
                "search hybrid limit 20",
                timed(lambda: api(conn, TENANT, SEARCH, *nxt_pair(), model), spec.repeat),
                baseline="exact search (baseline)",
                rows=spec.rows,
            )
        )
        results += options(conn, spec, qs, truth11)
        return results
