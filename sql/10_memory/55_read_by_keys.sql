-- read_facts_by_scope_keys: the facts named by exact scope keys (crawlers resolve graph
-- evidence this way), as far as the caller may read them.

CREATE OR REPLACE FUNCTION @schema@.read_facts_by_scope_keys(
    scope_keys text [],
    "limit" integer DEFAULT 1000
) RETURNS TABLE (
    scope_key text, key text, value jsonb, shared boolean, fact_session_id text,
    fact_agent_id text, fact_tags text [], created_at timestamptz, updated_at timestamptz,
    etag bigint
)
LANGUAGE plpgsql
VOLATILE  -- it records the uses of what it returns (record_fact_uses)
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    -- Who sees a fact: read_facts' rule in scope accessible (reader_visibility).
    access record := @schema@_internal.reader_visibility('accessible');
    found_id bigint;
    used bigint [] := '{}';
BEGIN
    IF scope_keys IS NULL OR pg_catalog.cardinality(scope_keys) > 1000 THEN
        RAISE EXCEPTION 'scope_keys must be an array of at most 1000 scope keys'
            USING ERRCODE = '22023', HINT = 'page larger sets; an empty array reads nothing';
    END IF;
    "limit" := @schema@_internal.check_limit("limit", 'limit', 0, 1000);
    -- Live facts only, in the order asked (first mention). A key the caller may not read
    -- is left out exactly like an unknown one: no error, no count. Each row is returned as
    -- it comes, and its fact counted as used once all are.
    FOR scope_key, key, value, shared, fact_session_id, fact_agent_id, fact_tags, created_at,
        updated_at, etag, found_id IN
    SELECT f.scope_key, f.key, f.value, f.shared, f.session_id, f.agent_id, f.tags,
           f.created_at, f.updated_at, f.etag, f.fact_id
      -- One probe of facts_scope_idx per key, by the key's two parts. They are split
      -- here, not in the join: a join condition calling functions that are not leakproof
      -- cannot be an index condition under row level security.
      FROM (SELECT k.wanted, pg_catalog.min(k.position) AS position,
                   @schema@_internal.scope_key_scope(k.wanted) AS wanted_scope,
                   @schema@_internal.scope_key_key(k.wanted) AS wanted_key
              FROM pg_catalog.unnest(scope_keys) WITH ORDINALITY AS k (wanted, position)
             WHERE k.wanted IS NOT NULL
             GROUP BY k.wanted) AS w
      JOIN @schema@_internal.facts AS f
        ON f.tenant = tenant AND f.scope_key = w.wanted
       AND @schema@_internal.fact_scope(f.shared, f.session_id) = w.wanted_scope
       AND f.key = w.wanted_key
     WHERE f.deleted_at IS NULL
       AND @schema@_internal.fact_visible(f.shared, f.session_id, f.key, f.expires_at,
               access.kind, access.with_shared, access.every_session, access.sessions)
     ORDER BY w.position
     LIMIT "limit"
    LOOP
        RETURN NEXT;
        used := used || found_id;
    END LOOP;
    PERFORM @schema@_internal.record_fact_uses(tenant, used);
END
$fn$;

COMMENT ON FUNCTION @schema@.read_facts_by_scope_keys(text [], integer) IS
'The live facts with these exact scope keys (shared:<key>, session:<id>:<key>; at most '
'1000) that the caller may read, in the order asked, at most limit (default 1000). Readable: '
'shared facts, session facts of the caller''s spawn tree (every session for the tuner, facts '
'manager, operator and crawler), never a reserved key the kind may not read. An unreadable '
'key is left out exactly like an unknown one, and so is an expired fact. Each fact returned '
'counts as used (usage_tracking).';
