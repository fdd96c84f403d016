-- read_intake: what an intake wake-up announces, fetched under the caller's tenant and kind.
--
-- The @schema@_intake channel carries no data (20_triggers.sql): NOTIFY reaches every
-- login of the database and anyone may send one. A listener treats a notification as "look
-- now" and calls this function, which reads the same state whether the bell was rung by a
-- commit, by a forger or not at all (a listener that starts, or reconnects, calls it once
-- without waiting). It is level-triggered: a shared intake/ fact stays here until the facts
-- manager marks it handled (facts_set_crawled with its etag), and comes back when its
-- content changes, so no wake-up is lost to commit order or to a dropped connection.

CREATE OR REPLACE FUNCTION @schema@.read_intake("limit" integer DEFAULT 100)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.require_kind(ARRAY['facts_manager', 'tuner'], 'read_intake');
    rows jsonb;
BEGIN
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 500);
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'key', q.key, 'scope_key', q.scope_key, 'session_id', q.session_id,
               'agent_id', q.agent_id, 'etag', q.etag, 'updated_at', q.updated_at)
               ORDER BY q.etag), '[]')
      INTO rows
      FROM (SELECT f.key, f.scope_key, f.session_id, f.agent_id, f.etag, f.updated_at
              FROM @schema@_internal.facts AS f
             WHERE f.tenant = tenant AND f.last_crawled_at IS NULL
               AND f.key ^@ 'intake/' AND f.shared AND f.deleted_at IS NULL
               AND @schema@_internal.readable_by(f.key, kind)
             ORDER BY f.etag
             LIMIT "limit") AS q;
    RETURN pg_catalog.jsonb_build_object('count', pg_catalog.jsonb_array_length(rows),
                                         'facts', rows);
END
$fn$;

COMMENT ON FUNCTION @schema@.read_intake(integer) IS
'Facts manager / tuner: what the @schema@_intake doorbell announces, in the caller''s tenant: '
'the live shared intake/ facts written or changed since the facts manager last marked them '
'(facts_set_crawled), oldest etag first, at most limit (1..500, default 100). Returns '
'{count, facts: [{key, scope_key, session_id, agent_id, etag, updated_at}]}.';
