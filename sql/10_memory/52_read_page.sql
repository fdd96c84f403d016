-- read_facts_page: the facts read_facts would find, in key order, a page at a time after a
-- cursor (the scope key of the last row of the previous page). A caller that needs every
-- fact under a prefix (an adapter listing a namespace, an export) pages with it instead of
-- trusting one read_facts window of at most 1000 rows, newest first, to hold them all.

CREATE OR REPLACE FUNCTION @schema@.read_facts_page(
    key_pattern text DEFAULT NULL,
    after text DEFAULT NULL,
    "limit" integer DEFAULT 1000,
    scope text DEFAULT 'accessible'
) RETURNS TABLE (
    scope_key text, key text, value jsonb, shared boolean, fact_session_id text,
    fact_agent_id text, fact_tags text [], created_at timestamptz, updated_at timestamptz,
    etag bigint
)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.context_kind();
    caller text := @schema@_internal.context_session();
    like_key text;
    head text := '';
    head_end text;
    -- The cursor: the row order is (key, scope) in byte order, the scope being '' for a
    -- shared fact and the session id for a session fact (fact_scope).
    after_key text;
    after_scope text;
    low text;
    with_shared boolean;
    every_session boolean;
    sessions text [];
BEGIN
    "limit" := @schema@_internal.check_limit("limit", 'limit', 0, 1000);
    PERFORM @schema@_internal.check_text(key_pattern, 'key_pattern', 1024);
    IF after IS NOT NULL THEN
        after_scope := @schema@_internal.scope_key_scope(after);
        after_key := @schema@_internal.scope_key_key(after);
        IF after_scope IS NULL OR after_key IS NULL
           OR @schema@_internal.key_problem(after_key) IS NOT NULL THEN
            RAISE EXCEPTION 'after must be a scope key (shared:<key> or session:<id>:<key>), not %',
                @schema@_internal.shown(after)
                USING ERRCODE = '22023',
                      HINT = 'pass the scope_key of the last row of the previous page; NULL '
                             'for the first page';
        END IF;
    END IF;
    SELECT r.like_pattern, r.literal_head INTO like_key, head
      FROM @schema@_internal.readable_key_pattern(key_pattern, kind) AS r;
    -- Keys starting with head are those in [head, head_end) (read_facts says why); a page
    -- after a cursor starts at the cursor's key when that is further on.
    head_end := head || pg_catalog.repeat(pg_catalog.chr(1114111), 513);
    low := CASE WHEN after_key ~>~ head THEN after_key ELSE head END;
    IF caller IS NOT NULL AND kind <> 'tuner' THEN
        -- As read_facts: first use registers the session with the context's parent.
        PERFORM @schema@_internal.ensure_session(tenant, caller,
            @schema@_internal.context_parent(), @schema@_internal.context_agent(), false);
    END IF;
    SELECT v.with_shared, v.every_session, v.sessions INTO with_shared, every_session, sessions
      FROM @schema@_internal.fact_visibility(tenant, kind, caller, scope) AS v;

    RETURN QUERY
    SELECT c.scope_key, c.key, c.value, c.shared, c.session_id, c.agent_id, c.tags,
           c.created_at, c.updated_at, c.etag
      FROM @schema@_internal.facts AS c
     WHERE c.tenant = tenant AND c.deleted_at IS NULL
       AND c.key ~>=~ low AND c.key ~<~ head_end
       AND (after_key IS NULL OR c.key ~>~ after_key
            OR (c.key = after_key
                AND @schema@_internal.fact_scope(c.shared, c.session_id) COLLATE "C"
                    > after_scope COLLATE "C"))
       AND @schema@_internal.fact_visible(c.shared, c.session_id, c.key, c.expires_at, kind,
               with_shared,
               every_session, sessions)
       AND @schema@_internal.fact_matches(c.key, c.tags, c.session_id, c.agent_id,
               like_key, NULL, NULL, NULL)
     ORDER BY c.key USING ~<~, @schema@_internal.fact_scope(c.shared, c.session_id) COLLATE "C"
     LIMIT "limit";
END
$fn$;

COMMENT ON FUNCTION @schema@.read_facts_page(text, text, integer, text) IS
'The facts read_facts finds for key_pattern and scope (the same visibility, wildcards and '
'refusals), ordered by key, then scope ('''' shared first, then session id), in byte order, '
'at most limit (0..1000, default 1000) rows after the cursor after: the scope_key of the '
'previous page''s last row (NULL: the first page; anything that is not a scope key is '
'22023). Pages until one is shorter than limit read every matching fact once, each page '
'one index range. No known_at: pages are of the current facts.';
