-- read_facts and fact_history.

-- The helpers below are inlined into read_facts' statements (LANGUAGE sql, STABLE, no SET
-- clause, every name qualified; their COMMENTs say "(inlined)"). read_facts passes
-- constants for by_key, and visible_facts passes constants for want_shared and in_sessions,
-- which fold away once inlined: each call plans as its own branch, with the conditions its
-- partial index needs. The branches say where to look; who sees a row is fact_visible's.
DROP FUNCTION IF EXISTS @schema@_internal.facts_branch(
    boolean, boolean, boolean, boolean, text, text [], text, text, text, text, text [],
    text, text, integer);
CREATE OR REPLACE FUNCTION @schema@_internal.facts_branch(
    enabled boolean, by_key boolean, want_shared boolean, in_sessions boolean,
    for_tenant text, with_shared boolean, every_session boolean, sessions text [], head text,
    head_end text, kind text, like_key text, want_tags text [], want_session text,
    want_agent text, lim integer
) RETURNS SETOF @schema@_internal.facts
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT c.* FROM @schema@_internal.facts AS c
     WHERE enabled
       AND c.tenant OPERATOR(pg_catalog.=) for_tenant
       AND c.shared OPERATOR(pg_catalog.=) want_shared
       -- The scope as facts_scope_idx holds it: the index the branch reads by key.
       AND (NOT want_shared
            OR @schema@_internal.fact_scope(c.shared, c.session_id) OPERATOR(pg_catalog.=) '')
       AND (NOT in_sessions
            OR @schema@_internal.fact_scope(c.shared, c.session_id)
               OPERATOR(pg_catalog.=) ANY (sessions))
       AND c.deleted_at IS NULL
       AND (NOT by_key OR (c.key OPERATOR(pg_catalog.~>=~) head
                           AND c.key OPERATOR(pg_catalog.~<~) head_end))
       AND @schema@_internal.fact_visible(c.shared, c.session_id, c.key, c.expires_at, kind,
               with_shared,
               every_session, sessions)
       AND @schema@_internal.fact_matches(c.key, c.tags, c.session_id, c.agent_id,
               like_key, want_tags, want_session, want_agent)
     ORDER BY c.updated_at DESC, c.key, c.scope_key
     LIMIT lim
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_branch(
    boolean, boolean, boolean, boolean, text, boolean, boolean, text [], text, text, text,
    text, text [], text, text, integer) IS
'One branch of a current read (inlined): the live facts of one scope (shared, or session '
'facts of the given sessions or of all), within the key range [head, head_end) when '
'by_key, visible to the reader (fact_visible) and passing fact_matches, newest first, cut '
'to lim; nothing unless enabled.';

CREATE OR REPLACE FUNCTION @schema@_internal.visible_facts(
    by_key boolean, for_tenant text, with_shared boolean, every_session boolean,
    sessions text [], head text, head_end text, kind text, like_key text, want_tags text [],
    want_session text, want_agent text, lim integer
) RETURNS SETOF @schema@_internal.facts
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT f.*
      FROM (SELECT s.* FROM @schema@_internal.facts_branch(with_shared, by_key, true, false,
                for_tenant, with_shared, every_session, sessions, head, head_end, kind,
                like_key, want_tags, want_session, want_agent, lim) AS s
            UNION ALL
            SELECT t.* FROM @schema@_internal.facts_branch(NOT every_session, by_key, false, true,
                for_tenant, with_shared, every_session, sessions, head, head_end, kind,
                like_key, want_tags, want_session, want_agent, lim) AS t
            UNION ALL
            SELECT e.* FROM @schema@_internal.facts_branch(every_session, by_key, false, false,
                for_tenant, with_shared, every_session, sessions, head, head_end, kind,
                like_key, want_tags, want_session, want_agent, lim) AS e) AS f
     ORDER BY f.updated_at DESC, f.key, f.scope_key
     LIMIT lim
