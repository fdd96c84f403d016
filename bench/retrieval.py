"""Retrieval workload: nearest neighbours and hybrid search over clustered embeddings.

The data (``full``): 50,000 claims of tenant ``retrieval`` with 1024-dimension embeddings drawn
around 1,000 cluster centres (uniform random vectors make every index look bad), a tenth
of them no longer valid (their valid time ended in 2015, so the time filter drops them),
and a second tenant ``retrieval-small`` holding 1% as many rows, for the filtered case. Rows are
written as the admin in a few set-based statements (the write path is benchmarked in
``knowledge``); the text and embedding of a claim are what the API would store.

Measured: ``nearest`` (the layer's default, halfvec HNSW with iterative scan, tenant and
time filters) at limit 50, its recall@10 against exact search under the same filters, the
bytes per embedding (table plus index), hybrid ``search``, and the exact search beside them
as the baseline. Then the storage options on a copy of the same vectors: halfvec HNSW and
binary-quantized HNSW with exact re-rank (bytes, recall, latency).
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
    conn.execute("SELECT pgfacts.register_embedding_model(%s, %s)", (model, dims))
    conn.execute(
        """INSERT INTO pgfacts_internal.claims (tenant, subject_id, predicate, cardinality,
               object_value, text, confidence, assertion, valid, asserted_valid, system_time)
           SELECT %(t)s, %(s)s, 'notes', 'many', to_jsonb('topic t' || i %% %(c)s),
                  format('note %%s about topic t%%s and item w%%s', i, i %% %(c)s, i %% 997), 1,
                  'bench:' || i, r, r, tstzrange(now(), NULL)
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
 WHERE e.tenant = %(t)s AND e.model = %(m)s AND upper_inf(c.system_time)
   AND c.valid @> now()
 ORDER BY 2, 1 LIMIT %(k)s"""
NEAREST = "SELECT item_id FROM pgfacts.nearest(%s, %s::vector, k => %s, item_kinds => '{claim}')"
SEARCH = (
    "SELECT item_id FROM pgfacts.search(%s, query_vector => %s::vector, model => %s, "
    "\"limit\" => 20, item_kinds => '{claim}')"
)


def exact(conn: psycopg.Connection[Any], tenant: str, model: str, q: str, k: int) -> list[Any]:
    with conn.transaction():
        conn.execute("SET LOCAL enable_indexscan = off")  # the exact scan, not the index
        return conn.execute(EXACT, {"q": q, "t": tenant, "m": model, "k": k}).fetchall()


def api(conn: psycopg.Connection[Any], tenant: str, sql: str, *args: Any) -> list[int]:
    with conn.transaction():
        conn.execute(
            "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')", (tenant,)
        )
        return [r[0] for r in conn.execute(sql, args).fetchall()]


def recall(truth: list[list[int]], got: list[list[int]], k: int = 10) -> float:
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


def options(
    conn: psycopg.Connection[Any], spec: Size, qs: list[str], truth: list[list[int]]
) -> list[Result]:
    """The storage options on a copy of the live rows of tenant bench: bytes, recall, latency."""
    d = spec.dims
    conn.execute(
        f"""CREATE TABLE bench_opt AS SELECT e.item_id AS id, e.embedding::halfvec({d}) AS h
              FROM pgfacts_internal.embeddings AS e
              JOIN pgfacts_internal.claims AS c ON c.tenant = e.tenant AND c.claim_id = e.item_id
             WHERE e.tenant = 'retrieval' AND c.valid @> now()"""
    )
    conn.execute("ALTER TABLE bench_opt ALTER COLUMN h SET STORAGE PLAIN")
    conn.execute("VACUUM ANALYZE bench_opt")
    conn.execute("CREATE INDEX bench_opt_h ON bench_opt USING hnsw (h halfvec_cosine_ops)")
    conn.execute(
        f"CREATE INDEX bench_opt_bq ON bench_opt USING hnsw "
        f"((binary_quantize(h)::bit({d})) bit_hamming_ops)"
    )
    rows = conn.execute("SELECT count(*) FROM bench_opt").fetchone()[0]  # type: ignore[index]
    table_b, h_b = sizes(conn, "bench_opt", "bench_opt_h", rows)
    _, bq_b = sizes(conn, "bench_opt", "bench_opt_bq", rows)
    hnsw = "SELECT id FROM bench_opt ORDER BY h <=> %(q)s::halfvec LIMIT 10"
    bq = (
        f"SELECT id FROM (SELECT id, h FROM bench_opt "
        f"ORDER BY binary_quantize(h)::bit({d}) <~> binary_quantize(%(q)s::halfvec) "
        f"LIMIT %(n)s) AS s ORDER BY h <=> %(q)s::halfvec LIMIT 10"
    )
    results = []
    for name, sql, ef, n, storage in (
        ("option halfvec HNSW ef 100", hnsw, 100, 0, h_b),
        ("option bq HNSW + re-rank 100", bq, 200, 100, bq_b),
        ("option bq HNSW + re-rank 400", bq, 400, 400, bq_b),
    ):
        conn.execute(f"SET hnsw.ef_search = {ef}")
        got = [[r[0] for r in conn.execute(sql, {"q": q, "n": n}).fetchall()] for q in qs]
        r = recall(truth, got)
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
                bytes=table_b + storage,
                note=f"recall@10 {r:.3f}; bytes/embedding: table {table_b} + index {storage}",
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
        conn.execute("VACUUM ANALYZE")
        qs = query_vectors(conn, spec.queries, spec.dims)
        truth11 = [[r for r in exact(conn, TENANT, model, q, 11)] for q in qs]
        truth = [[r[0] for r in t] for t in truth11]
        gaps = [t[10][1] - t[9][1] for t in truth11 if len(t) == 11]
        tenth = [t[9][1] for t in truth11 if len(t) == 11]
        print(
            f"\nneighbourhoods: {spec.rows:,} rows x {spec.dims} dims around {spec.clusters} "
            f"centres; exact 10th neighbour cosine distance {sum(tenth) / len(tenth):.4f}, "
            f"gap to the 11th {sum(gaps) / len(gaps):.5f} on average "
            f"(min {min(gaps):.5f}, {sum(1 for g in gaps if g < 1e-4)} of {len(gaps)} under 1e-4)"
        )
        got = [api(conn, TENANT, NEAREST, model, q, 50) for q in qs]
        r_nearest = recall(truth, got)
        small_truth = [[r[0] for r in exact(conn, SMALL, model, q, 10)] for q in qs]
        small_got = [api(conn, SMALL, NEAREST, model, q, 10) for q in qs]
        r_small = recall(small_truth, small_got)
        layer_table, layer_index = sizes(
            conn,
            "pgfacts_internal.embeddings",
            f"pgfacts_internal.embeddings_hnsw_{spec.dims}",
            spec.rows + spec.rows // 100,
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
                note=f"recall@10 {r_nearest:.3f} vs exact under the same filters; bytes/embedding:"
                f" table {layer_table} + index {layer_index}",
            ),
            Result(
                "nearest k=10, caller's rows 1% of table",
                timed(lambda: api(conn, SMALL, NEAREST, model, nxt(), 10), spec.repeat),
                baseline="exact search (baseline)",
                rows=spec.rows // 100,
                note=f"recall@10 {r_small:.3f} (tenant {SMALL}: {spec.rows // 100} of "
                f"{spec.rows + spec.rows // 100} rows)",
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
        results += options(conn, spec, qs, truth)
        return results
