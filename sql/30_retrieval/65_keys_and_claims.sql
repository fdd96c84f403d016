-- Fuzzy key lookup (pg_trgm), and search_claims, the claims-only search of the knowledge
-- layer, kept with its signature and now answered by this layer's lexical search.

CREATE OR REPLACE FUNCTION @schema@.find_keys(
    pattern text, "limit" integer DEFAULT 10, scope text DEFAULT 'accessible'
) RETURNS TABLE (scope_key text, key text, similarity real)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    access record := @schema@_internal.reader_visibility(scope);
BEGIN
    IF pattern IS NULL OR pg_catalog.btrim(pattern) = '' OR pg_catalog.length(pattern) > 512 THEN
        RAISE EXCEPTION 'pattern must be 1 to 512 characters' USING ERRCODE = '22023';
    END IF;
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 100);
    RETURN QUERY
    SELECT f.scope_key, f.key, k.similarity
      FROM @schema@_internal.key_candidates(tenant, access.kind, access.with_shared,
               access.every_session, access.sessions, pattern, "limit") AS k
      JOIN @schema@_internal.facts AS f ON f.tenant = tenant AND f.fact_id = k.item_id
     ORDER BY k.similarity DESC, f.key, f.scope_key;
END
$fn$;

COMMENT ON FUNCTION @schema@.find_keys(text, integer, text) IS
'Fuzzy key lookup: live fact keys the caller may see (scope as in read_facts) that are '
'trigram-similar to pattern (pg_trgm, similarity >= pg_trgm.similarity_threshold, 0.3 by '
'default), most similar first. limit 1..100 (default 10).';

CREATE OR REPLACE FUNCTION @schema@.search_claims(
    query text, min_confidence real DEFAULT NULL, include_history boolean DEFAULT false,
    "limit" integer DEFAULT 8
) RETURNS TABLE (
    claim_id bigint, subject_id bigint, predicate text, object_value jsonb, claim_text text,
    confidence real, rank real, current boolean, stopped_believed_at timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    -- Expired rows are in the auditor's view only (claim_in_view drops them otherwise).
    all_rows boolean := include_history AND @schema@_internal.sees_expired(@schema@_internal.context_kind());
    parsed record;
BEGIN
    IF query IS NULL OR pg_catalog.btrim(query) = '' THEN
        RAISE EXCEPTION 'query must be a non-empty string' USING ERRCODE = '22023';
    END IF;
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 100);
    parsed := @schema@_internal.parse_query(query);
    RETURN QUERY
    SELECT c.claim_id, c.subject_id, c.predicate, c.object_value, c.text, c.confidence,
           x.score, pg_catalog.upper_inf(c.system_time),
           CASE WHEN pg_catalog.upper_inf(c.system_time) THEN NULL
                ELSE pg_catalog.upper(c.system_time) END
      FROM @schema@_internal.claim_text_candidates(tenant, parsed.match, parsed.words,
               parsed.negated, coalesce(min_confidence, @schema@_internal.confidence_floor(tenant)),
               include_history, NULL, NULL, "limit", true, include_history, parsed.pairs) AS x
     -- Each hit by primary key (LIMIT 1 keeps the plan kept for the session, costed for an
     -- average tenant, from hashing the caller's every claim).
     CROSS JOIN LATERAL (SELECT y.* FROM @schema@_internal.claims AS y
                          WHERE y.tenant = tenant AND y.claim_id = x.item_id LIMIT 1) AS c
     WHERE parsed.match IS NOT NULL
       AND (all_rows OR @schema@_internal.claim_unexpired(c.expires_at, NULL))
     ORDER BY x.score DESC, pg_catalog.upper_inf(c.system_time) DESC, c.claim_id DESC;
END
$fn$;

COMMENT ON FUNCTION @schema@.search_claims(text, real, boolean, integer) IS
'Full-text search over claims only (the knowledge layer''s search, kept with its signature; '
'search() covers facts and claims): content words of query, stemmed and as written (quotes, '
'OR, -word as in websearch); claims believed now of at least min_confidence (default: the '
'tenant''s confidence_floor, 0.55 unless set); include_history (the auditor''s view) adds '
'every retired row, retracted and outranked ones included, each with current false and when '
'it stopped being believed (its recording instant: never believed). limit 1..100, default 8. '
'A query of stop words only finds nothing.';
