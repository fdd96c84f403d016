-- similar_facts (facts_similar) and search_skills (search_skills).

CREATE OR REPLACE FUNCTION @schema@.similar_facts(
    scope_key text, k integer DEFAULT 8, model text DEFAULT NULL
) RETURNS TABLE (
    similar_scope_key text, key text, value jsonb, similarity real, score double precision,
    mode text
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    access record := @schema@_internal.reader_visibility('accessible');
    anchor @schema@_internal.facts;
    use_model text := model;
    anchor_vector public.halfvec;
BEGIN
    k := @schema@_internal.check_limit(k, 'k', 1, 100);
    SELECT f.* INTO anchor FROM @schema@_internal.facts AS f
     WHERE f.tenant = tenant AND f.scope_key = similar_facts.scope_key AND f.deleted_at IS NULL
       AND @schema@_internal.fact_scope(f.shared, f.session_id)
           = @schema@_internal.scope_key_scope(similar_facts.scope_key)
       AND f.key = @schema@_internal.scope_key_key(similar_facts.scope_key)
       AND @schema@_internal.fact_visible(f.shared, f.session_id, f.key, f.expires_at, access.kind,
               access.with_shared, access.every_session, access.sessions);
    IF anchor.fact_id IS NULL THEN
        RETURN;  -- unknown and inaccessible anchors answer alike: nothing
    END IF;
    IF use_model IS NULL THEN
        SELECT m.model INTO use_model FROM @schema@_internal.embedding_models AS m
         WHERE m.tenant = tenant ORDER BY m.created_at DESC, m.model LIMIT 1;
    END IF;
    SELECT e.embedding INTO anchor_vector FROM @schema@_internal.embeddings AS e
     WHERE e.tenant = tenant AND e.model = use_model AND e.item_kind = 'fact'
       AND e.item_id = anchor.fact_id;
    RETURN QUERY
    SELECT f.scope_key, f.key, f.value, h.similarity, h.score,
           CASE WHEN anchor_vector IS NULL THEN 'lexical' ELSE 'semantic' END
      FROM @schema@_internal.ranked_hits(
               CASE WHEN anchor_vector IS NULL
                    THEN pg_catalog.left(@schema@_internal.item_content(tenant, 'fact', anchor.fact_id),
                                         @schema@_internal.query_max_length()) END,
               anchor_vector::public.vector, use_model, k, access.kind, access.with_shared,
               access.every_session, access.sessions, true, false, NULL, NULL, false, NULL,
               NULL, CASE WHEN anchor_vector IS NULL THEN 1 ELSE 0 END,
               CASE WHEN anchor_vector IS NULL THEN 0 ELSE 1 END, 'fact', anchor.fact_id) AS h
      JOIN @schema@_internal.facts AS f ON f.tenant = tenant AND f.fact_id = h.item_id
     ORDER BY h.score DESC, f.scope_key
     LIMIT k;
END
$fn$;

COMMENT ON FUNCTION @schema@.similar_facts(text, integer, text) IS
'The k (1..100, default 8) facts the caller may see most similar to the fact at scope_key, '
'the anchor excluded: by its embedding of model (default: the tenant''s latest registered '
'model) when it has one (mode semantic), else by its text (mode lexical). An unknown and an '
'inaccessible anchor both return no rows.';

-- A skill fact's value is {name, description, ...} or plain text. Inlined (no SET clause,
-- every name qualified).
CREATE OR REPLACE FUNCTION @schema@_internal.skill_description(value jsonb)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT coalesce(value OPERATOR(pg_catalog.->>) 'description', value OPERATOR(pg_catalog.#>>) '{}')
$fn$;

COMMENT ON FUNCTION @schema@_internal.skill_description(jsonb) IS
'What a skill fact says it is for (inlined): its value''s description, or the value as text.';

CREATE OR REPLACE FUNCTION @schema@.search_skills(
    query text, query_vector public.vector DEFAULT NULL, model text DEFAULT NULL,
    "limit" integer DEFAULT 8
) RETURNS TABLE (key text, name text, description text, score double precision)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The grants stop a login holding only the facts manager's role; this stops a login
    -- holding several whose context claims it.
    PERFORM @schema@_internal.require_kind(ARRAY['agent', 'crawler', 'tuner', 'operator'],
                                           'search_skills');
    RETURN QUERY
    SELECT s.key, coalesce(s.value ->> 'name', pg_catalog.regexp_replace(s.key, '^.*/', '')),
           @schema@_internal.skill_description(s.value), s.score
      FROM @schema@.search(query => query, query_vector => query_vector, model => model,
                           "limit" => "limit", scope => 'shared', item_kinds => '{fact}',
                           key_prefix => 'skills/', intent => 'current') AS s
     ORDER BY s.score DESC, s.key;
END
$fn$;

COMMENT ON FUNCTION @schema@.search_skills(text, public.vector, text, integer) IS
'Hybrid search over the shared curated skills (facts under skills/): {key, name, description, '
'score} hints, best first; load a skill''s full instructions with read_facts before use. '
'limit 1..100, default 8. Not for the facts manager (as in PilotSwarm).';
