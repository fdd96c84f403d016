-- Nearest neighbours: the vector candidates (owned by the searcher role, like the text
-- candidates) and nearest(), the API.

-- Load pgvector in this session so its hnsw.* settings are known to the SET clauses below.
SELECT public.vector_dims('[1]'::public.vector);

SET LOCAL ROLE @schema@_searcher;

-- Inlined (no SET clause): the HNSW search list of a vector query of lim rows.
CREATE OR REPLACE FUNCTION @schema@_internal.vector_search_list(lim integer)
RETURNS integer
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- (lim + min(lim, 50)) x 3, 100 to 1000: the one walk over facts and claims searches
    -- as long a list as the walk per kind did together (x 1.5 each), so it finds the
    -- nearest rows as well and rows the filters drop seldom send it on to a second round.
    -- Shorter (x 1.5, x 2) moved the labelled set's vector-only figures down on the same
    -- index (hash-384 recall@10 0.974 -> 0.971, MiniLM look-alike@5 0.103 -> 0.116).
    SELECT least(greatest((lim OPERATOR(pg_catalog.+) least(lim, 50)) OPERATOR(pg_catalog.*) 3,
                          100), 1000)
$fn$;

COMMENT ON FUNCTION @schema@_internal.vector_search_list(integer) IS
'hnsw.ef_search for a vector query of lim rows: (lim + min(lim, 50)) x 3, 100 to 1000. '
'(inlined)';

-- As of known_at, the versions of then that are no longer current (facts_as_of's history
-- branch), each ranked by the vector of its own content: the current embedding while it is
-- still of that content, else the replaced one. Exact: only the facts changed or deleted
-- since known_at are scanned. A SQL function: planned for each call's arguments.
CREATE OR REPLACE FUNCTION @schema@_internal.fact_version_vector_candidates(
    for_tenant text, model text, dims integer, query_vector public.halfvec, kind text,
    with_shared boolean, every_session boolean, sessions text [], key_prefix text,
    want_tags text [], known_at timestamptz, exclude_id bigint, lim integer
) RETURNS TABLE (item_id bigint, version_id bigint, similarity real)
LANGUAGE sql
STABLE
SECURITY DEFINER
ROWS 50
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- The arguments by number: their names are also the tables' column names.
    SELECT v.fact_id, v.version_id,
           (1 - (x.embedding OPERATOR(public.<=>) $4))::real AS similarity
      FROM @schema@_internal.fact_versions AS v
     CROSS JOIN LATERAL (
         SELECT y.embedding FROM @schema@_internal.embeddings AS y
          WHERE y.tenant = v.tenant AND y.model = $2 AND y.item_kind = 'fact'
            AND y.item_id = v.fact_id AND y.dimension = $3
            AND y.content_hash = pg_catalog.md5(@schema@_internal.fact_content(v.key, v.value))
         UNION ALL
         SELECT r.embedding FROM @schema@_internal.replaced_fact_embeddings AS r
          WHERE r.tenant = v.tenant AND r.model = $2 AND r.fact_id = v.fact_id
            AND r.dimension = $3
            AND r.content_hash = pg_catalog.md5(@schema@_internal.fact_content(v.key, v.value))
          LIMIT 1) AS x
     WHERE v.tenant = $1 AND v.deleted_at IS NULL AND v.system_time @> $11
       AND @schema@_internal.fact_visible(v.shared, v.session_id, v.key, NULL, $5, $6, $7, $8)
       AND ($9 IS NULL OR pg_catalog.starts_with(v.key, $9))
       AND ($10 IS NULL OR v.tags @> $10)
       AND v.fact_id IS DISTINCT FROM $12
     ORDER BY 3 DESC LIMIT $13
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_version_vector_candidates(
    text, text, integer, public.halfvec, text, boolean, boolean, text [], text, text [],
    timestamptz, bigint, integer) IS
'The lim fact versions current at known_at and no longer current now nearest to '
'query_vector, each by the vector of its own content (the current embedding while it is of '
'that content, else the replaced one), exact; exclude_id: a fact to leave out (owner only: '
'the tenant is an argument).';

