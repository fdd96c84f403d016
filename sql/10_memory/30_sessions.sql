-- Sessions and spawn trees.

CREATE OR REPLACE FUNCTION @schema@.register_session(
    session_id text,
    parent_session_id text DEFAULT NULL,
    agent_id text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ctx_tenant text := @schema@_internal.context_tenant();
BEGIN
    PERFORM @schema@_internal.require_kind(
        @schema@_internal.writer_kinds(), 'register_session');
    session_id := @schema@_internal.normalize_session_id(session_id);
    parent_session_id := @schema@_internal.normalize_session_id(parent_session_id);
    IF session_id IS NULL THEN
        RAISE EXCEPTION 'session_id is required' USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.check_session_id(session_id, 'session_id');
    PERFORM @schema@_internal.check_session_id(parent_session_id, 'parent_session_id');
    PERFORM @schema@_internal.check_agent_id(agent_id);
    IF parent_session_id = session_id THEN
        RAISE EXCEPTION 'a session cannot be its own parent' USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.ensure_session(ctx_tenant, session_id, parent_session_id, agent_id, true);
    RETURN (SELECT pg_catalog.jsonb_build_object(
                'session_id', s.session_id, 'parent_session_id', s.parent_session_id,
                'agent_id', s.agent_id, 'created_at', s.created_at)
              FROM @schema@_internal.sessions AS s
             WHERE s.tenant = ctx_tenant AND s.session_id = register_session.session_id);
END
$fn$;

COMMENT ON FUNCTION @schema@.register_session(text, text, text) IS
'Register a session (a root unless parent_session_id is given; an unknown parent becomes a '
'root). Idempotent; a different parent for a known session is refused (22023). Sessions '
'are also registered implicitly on their first write. Returns {session_id, '
'parent_session_id, agent_id, created_at}.';

CREATE OR REPLACE FUNCTION @schema@.end_session(session_id text)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ctx_tenant text := @schema@_internal.context_tenant();
    ended timestamptz;
BEGIN
    PERFORM @schema@_internal.require_kind(
        @schema@_internal.writer_kinds(), 'end_session');
    session_id := @schema@_internal.normalize_session_id(session_id);
    PERFORM @schema@_internal.check_session_id(session_id, 'session_id');
    UPDATE @schema@_internal.sessions AS s
       SET ended_at = coalesce(s.ended_at, pg_catalog.clock_timestamp())
     WHERE s.tenant = ctx_tenant AND s.session_id = end_session.session_id
    RETURNING s.ended_at INTO ended;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'session % is not registered', @schema@_internal.shown(session_id) USING ERRCODE = 'P0002';
    END IF;
    RETURN pg_catalog.jsonb_build_object('session_id', session_id, 'ended_at', ended);
END
$fn$;

COMMENT ON FUNCTION @schema@.end_session(text) IS
'Mark a session ended (its facts stay; its descendants stay in the spawn tree); returns '
'{session_id, ended_at}. P0002 when the session is not registered.';

CREATE OR REPLACE FUNCTION @schema@_internal.tree_session(session_id text)
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    target text := coalesce(@schema@_internal.normalize_session_id(session_id),
                            @schema@_internal.context_session());
BEGIN
    PERFORM @schema@_internal.context_kind();
    PERFORM @schema@_internal.check_session_id(session_id, 'session_id');
    IF target IS NULL THEN
        RAISE EXCEPTION 'no session given and none in the caller context' USING ERRCODE = '22023';
    END IF;
    RETURN target;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.tree_session(text) IS
'The session whose spawn tree spawn_tree and session_tree read: session_id (checked), or the '
'caller''s session; 22023 for neither.';

CREATE OR REPLACE FUNCTION @schema@.spawn_tree(session_id text DEFAULT NULL)
RETURNS SETOF text
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ctx_tenant text := @schema@_internal.context_tenant();
    target text := @schema@_internal.tree_session(session_id);
BEGIN
    RETURN QUERY SELECT pg_catalog.unnest(@schema@_internal.spawn_tree(ctx_tenant, target)) ORDER BY 1;
END
$fn$;

COMMENT ON FUNCTION @schema@.spawn_tree(text) IS
'The sessions of a spawn tree (root and every descendant of the root, ended and deleted '
'ones included), for session_id or the caller''s session.';

CREATE OR REPLACE FUNCTION @schema@.session_tree(session_id text DEFAULT NULL)
RETURNS TABLE (
    tree_session_id text, parent_session_id text, depth integer, agent_id text,
    created_at timestamptz, ended_at timestamptz, deleted_at timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
DECLARE
    ctx_tenant text := @schema@_internal.context_tenant();
    target text := @schema@_internal.tree_session(session_id);
BEGIN
    -- The sessions spawn_tree lists, with their parent links, walked from the root so a
    -- child follows its parent (depth 0 is the root); siblings by id. An unregistered
    -- session is a tree of itself with nothing known about it.
    RETURN QUERY
    WITH RECURSIVE members AS (
        SELECT s.* FROM @schema@_internal.sessions AS s
         WHERE s.tenant = ctx_tenant
           AND s.session_id = ANY (@schema@_internal.spawn_tree(ctx_tenant, target))
    ), walk AS (
        SELECT m.session_id, m.parent_session_id, 0 AS depth, ARRAY[m.session_id] AS path
          FROM members AS m WHERE m.parent_session_id IS NULL
        UNION ALL
        SELECT m.session_id, m.parent_session_id, w.depth + 1, w.path || m.session_id
          FROM members AS m JOIN walk AS w ON m.parent_session_id = w.session_id
    )
    SELECT t.session_id, t.parent_session_id, t.depth, t.agent_id, t.created_at, t.ended_at,
           t.deleted_at
      FROM (SELECT w.session_id, w.parent_session_id, w.depth, m.agent_id, m.created_at,
                   m.ended_at, m.deleted_at, w.path
              FROM walk AS w JOIN members AS m ON m.session_id = w.session_id
            UNION ALL
            SELECT target, NULL, 0, NULL, NULL, NULL, NULL, ARRAY[target]
             WHERE NOT EXISTS (SELECT 1 FROM members)) AS t
     ORDER BY t.path;
END
$fn$;

COMMENT ON FUNCTION @schema@.session_tree(text) IS
'The spawn tree of session_id (default: the caller''s session) as rows: each session of '
'spawn_tree with its parent, depth below the root (0), agent and created, ended and deleted '
'times, in tree order (the root first, each session before its children, siblings by id). '
'An unregistered session is one row with nothing but its id. 22023 no session.';

CREATE OR REPLACE FUNCTION @schema@.delete_session(session_id text)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ctx_tenant text := @schema@_internal.context_tenant();
    doomed text [];
    tombstoned int;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['facts_manager', 'operator'], 'delete_session');
    session_id := @schema@_internal.normalize_session_id(session_id);
    IF session_id IS NULL OR session_id = '' THEN
        RAISE EXCEPTION 'session_id must be a non-empty string' USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.check_session_id(session_id, 'session_id');
    -- The session and all its descendants, found even under ended or deleted sessions.
    WITH RECURSIVE down AS (
        SELECT s.session_id FROM @schema@_internal.sessions AS s
         WHERE s.tenant = ctx_tenant AND s.session_id = delete_session.session_id
        UNION ALL
        SELECT c.session_id FROM @schema@_internal.sessions AS c
          JOIN down ON c.tenant = ctx_tenant AND c.parent_session_id = down.session_id
    ) CYCLE session_id SET is_cycle USING path
    SELECT pg_catalog.array_agg(DISTINCT down.session_id) INTO doomed FROM down WHERE NOT down.is_cycle;
    IF doomed IS NULL THEN
        -- Unregistered but possibly holding facts written before registration existed.
        doomed := ARRAY[session_id];
    END IF;
    -- Sessions first: a concurrent writer holds its session row FOR SHARE, so this waits
    -- for it (and its facts are tombstoned below) or the writer sees the deletion.
    PERFORM 1 FROM @schema@_internal.sessions AS s
     WHERE s.tenant = ctx_tenant AND s.session_id = ANY (doomed)
     ORDER BY s.session_id
       FOR UPDATE;
    UPDATE @schema@_internal.sessions AS s
       SET deleted_at = coalesce(s.deleted_at, pg_catalog.clock_timestamp()),
           ended_at = coalesce(s.ended_at, pg_catalog.clock_timestamp())
     WHERE s.tenant = ctx_tenant AND s.session_id = ANY (doomed);
    -- Facts in scope-key order, the order every writer locks them in: no deadlocks.
    PERFORM 1 FROM @schema@_internal.facts AS f
     WHERE f.tenant = ctx_tenant
       AND @schema@_internal.fact_scope(f.shared, f.session_id) = ANY (doomed)
       AND f.deleted_at IS NULL
     ORDER BY f.scope_key
       FOR UPDATE;
    UPDATE @schema@_internal.facts AS f
       SET deleted_at = pg_catalog.clock_timestamp()
     WHERE f.tenant = ctx_tenant
       AND @schema@_internal.fact_scope(f.shared, f.session_id) = ANY (doomed)
       AND f.deleted_at IS NULL;
    GET DIAGNOSTICS tombstoned = ROW_COUNT;
    RETURN pg_catalog.jsonb_build_object(
        'sessionId', session_id,
        'sessions', (SELECT pg_catalog.jsonb_agg(d ORDER BY d) FROM pg_catalog.unnest(doomed) AS d),
        'deleted', tombstoned);
END
$fn$;

COMMENT ON FUNCTION @schema@.delete_session(text) IS
'Facts manager / operator (and the sweeper): tombstone the session-scoped facts of a session '
'and all its descendants and mark those sessions deleted. Shared facts are never touched. '
'Returns {sessionId, sessions, deleted}.';