$fn$;

COMMENT ON FUNCTION @schema@_internal.visible_facts(
    boolean, text, boolean, boolean, text [], text, text, text, text, text [], text, text,
    integer) IS
'The current facts a read may see (inlined into read_facts): shared ones when with_shared, '
'session facts of every session when every_session, else of the given sessions; each branch '
'cut to lim before the merge, newest first, then key. (inlined)';

-- What working memory believed at an instant, for every reader of a known instant
-- (read_facts, search, nearest): the version of each fact current then, live ones only.
-- Inlined (no SET clause, every name qualified): the caller's conditions (key range,
-- fact_visible, a text match) reach each branch. archived tells a version from the history
-- (version_id) from a row still current; search_doc is the current row's stored document
-- (a version's, which the history does not keep, is fact_search_doc of its fields).
CREATE OR REPLACE FUNCTION @schema@_internal.facts_as_of(for_tenant text, known_at timestamptz)
RETURNS TABLE (
    fact_id bigint, version_id bigint, archived boolean, scope_key text, key text,
    value jsonb, shared boolean, session_id text, agent_id text, tags text [],
    created_at timestamptz, updated_at timestamptz, etag bigint, system_time tstzrange,
    search_doc tsvector
)
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT c.fact_id, NULL::bigint, false, c.scope_key, c.key, c.value, c.shared,
           c.session_id, c.agent_id, c.tags, c.created_at, c.updated_at, c.etag,
           c.system_time, c.search_doc
      FROM @schema@_internal.facts AS c
     WHERE c.tenant OPERATOR(pg_catalog.=) for_tenant AND c.deleted_at IS NULL
       AND pg_catalog.lower(c.system_time) OPERATOR(pg_catalog.<=) known_at
       -- A fact that had expired by known_at was gone then (the history keeps no expiry:
       -- a version replaced before it expired reads as stored).
       AND (c.expires_at IS NULL OR c.expires_at OPERATOR(pg_catalog.>) known_at)
    UNION ALL
    SELECT v.fact_id, v.version_id, true, v.scope_key, v.key, v.value, v.shared,
           v.session_id, v.agent_id, v.tags, v.created_at, v.updated_at, v.etag,
           v.system_time, NULL::tsvector
      FROM @schema@_internal.fact_versions AS v
     WHERE v.tenant OPERATOR(pg_catalog.=) for_tenant AND v.deleted_at IS NULL
       AND v.system_time OPERATOR(pg_catalog.@>) known_at
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_as_of(text, timestamptz) IS
'The live version of each fact of a tenant that was current at known_at (inlined): the '
'current row when it was written by then, else the history''s version whose system time '
'holds known_at (archived, with its version_id); a current row that had expired by known_at '
'is not. The one meaning of known_at for facts: read_facts, search and nearest read it '
'(after await_fact_writes).';

CREATE OR REPLACE FUNCTION @schema@.read_facts(
    key_pattern text DEFAULT NULL,
    tags text [] DEFAULT NULL,
    session_id text DEFAULT NULL,
    agent_id text DEFAULT NULL,
    "limit" integer DEFAULT 50,
    scope text DEFAULT 'accessible',
    known_at timestamptz DEFAULT NULL
) RETURNS TABLE (
    scope_key text, key text, value jsonb, shared boolean, fact_session_id text,
    fact_agent_id text, fact_tags text [], created_at timestamptz, updated_at timestamptz,
    etag bigint
)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
-- The reads are written so that one cached generic plan serves every call (index ranges
-- from parameters, branches switched by one-time filters); planning per call cost more
-- than the read itself.
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.context_kind();
    caller text := @schema@_internal.context_session();
    like_key text;
    head text := '';
    -- Keys starting with head are exactly those in [head, head || 513 x U+10FFFF): keys
    -- hold at most 512 characters and ~<~ compares bytes. A range of parameters keeps the
    -- index usable in a cached generic plan, where starts_with (^@) would need a constant.
    head_end text;
    -- Which rows are visible (fact_visibility): shared ones, the session facts of these
    -- sessions, or every session fact.
    with_shared boolean;
    every_session boolean;
    sessions text [];
BEGIN
    "limit" := @schema@_internal.check_limit("limit", 'limit', 0, 1000);
    IF known_at > pg_catalog.clock_timestamp() THEN
        PERFORM @schema@_internal.raise_known_at_in_future(known_at);
    END IF;
    -- Caps bound the work of one call (docs/errors.md, "Limits").
    session_id := @schema@_internal.normalize_session_id(session_id);
    PERFORM @schema@_internal.check_text(key_pattern, 'key_pattern', 1024);
    PERFORM @schema@_internal.check_tags(tags);
    PERFORM @schema@_internal.check_session_id(session_id, 'session_id');
    PERFORM @schema@_internal.check_agent_id(agent_id);
    SELECT r.like_pattern, r.literal_head INTO like_key, head
      FROM @schema@_internal.readable_key_pattern(key_pattern, kind) AS r;
    head_end := head || pg_catalog.repeat(pg_catalog.chr(1114111), 513);
    IF caller IS NOT NULL AND kind <> 'tuner' THEN
        -- First use registers the session (with the context's parent), so a child that
        -- reads before it writes already sees its spawn tree. The tuner writes nothing.
        PERFORM @schema@_internal.ensure_session(tenant, caller,
            @schema@_internal.context_parent(), @schema@_internal.context_agent(), false);
    END IF;
    -- (After the registration above, so a first read sees the spawn tree; a refusal of
    -- the scope still writes nothing: the statement is undone with it.)
    SELECT v.with_shared, v.every_session, v.sessions INTO with_shared, every_session, sessions
      FROM @schema@_internal.fact_visibility(tenant, kind, caller, scope) AS v;

    -- Shared facts, the spawn tree's session facts, or every session fact: visible_facts
    -- (below) merges one index-backed branch of each, cut to the limit. Two statements,
    -- so each keeps its own cached plan: by key range when the pattern has a literal head,
    -- by recency otherwise (by_key must be a constant for the branches to fold).
    IF known_at IS NULL AND head <> '' THEN
        RETURN QUERY
        SELECT f.scope_key, f.key, f.value, f.shared, f.session_id, f.agent_id, f.tags,
               f.created_at, f.updated_at, f.etag
          FROM @schema@_internal.visible_facts(true, tenant, with_shared, every_session,
                   sessions, head, head_end, kind, like_key, tags, session_id, agent_id,
                   "limit") AS f;
        RETURN;
    ELSIF known_at IS NULL THEN
        RETURN QUERY
        SELECT f.scope_key, f.key, f.value, f.shared, f.session_id, f.agent_id, f.tags,
               f.created_at, f.updated_at, f.etag
          FROM @schema@_internal.visible_facts(false, tenant, with_shared, every_session,
                   sessions, head, head_end, kind, like_key, tags, session_id, agent_id,
                   "limit") AS f;
        RETURN;
    END IF;

    -- As of known_at: the version current then (facts_as_of). Every write stamped at or
    -- before known_at has ended once the writers in progress have.
    PERFORM @schema@_internal.await_fact_writes(tenant);
    RETURN QUERY
    SELECT f.scope_key, f.key, f.value, f.shared, f.session_id, f.agent_id, f.tags,
           f.created_at, f.updated_at, f.etag
      FROM @schema@_internal.facts_as_of(tenant, known_at) AS f
     WHERE f.key ~>=~ head AND f.key ~<~ head_end
       AND @schema@_internal.fact_visible(f.shared, f.session_id, f.key, NULL, kind, with_shared,
               every_session, sessions)
       AND @schema@_internal.fact_matches(f.key, f.tags, f.session_id, f.agent_id,
               like_key, tags, session_id, agent_id)
     ORDER BY f.updated_at DESC, f.key, f.scope_key
     LIMIT "limit";
END
$fn$;

COMMENT ON FUNCTION @schema@.read_facts(text, text [], text, text, integer, text, timestamptz) IS
'Facts visible to the caller, most recently updated first, then key. key_pattern: * and % '
'are wildcards, \ escapes, all else literal. tags: all must be present. session_id / '
'agent_id: provenance filters (a session outside the caller''s spawn tree shows none of its '
'private facts). limit 0..1000 (default 50). scope: accessible (own spawn tree + shared; the '
'tuner, facts manager, operator and crawler see every session) | shared | session | descendants '
'(= accessible). known_at: what was visible at that instant (system time).';

CREATE OR REPLACE FUNCTION @schema@.fact_history(
    key text,
    shared boolean DEFAULT false,
    session_id text DEFAULT NULL
) RETURNS TABLE (
    scope_key text, value jsonb, fact_tags text [], fact_agent_id text, etag bigint,
    deleted boolean, known_from timestamptz, known_to timestamptz, current boolean
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.context_kind();
    target_session text := coalesce(@schema@_internal.normalize_session_id(session_id),
                                    @schema@_internal.context_session());
    -- Who sees the fact: read_facts' rule in scope accessible (reader_visibility).
    access record := @schema@_internal.reader_visibility('accessible');
    wanted text;
BEGIN
    IF @schema@_internal.key_problem(key) IS NOT NULL THEN
        PERFORM @schema@_internal.check_key(key);  -- says what is wrong
    END IF;
    PERFORM @schema@_internal.check_session_id(session_id, 'session_id');
    IF NOT @schema@_internal.readable_by(key, kind) THEN
        RAISE EXCEPTION 'agent kind % may not read key %', kind, @schema@_internal.shown(key) USING ERRCODE = '42501';
    END IF;
    IF NOT coalesce(shared, false) AND target_session IS NULL THEN
        RAISE EXCEPTION 'the history of a session fact needs a session' USING ERRCODE = '22023';
    END IF;
    wanted := @schema@_internal.scope_key_of(coalesce(shared, false), target_session, key);
    -- A fact the caller does not see has no versions for it: nothing, not an existence oracle.
    RETURN QUERY
    SELECT h.scope_key, h.value, h.tags, h.agent_id, h.etag, h.deleted_at IS NOT NULL,
           pg_catalog.lower(h.system_time), pg_catalog.upper(h.system_time),
           pg_catalog.upper_inf(h.system_time)
      FROM (SELECT v.scope_key, v.value, v.tags, v.agent_id, v.etag, v.deleted_at, v.system_time,
                   v.shared, v.session_id, v.key
              FROM @schema@_internal.fact_versions AS v
             WHERE v.tenant = tenant AND v.scope_key = wanted
            UNION ALL
            SELECT c.scope_key, c.value, c.tags, c.agent_id, c.etag, c.deleted_at, c.system_time,
                   c.shared, c.session_id, c.key
              FROM @schema@_internal.facts AS c
             WHERE c.tenant = tenant AND c.scope_key = wanted
               AND @schema@_internal.fact_scope(c.shared, c.session_id)
                   = @schema@_internal.scope_key_scope(wanted)
               AND c.key = @schema@_internal.scope_key_key(wanted)) AS h
     WHERE @schema@_internal.fact_visible(h.shared, h.session_id, h.key, NULL, access.kind,
               access.with_shared, access.every_session, access.sessions)
     ORDER BY pg_catalog.lower(h.system_time);
END
$fn$;

COMMENT ON FUNCTION @schema@.fact_history(text, boolean, text) IS
'Every version of one fact (shared, or of session_id / the caller''s session), oldest '
'first, each with the system-time range in which it was current (known_from, known_to; the '
'current version has current = true) and whether it was a tombstone.';