-- version_id came with the vectors of replaced content (a changed result: the old one goes).
DROP FUNCTION IF EXISTS @schema@_internal.vector_candidates(
    text, text, integer, public.halfvec, boolean, boolean, text, boolean, boolean, text [],
    text, text [], real, boolean, timestamptz, timestamptz, text, bigint, integer);
-- The query vector_candidates runs, its arguments by number as it passes them: one HNSW walk
-- for the kinds walked (walk_facts, walk_claims), an exact scan for the kinds ranked exactly
-- (exact_facts: of the caller's spawn tree when few_facts), and as of known_at the facts'
-- versions of then. The dimension is part of the index expression, so the text is built
-- for it (and the query planned for each call).
CREATE OR REPLACE FUNCTION @schema@_internal.vector_candidates_query(
    dims integer, walk_facts boolean, walk_claims boolean, exact_facts boolean,
    exact_claims boolean, few_facts boolean
) RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- The expression the HNSW index of this dimension is built on, or, for an exact scan,
    -- one it is not (so the planner reads the candidates by primary key).
    exact text := 'e.embedding OPERATOR(public.<=>) $4';
    indexed text := pg_catalog.format(
        'e.embedding::public.halfvec(%s) OPERATOR(public.<=>) $4::public.halfvec(%s)', dims, dims);
    -- Whether fact f / claim c is one the caller may see and in view (the arguments by
    -- number, as USING passes them), for the walk's probes and the exact scans alike.
    fact_filter text := $v$f.deleted_at IS NULL
              AND @schema@_internal.fact_visible(f.shared, f.session_id, f.key,
                      CASE WHEN $16::timestamptz IS NULL THEN f.expires_at END,
                      $7, $8, $9, $10)
              AND ($11::text IS NULL OR pg_catalog.starts_with(f.key, $11))
              AND ($12::text[] IS NULL OR f.tags @> $12)
              AND ($16::timestamptz IS NULL OR pg_catalog.lower(f.system_time) <= $16)
              AND NOT ($17::text = 'fact' AND f.fact_id = $18)$v$;
    claim_filter text := $v$c.confidence >= $13
              AND @schema@_internal.claim_answers($1, c.system_time, c.valid, c.retired_reason,
                                                  c.expires_at, c.assertion, $14, $15, $16)
              AND NOT ($17::text = 'claim' AND c.claim_id = $18)$v$;
    -- Facts with their embeddings, for an exact scan: all of the tenant's, or of a spawn
    -- tree the caller's, read through the session and shared indexes, each embedding by
    -- its primary key (LIMIT 1 keeps the planner from hashing the tenant's embeddings).
    all_facts text := $v$@schema@_internal.facts AS f
             JOIN @schema@_internal.embeddings AS e
               ON e.tenant = f.tenant AND e.model = $2 AND e.item_kind = 'fact'
              AND e.item_id = f.fact_id$v$;
    visible_facts text := $v$(SELECT x.* FROM @schema@_internal.facts AS x
              WHERE x.tenant = $1 AND x.deleted_at IS NULL
                AND @schema@_internal.fact_scope(x.shared, x.session_id) = ANY ($10)
             UNION ALL
             SELECT x.* FROM @schema@_internal.facts AS x
              WHERE $8 AND x.tenant = $1 AND x.shared AND x.deleted_at IS NULL) AS f
             CROSS JOIN LATERAL (
                 SELECT y.item_id, y.embedding, y.dimension FROM @schema@_internal.embeddings AS y
                  WHERE y.tenant = f.tenant AND y.model = $2 AND y.item_kind = 'fact'
                    AND y.item_id = f.fact_id LIMIT 1) AS e$v$;
BEGIN
    RETURN pg_catalog.format($q$
        SELECT h.item_kind, h.item_id, h.version_id, h.similarity FROM (
          -- One HNSW walk for both kinds: each row yielded is kept when its kind is walked
          -- and its fact or claim passes that kind's filters (a probe by primary key), so
          -- half the tenant's rows here pass where a walk per kind kept a quarter of its own.
          -- A scalar probe, not EXISTS: the planner hashes an EXISTS over every fact and
          -- claim of the tenant first (45 ms), costing the scan as if it read every row.
          (SELECT e.item_kind, e.item_id, NULL::bigint AS version_id,
                  (1 - (%1$s))::real AS similarity
             FROM @schema@_internal.embeddings AS e
            WHERE %3$s AND e.tenant = $1 AND e.model = $2 AND e.dimension = %2$s
              AND CASE e.item_kind
                  WHEN 'fact' THEN %4$s AND (
                      SELECT true FROM @schema@_internal.facts AS f
                       WHERE f.tenant = e.tenant AND f.fact_id = e.item_id AND %7$s)
                  WHEN 'claim' THEN %5$s AND (
                      SELECT true FROM @schema@_internal.claims AS c
                       WHERE c.tenant = e.tenant AND c.claim_id = e.item_id AND %8$s)
                  END
            ORDER BY %1$s LIMIT $19)
          UNION ALL
          (SELECT 'fact'::text, e.item_id, NULL::bigint, (1 - (%6$s))::real
             FROM %9$s
            WHERE %10$s AND f.tenant = $1 AND e.dimension = %2$s AND %7$s
            ORDER BY %6$s LIMIT $19 + least($19, 50))
          UNION ALL
          (SELECT 'fact'::text, x.item_id, x.version_id, x.similarity
             FROM @schema@_internal.fact_version_vector_candidates($1, $2, %2$s, $4, $7, $8, $9,
                      $10, $11, $12, $16, CASE WHEN $17 = 'fact' THEN $18 END,
                      $19 + least($19, 50)) AS x
            WHERE $5 AND $16::timestamptz IS NOT NULL)
          UNION ALL
          (SELECT 'claim'::text, e.item_id, NULL::bigint, (1 - (%6$s))::real
             FROM @schema@_internal.embeddings AS e
             JOIN @schema@_internal.claims AS c ON c.tenant = e.tenant AND c.claim_id = e.item_id
            WHERE %11$s AND e.tenant = $1 AND e.model = $2 AND e.dimension = %2$s
              AND e.item_kind = 'claim' AND %8$s
            ORDER BY %6$s LIMIT $19 + least($19, 50))) AS h
         ORDER BY h.similarity DESC, h.item_kind, h.item_id
         LIMIT $19 $q$,
        indexed, dims,
        -- (A boolean as text is true or false; %s of one would be t or f.)
        (walk_facts OR walk_claims)::text, walk_facts::text, walk_claims::text,
        exact, fact_filter, claim_filter,
        CASE WHEN few_facts THEN visible_facts ELSE all_facts END,
        exact_facts::text, exact_claims::text);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.vector_candidates_query(
    integer, boolean, boolean, boolean, boolean, boolean) IS
'The SQL vector_candidates executes for a dimension: one HNSW walk over the kinds walked '
'(each row yielded kept when a probe by primary key finds its fact or claim in view), exact '
'scans of the kinds ranked exactly (facts of the caller''s spawn tree when few_facts), the '
'facts'' versions as of known_at; its parameters are vector_candidates'' arguments by number.';

CREATE OR REPLACE FUNCTION @schema@_internal.vector_candidates(
    for_tenant text, model text, dims integer, query_vector public.halfvec,
    want_facts boolean, want_claims boolean, kind text, with_shared boolean,
    every_session boolean, sessions text [], key_prefix text, want_tags text [], floor real,
    history boolean, valid_at timestamptz, known_at timestamptz, exclude_kind text,
    exclude_id bigint, lim integer
) RETURNS TABLE (item_kind text, item_id bigint, version_id bigint, similarity real)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
-- A limited list: the planner joins it to the tables by primary key, not by a scan.
ROWS 50
SET search_path = pg_catalog, pg_temp
-- Filters (tenant, scope, time) apply inside the index scan: it goes on past rows that fail
-- them until the limit is met, so filtering loses no rows (pgvector 0.8 iterative scans).
SET "hnsw.iterative_scan" = relaxed_order
SET "hnsw.max_scan_tuples" = 50000
SET "hnsw.ef_search" = 100
AS $fn$
DECLARE
    -- A small candidate set is scanned exactly (recall 1); a large one through HNSW: the
    -- tenant's embeddings, and for facts also the ones the caller may see (a spawn tree).
    small boolean := @schema@_internal.few_embeddings(for_tenant, model);
    few_facts boolean := want_facts AND NOT every_session
                         AND @schema@_internal.few_visible_facts(for_tenant, with_shared, sessions);
    -- Walked: facts unless ranked exactly, claims unless the tenant's rows all are.
    walk_facts boolean := want_facts AND NOT (small OR few_facts);
    walk_claims boolean := want_claims AND NOT small;
BEGIN
    -- Relaxed order: the walk is vector_search_list(lim) long and yields lim rows that pass
    -- their filters, sorted again by the query. An exact branch reads lim + min(lim, 50) rows.
    PERFORM pg_catalog.set_config('hnsw.ef_search',
                                  @schema@_internal.vector_search_list(lim)::text, true);
    RETURN QUERY EXECUTE @schema@_internal.vector_candidates_query(dims, walk_facts,
                             walk_claims, want_facts AND (small OR few_facts),
                             want_claims AND small, few_facts)
    USING for_tenant, model, dims, query_vector, want_facts, want_claims, kind, with_shared,
          every_session, sessions, key_prefix, want_tags, floor, history, valid_at, known_at,
          coalesce(exclude_kind, ''), coalesce(exclude_id, 0), lim;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.vector_candidates(
    text, text, integer, public.halfvec, boolean, boolean, text, boolean, boolean, text [],
    text, text [], real, boolean, timestamptz, timestamptz, text, bigint, integer) IS
'The lim rows nearest to query_vector (cosine) of one model that the caller may see and that '
'are in view. Exact (recall 1) below 3000 embeddings of the tenant, and for facts also below '
'1000 facts the caller may see (a spawn tree and the shared facts); else one HNSW walk over '
'both kinds with iterative scan (ef_search (lim + min(lim, 50)) x 3, lim rows). As of '
'known_at, facts as '
'read_facts(known_at) shows them (facts_as_of): a version no longer current (version_id) is '
'ranked by the vector of its content, kept when it was replaced (owner only: the tenant is '
'an argument).';

CREATE OR REPLACE FUNCTION @schema@_internal.few_embeddings(for_tenant text, model text)
RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- PL/pgSQL keeps the plan of this count for the session (a SQL function plans it per call).
    RETURN (SELECT pg_catalog.count(*) < 3000
              FROM (SELECT 1 FROM @schema@_internal.embeddings AS e
                     WHERE e.tenant = for_tenant AND e.model = few_embeddings.model
                     ORDER BY e.item_kind, e.item_id  -- along the primary key
                     LIMIT 3000) AS x);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.few_embeddings(text, text) IS
'Whether the tenant holds fewer than 3000 embeddings of model, so an exact scan beats the '
'index (the searcher''s, inside vector_candidates).';

CREATE OR REPLACE FUNCTION @schema@_internal.few_visible_facts(
    for_tenant text, with_shared boolean, sessions text []
) RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The live facts of the caller's sessions (a task agent's spawn tree) and, when it sees
    -- them, the shared ones, counted along their indexes up to 1000. Fewer are
    -- ranked exactly at less cost than a filtered graph walk (501 facts of 56,000 rows at
    -- 1024 dimensions: 4.3 against 6.7 ms); more, exactly, cost more (1,224 shared facts at
    -- 384: 4 ms more), and a filter that keeps that many rows loses few in the graph.
    -- Session by session, along facts_scope_idx (ordered as it is, so no plan reads the
    -- tenant instead): the plan PL/pgSQL keeps for every call, written as = ANY (sessions),
    -- read all of the tenant's facts (14 ms at 25,000). The shared facts first: an index-only
    -- scan of facts_shared_recent_idx (0.2 ms for 1000, where the session's index scan
    -- fetches every row: 0.8 ms), which ends the count when the reader sees 1000 of them.
    RETURN (SELECT pg_catalog.count(*) < 1000
              FROM (SELECT 1 FROM @schema@_internal.facts AS f
                     WHERE with_shared AND f.tenant = for_tenant AND f.shared
                       AND f.deleted_at IS NULL
                    UNION ALL
                    SELECT 1
                      FROM (SELECT DISTINCT u.scope FROM pg_catalog.unnest(sessions) AS u (scope)) AS s
                     CROSS JOIN LATERAL (
                         SELECT 1 FROM @schema@_internal.facts AS f
                          WHERE f.tenant = for_tenant AND f.deleted_at IS NULL
                            AND @schema@_internal.fact_scope(f.shared, f.session_id) = s.scope
                          ORDER BY f.key USING ~<~
                          LIMIT 1000) AS own
                    LIMIT 1000) AS x);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.few_visible_facts(text, boolean, text []) IS
'Whether the caller sees fewer than 1000 live facts (of sessions, plus the shared ones when '
'with_shared), so an exact scan of them beats the index (the searcher''s, inside '
'vector_candidates).';

SET LOCAL ROLE @schema@_owner;

CREATE OR REPLACE FUNCTION @schema@.nearest(
    model text, query_vector public.vector, k integer DEFAULT 10,
    item_kinds text [] DEFAULT '{fact,claim}', scope text DEFAULT 'accessible',
    valid_at timestamptz DEFAULT NULL, known_at timestamptz DEFAULT NULL,
    include_history boolean DEFAULT false
) RETURNS TABLE (item_kind text, item_id bigint, ref text, content text, similarity real)
LANGUAGE plpgsql
VOLATILE  -- with known_at it waits for knowledge commits, then reads with a fresh snapshot
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    access record;
    dims integer;
BEGIN
    access := @schema@_internal.reader_visibility(scope);
    dims := @schema@_internal.model_dimension(tenant, model);
    k := @schema@_internal.check_limit(k, 'k', 1, 1000);
    PERFORM @schema@_internal.check_item_kinds(item_kinds);
    PERFORM @schema@_internal.settle_known_at(tenant, known_at);
    RETURN QUERY
    SELECT v.item_kind, v.item_id, i.ref, i.content, v.similarity
      FROM @schema@_internal.vector_candidates(tenant, model, dims,
               @schema@_internal.check_vector(query_vector, dims),
               'fact' = ANY (item_kinds), 'claim' = ANY (item_kinds), access.kind,
               access.with_shared, access.every_session, access.sessions, NULL, NULL,
               @schema@_internal.confidence_floor(tenant), include_history, valid_at,
               known_at, NULL, NULL, k) AS v
      CROSS JOIN LATERAL @schema@_internal.item_details(tenant, v.item_kind, v.item_id,
                                                         v.version_id) AS i
     ORDER BY v.similarity DESC, v.item_kind, v.item_id;
END
$fn$;

COMMENT ON FUNCTION @schema@.nearest(
    text, public.vector, integer, text [], text, timestamptz, timestamptz, boolean) IS
'The k (1..1000, default 10) facts and claims nearest to query_vector by cosine similarity, '
'among the rows of model the caller may see (scope as in read_facts): facts as '
'read_facts(known_at) shows them (a version replaced since ranked by the vector of its '
'content), claims believed at known_at and valid at valid_at (default now; include_history '
'adds retired versions, never one of a retracted assertion nor an outranked one). Each with '
'its similarity. 22023 wrong dimension or zero vector, P0002 '
'unknown model.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_item_kinds(item_kinds text [])
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF item_kinds IS NULL OR pg_catalog.cardinality(item_kinds) = 0
       OR NOT item_kinds <@ ARRAY['fact', 'claim'] THEN
        RAISE EXCEPTION 'item_kinds must name fact, claim or both' USING ERRCODE = '22023';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_item_kinds(text []) IS
'Raise 22023 unless item_kinds is a non-empty subset of {fact, claim}.';

CREATE OR REPLACE FUNCTION @schema@_internal.settle_known_at(tenant text, known_at timestamptz)
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF known_at > pg_catalog.clock_timestamp() THEN
        PERFORM @schema@_internal.raise_known_at_in_future(known_at);
    END IF;
    IF known_at IS NOT NULL THEN
        -- Claims: every commit stamped at or before known_at is visible to the caller's
        -- next statement (the knowledge commit wait, 25_commit_instants.sql).
        PERFORM @schema@_internal.await_commits(tenant);
        -- Facts: every fact write stamped at or before known_at has ended, as read_facts
        -- waits for it (await_fact_writes, 15_write_instants.sql).
        PERFORM @schema@_internal.await_fact_writes(tenant);
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.settle_known_at(text, timestamptz) IS
'Raise 22023 for a known_at in the future; for a past one, wait for the tenant''s knowledge '
'commits being stamped and its fact writers in progress (as read_facts does), so an answer '
'for that instant never changes.';
