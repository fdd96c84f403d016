-- Working-memory helpers: patterns, key rules, spawn trees, session registration.

CREATE OR REPLACE FUNCTION @schema@_internal.parse_key_pattern(
    pattern text, OUT like_pattern text, OUT literal_head text
)
LANGUAGE plpgsql
IMMUTABLE
STRICT
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- A key pattern ('*' and '%' match any run of characters, '\' escapes the next character,
-- every other character including '_' is literal) as a LIKE pattern with escape '\', and
-- its literal head: the characters before the first wildcard, unescaped, which reads use
-- as an index-friendly starts_with condition.
DECLARE
    ch text;
    i int := 1;
    n int := pg_catalog.length(pattern);
    in_head boolean := true;
BEGIN
    like_pattern := '';
    literal_head := '';
    WHILE i <= n LOOP
        ch := pg_catalog.substr(pattern, i, 1);
        IF ch = E'\\' AND i < n THEN
            i := i + 1;
            ch := pg_catalog.substr(pattern, i, 1);
            like_pattern := like_pattern || E'\\' || ch;
        ELSIF ch = '*' OR ch = '%' THEN
            like_pattern := like_pattern || '%';
            in_head := false;
            ch := NULL;
        ELSIF ch = '_' OR ch = E'\\' THEN
            like_pattern := like_pattern || E'\\' || ch;
        ELSE
            like_pattern := like_pattern || ch;
        END IF;
        IF in_head AND ch IS NOT NULL THEN
            literal_head := literal_head || ch;
        END IF;
        i := i + 1;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.parse_key_pattern(text) IS
'Translate a key pattern (* and % wildcards, \ escapes, all else literal) to LIKE syntax, '
'with the literal head before its first wildcard.';

-- Inlinable (no SET clause, every name qualified; tests/lint_sql.py lists it): the write
-- path evaluates it per fact inside fact_problem.
CREATE OR REPLACE FUNCTION @schema@_internal.key_problem(key text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN key IS NULL OR key OPERATOR(pg_catalog.=) '' THEN 'empty'
        WHEN pg_catalog.length(key) OPERATOR(pg_catalog.>) 512
             OR pg_catalog.octet_length(key) OPERATOR(pg_catalog.>) 1024 THEN 'too_long'
        WHEN pg_catalog.strpos(key, pg_catalog.chr(1)) OPERATOR(pg_catalog.>) 0
             OR key OPERATOR(pg_catalog.~) '[[:cntrl:]]' THEN 'control_character'
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.key_problem(text) IS
'What is wrong with a key, as a problem code (empty, too_long, control_character), or NULL '
'when it is 1 to 512 characters (at most 1024 bytes) without control characters. check_key '
'raises it. (inlined)';

-- The one wording of each key_problem code (check_key raises it, bulk_store_facts reports it).
CREATE OR REPLACE FUNCTION @schema@_internal.key_problem_words(problem text, what text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT what OPERATOR(pg_catalog.||) CASE problem
        WHEN 'empty' THEN ' must be a non-empty string'
        WHEN 'too_long' THEN ' is longer than 512 characters or 1024 bytes'
        WHEN 'control_character' THEN ' contains a control character'
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.key_problem_words(text, text) IS
'What a key_problem code means for the argument named what, in words (inlined).';

CREATE OR REPLACE FUNCTION @schema@_internal.check_key(key text, what text DEFAULT 'key')
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    problem text := @schema@_internal.key_problem(key);
BEGIN
    IF problem IS NULL THEN
        RETURN key;
    ELSIF problem = 'too_long' THEN
        RAISE EXCEPTION '%', @schema@_internal.key_problem_words(problem, what)
            USING ERRCODE = '22023', DETAIL = pg_catalog.format(
                'length %s characters, %s bytes', pg_catalog.length(key), pg_catalog.octet_length(key));
    END IF;
    RAISE EXCEPTION '%', @schema@_internal.key_problem_words(problem, what) USING ERRCODE = '22023';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_key(text, text) IS
'Raise 22023 unless key is 1 to 512 characters (1024 bytes) without control characters '
'(key_problem).';

CREATE OR REPLACE FUNCTION @schema@_internal.reserved_prefix(key text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- The reserved key namespaces, each with its own rule in key_access.
    SELECT CASE
        WHEN pg_catalog.starts_with(key, 'tools/') THEN 'tools/'
        WHEN pg_catalog.starts_with(key, 'config/facts-manager/') THEN 'config/facts-manager/'
        WHEN pg_catalog.starts_with(key, 'intake/') THEN 'intake/'
        WHEN pg_catalog.starts_with(key, 'skills/') THEN 'skills/'
        WHEN pg_catalog.starts_with(key, 'asks/') THEN 'asks/'
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.reserved_prefix(text) IS
'The reserved namespace a key is in (tools/, config/facts-manager/, intake/, skills/, '
'asks/), or NULL for an ordinary key. (inlined)';

-- Inlined (no SET clause, every name qualified, so no operator is looked up by name): a
-- bulk write's checks ask it for every record (as PL/pgSQL, it and reserved_prefix cost
-- about 2 us a record). The namespaces are reserved_prefix's, itself inlined here.
CREATE OR REPLACE FUNCTION @schema@_internal.key_access(key text, kind text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- 'none': the key is in a prefix this kind may not touch; 'read': it may read but not
    -- write or delete it; 'write': it may write it but not read or delete it (agents and
    -- intake/); 'all': it may read, write and delete. docs/concepts.md has this as a table.
    SELECT CASE
        WHEN @schema@_internal.reserved_prefix(key) IS NULL THEN
            CASE WHEN kind OPERATOR(pg_catalog.=) 'tuner' THEN 'read' ELSE 'all' END
        WHEN @schema@_internal.reserved_prefix(key) OPERATOR(pg_catalog.=) 'tools/' THEN 'none'
        WHEN @schema@_internal.reserved_prefix(key) OPERATOR(pg_catalog.=) 'config/facts-manager/' THEN CASE
            WHEN kind OPERATOR(pg_catalog.=) 'facts_manager' THEN 'all'
            WHEN kind OPERATOR(pg_catalog.=) 'tuner' THEN 'read' ELSE 'none' END
        WHEN @schema@_internal.reserved_prefix(key) OPERATOR(pg_catalog.=) 'intake/' THEN CASE
            WHEN kind OPERATOR(pg_catalog.=) 'facts_manager' THEN 'all'
            WHEN kind OPERATOR(pg_catalog.=) 'tuner' THEN 'read' ELSE 'write' END
        -- skills/ and asks/: curated by the facts manager from intake/, read by everyone.
        ELSE CASE WHEN kind OPERATOR(pg_catalog.=) 'facts_manager' THEN 'all' ELSE 'read' END
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.key_access(text, text) IS
'What an agent kind may do with a key: none, read, write (not delete) or all. tools/ is '
'reserved to the tool layer; skills/ and asks/ are written and deleted only by the facts '
'manager and read by every kind; intake/ and config/facts-manager/ are readable only by the '
'facts manager and the tuner; other kinds may write intake/ but not delete it. (inlined)';

-- Inlined (no SET clause): every read of facts asks it.
CREATE OR REPLACE FUNCTION @schema@_internal.sees_every_session(kind text)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- The kinds that read every session's facts, not only their spawn tree's: those that
    -- read the whole tenant, and the crawler (broad corpus access: its queue hands it every
    -- session's facts). Every read path asks this one rule.
    SELECT kind OPERATOR(pg_catalog.=) ANY (ARRAY['tuner', 'facts_manager', 'operator', 'crawler'])
$fn$;

COMMENT ON FUNCTION @schema@_internal.sees_every_session(text) IS
'Whether a kind reads every session''s facts (tuner, facts manager, operator, crawler) rather '
'than its spawn tree''s; every read path of facts asks it. (inlined)';

-- Who sees which facts, the one rule every read path of facts applies (read_facts,
-- fact_history, read_facts_by_scope_keys, search, nearest, similar_facts, find_keys,
-- context_pack): fact_visibility decides, once per call, what a reader sees in a scope
-- (and is the one home of the scope checks); fact_visible applies it to a row.
CREATE OR REPLACE FUNCTION @schema@_internal.fact_visibility(
    tenant text, kind text, caller text, scope text,
    OUT with_shared boolean, OUT every_session boolean, OUT sessions text []
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The shared facts unless the scope is session; the session facts of the caller's
    -- session (session), of its spawn tree, or of every session for the kinds that see
    -- every session (accessible and descendants, which are the same).
    IF scope IS NULL OR scope NOT IN ('accessible', 'shared', 'session', 'descendants') THEN
        RAISE EXCEPTION 'unknown scope %', @schema@_internal.shown(scope)
            USING ERRCODE = '22023', HINT = 'one of: accessible, shared, session, descendants';
    END IF;
    IF scope = 'session' AND caller IS NULL THEN
        -- Refused rather than answered with shared facts or nothing: docs/concepts.md.
        RAISE EXCEPTION 'scope session needs a session in the caller context' USING ERRCODE = '22023',
            HINT = 'set_context(session_id => ...), or read scope shared for the shared facts';
    END IF;
    with_shared := scope <> 'session';
    every_session := false;
    sessions := '{}';
    IF scope = 'session' THEN
        -- Under memory_scope swarm also the execution's short-term memory (memory_session).
        sessions := pg_catalog.array_append(ARRAY[caller],
            NULLIF(@schema@_internal.memory_session(tenant, caller), caller));
    ELSIF scope IN ('accessible', 'descendants') THEN
        IF @schema@_internal.sees_every_session(kind) THEN
            every_session := true;
        ELSIF caller IS NOT NULL THEN
            sessions := @schema@_internal.spawn_tree(tenant, caller);
        END IF;
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_visibility(text, text, text, text) IS
'Which facts a reader of a kind and session sees in a scope (accessible | shared | session | '
'descendants): with_shared, every_session, or the sessions whose facts it sees; 22023 for an '
'unknown scope or scope session without a session. Every read path of facts uses it, with '
'fact_visible for each row.';

-- A memory scope per run (set_context(memory_scope => ...), docs/concepts.md): under swarm
-- the sessions of one execution share short-term memory. An execution is a spawn tree: its
-- root session and every session spawned below it. A session fact written under swarm is
-- the execution's, kept under the root session's scope key (session:<root>:<key>), so
-- every session of the tree reads and overwrites the one fact; scope session reads the
-- caller's own session facts and the execution's.
CREATE OR REPLACE FUNCTION @schema@_internal.memory_session(tenant text, session text)
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    root text;
BEGIN
    IF session IS NULL OR @schema@_internal.context_memory_scope() <> 'swarm' THEN
        RETURN session;
    END IF;
    SELECT s.root_session_id INTO root FROM @schema@_internal.sessions AS s
     WHERE s.tenant = memory_session.tenant AND s.session_id = memory_session.session;
    -- Not registered yet (a read before the session's first write): its parent's root.
    IF root IS NULL AND @schema@_internal.context_parent() IS NOT NULL
       AND session = @schema@_internal.context_session() THEN
        SELECT s.root_session_id INTO root FROM @schema@_internal.sessions AS s
         WHERE s.tenant = memory_session.tenant
           AND s.session_id = @schema@_internal.context_parent();
        root := coalesce(root, @schema@_internal.context_parent());
    END IF;
    RETURN coalesce(root, session);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.memory_session(text, text) IS
'The session whose scope a session fact of this session is written to: the session itself, '
'or under memory_scope swarm the root of its spawn tree (the execution''s short-term memory).';

CREATE OR REPLACE FUNCTION @schema@_internal.reader_visibility(
    scope text, OUT kind text, OUT with_shared boolean, OUT every_session boolean,
    OUT sessions text []
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tenant text := @schema@_internal.context_tenant();
BEGIN
    kind := @schema@_internal.context_kind();
    SELECT v.with_shared, v.every_session, v.sessions INTO with_shared, every_session, sessions
      FROM @schema@_internal.fact_visibility(tenant, kind, @schema@_internal.context_session(),
                                             scope) AS v;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.reader_visibility(text) IS
'fact_visibility for the caller context (its tenant, kind and session) in a scope, with the '
'kind: what every read path of facts passes to fact_visible.';

CREATE OR REPLACE FUNCTION @schema@_internal.refuse_writer(verb text)
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RAISE EXCEPTION 'agent kind % reads and % nothing', @schema@_internal.context_kind(), verb
        USING ERRCODE = '42501',
              HINT = 'writers: ' || pg_catalog.array_to_string(@schema@_internal.writer_kinds(), ', ');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.refuse_writer(text) IS
'require_writer''s slow path: raises 42501 (agent kind ... reads and <verb> nothing).';

-- Working memory's writer check, first in every function that writes or deletes facts.
-- Inlinable like require_kind: every write pays for it.
CREATE OR REPLACE FUNCTION @schema@_internal.require_writer(verb text)
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN @schema@_internal.context_kind() OPERATOR(pg_catalog.=) ANY (@schema@_internal.writer_kinds())
        THEN @schema@_internal.context_kind()
        ELSE @schema@_internal.refuse_writer(verb)
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.require_writer(text) IS
'Raise 42501 (agent kind ... reads and <verb> nothing) unless the caller''s kind writes '
'(writer_kinds); returns the kind (inlined).';

CREATE OR REPLACE FUNCTION @schema@_internal.raise_reserved_key(key text, kind text, action text)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    prefix text := @schema@_internal.reserved_prefix(key);
BEGIN
    IF prefix = 'tools/' THEN
        RAISE EXCEPTION 'the ''tools/'' key namespace is reserved to the tool layer'
            USING ERRCODE = '42501',
                  DETAIL = pg_catalog.format('agent kind %s may not %s key %s', kind, action,
                                             @schema@_internal.shown(key)),
                  HINT = 'no agent kind reads, writes or deletes tools/ keys';
    END IF;
    RAISE EXCEPTION 'the % key namespace is reserved for the facts manager',
        @schema@_internal.shown(coalesce(prefix, key))
        USING ERRCODE = '42501',
              DETAIL = pg_catalog.format('agent kind %s may not %s key %s', kind, action,
                                             @schema@_internal.shown(key)),
              HINT = 'write observations to intake/<topic>/<your-session-id>; the facts manager '
                     'curates skills/ and asks/ from there';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.raise_reserved_key(text, text, text) IS
'Raise 42501 for a write or delete (action) of a key in a reserved namespace the agent kind '
'may not change, naming the namespace and who may.';

-- No SET search_path here on purpose: a SQL function with a SET clause is never inlined,
-- and reads evaluate this per row. Every name in it is qualified (tests/lint_sql.py
-- lists it as the one exception).
CREATE OR REPLACE FUNCTION @schema@_internal.readable_by(key text, kind text)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT NOT (pg_catalog.starts_with(key, 'tools/')
        OR (kind OPERATOR(pg_catalog.<>) ALL (ARRAY['facts_manager', 'tuner'])
            AND (pg_catalog.starts_with(key, 'intake/')
                 OR pg_catalog.starts_with(key, 'config/facts-manager/'))))
$fn$;

COMMENT ON FUNCTION @schema@_internal.readable_by(text, text) IS
'Whether an agent kind may read a key (the read side of key_access, inlinable in queries). (inlined)';

-- Inlined (no SET clause, every name qualified): every read path evaluates it per row.
-- STABLE, not IMMUTABLE: an expiry is compared with the reading transaction's instant. The
-- row's expires_at is a parameter so that no read path can leave it out.
DROP FUNCTION IF EXISTS @schema@_internal.fact_visible(
    boolean, text, text, text, boolean, boolean, text []);
CREATE OR REPLACE FUNCTION @schema@_internal.fact_visible(
    shared boolean, session_id text, key text, expires_at timestamptz, kind text,
    with_shared boolean, every_session boolean, sessions text []
) RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE WHEN shared THEN with_shared
                ELSE every_session OR session_id OPERATOR(pg_catalog.=) ANY (sessions) END
       AND @schema@_internal.readable_by(key, kind)
       AND (expires_at IS NULL OR expires_at OPERATOR(pg_catalog.>) pg_catalog.now())
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_visible(
    boolean, text, text, timestamptz, text, boolean, boolean, text []) IS
'Whether a reader sees one fact (inlined), given its fact_visibility: shared ones when '
'with_shared, session facts of every session or of the given ones, keys the kind may read '
'(readable_by), and not expired (expires_at NULL or after now(); reads as of an instant '
'pass NULL, facts_as_of having applied the expiry at that instant). Every read path of '
'facts applies it.';

-- Inlinable like readable_by (no SET clause, every name qualified): the read filters every
-- branch of read_facts applies, written once (who sees a fact is fact_visible's).
DROP FUNCTION IF EXISTS @schema@_internal.fact_matches(
    text, text [], text, text, text, text, text [], text, text);
CREATE OR REPLACE FUNCTION @schema@_internal.fact_matches(
    key text, tags text [], session_id text, agent_id text,
    like_key text, want_tags text [], want_session text, want_agent text
) RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT (like_key IS NULL OR key OPERATOR(pg_catalog.~~) like_key)
       AND (want_tags IS NULL OR tags OPERATOR(pg_catalog.@>) want_tags)
       AND (want_session IS NULL OR session_id OPERATOR(pg_catalog.=) want_session)
       AND (want_agent IS NULL OR agent_id OPERATOR(pg_catalog.=) want_agent)
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_matches(
    text, text [], text, text, text, text [], text, text) IS
'Whether a fact passes read_facts'' filters: key LIKE pattern, all tags, stored by session / '
'agent (NULL filters match everything). (inlined)';

-- A fact's scope as the unique index facts_scope_idx holds it (migration 0021): the session
-- a session fact belongs to, '' for a shared fact. Inlinable (no SET clause, names
-- qualified), so a query that compares it reaches the index: its expression is this body.
CREATE OR REPLACE FUNCTION @schema@_internal.fact_scope(shared boolean, session_id text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE WHEN shared THEN ''::text ELSE session_id END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_scope(boolean, text) IS
'The scope a fact is unique in (inlined): its session for a session fact, '''' when shared.';

-- The one builder of scope keys (PilotSwarm's form): shared:<key>, or session:<id>:<key>
-- for a session fact (NULL without a session). scope_key_scope and scope_key_key split it.
CREATE OR REPLACE FUNCTION @schema@_internal.scope_key_of(shared boolean, session text, key text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE WHEN shared THEN 'shared:' OPERATOR(pg_catalog.||) key
                ELSE 'session:' OPERATOR(pg_catalog.||) session OPERATOR(pg_catalog.||) ':'
                     OPERATOR(pg_catalog.||) key END
$fn$;

COMMENT ON FUNCTION @schema@_internal.scope_key_of(boolean, text, text) IS
'The scope key of a fact: shared:<key>, or session:<id>:<key> (NULL without a session). '
'(inlined)';

-- The two parts of a scope key, so a lookup by scope key probes facts_scope_idx. Session
-- ids hold no ':' (check_session_id), so the split is unambiguous; anything that is not a
-- scope key gives NULL and matches no fact.
CREATE OR REPLACE FUNCTION @schema@_internal.scope_key_scope(scope_key text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE WHEN pg_catalog.starts_with(scope_key, 'shared:') THEN ''::text
                WHEN pg_catalog.starts_with(scope_key, 'session:')
                THEN NULLIF(pg_catalog.split_part(scope_key, ':', 2), '') END
$fn$;

COMMENT ON FUNCTION @schema@_internal.scope_key_scope(text) IS
'The scope part of a scope key as fact_scope gives it (inlined): '''' for shared:<key>, the '
'session for session:<id>:<key>, NULL for anything else.';

CREATE OR REPLACE FUNCTION @schema@_internal.scope_key_key(scope_key text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE WHEN pg_catalog.starts_with(scope_key, 'shared:')
                THEN pg_catalog.substr(scope_key, 8)
                WHEN pg_catalog.starts_with(scope_key, 'session:')
                THEN pg_catalog.substr(scope_key,
                         pg_catalog.length(pg_catalog.split_part(scope_key, ':', 2)) + 10) END
$fn$;

COMMENT ON FUNCTION @schema@_internal.scope_key_key(text) IS
'The key part of a scope key (inlined): what follows shared: or session:<id>:.';

CREATE OR REPLACE FUNCTION @schema@_internal.spawn_tree(tenant text, session_id text)
RETURNS text []
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- Every session under the same root, ended and deleted ones included, so a deleted
-- interior session never hides its subtree. Each session records its root at
-- registration (ensure_session), so this is two index lookups, not a walk.
DECLARE
    root text;
    members text [];
BEGIN
    SELECT s.root_session_id INTO root FROM @schema@_internal.sessions AS s
     WHERE s.tenant = spawn_tree.tenant AND s.session_id = spawn_tree.session_id;
    IF root IS NULL THEN
        RETURN ARRAY[session_id];
    END IF;
    SELECT pg_catalog.array_agg(t.session_id ORDER BY t.session_id) INTO members
      FROM @schema@_internal.sessions AS t
     WHERE t.tenant = spawn_tree.tenant AND t.root_session_id = root;
    RETURN members;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.spawn_tree(text, text) IS
'Every session in the spawn tree of session_id (its root and all the root''s descendants).';

CREATE OR REPLACE FUNCTION @schema@_internal.ensure_session(
    tenant text, session_id text, parent_session_id text, agent_id text, for_write boolean
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    known record;
    parent_root text;
    parent_deleted timestamptz;
    is_known boolean;
BEGIN
    -- A writer holds the session row (FOR SHARE) until it commits, so delete_session,
    -- which marks the session first, either waits for it or is seen by it.
    IF for_write THEN
        SELECT s.parent_session_id, s.root_session_id, s.deleted_at INTO known
          FROM @schema@_internal.sessions AS s
         WHERE s.tenant = ensure_session.tenant AND s.session_id = ensure_session.session_id
           FOR SHARE;
    ELSE
        SELECT s.parent_session_id, s.root_session_id, s.deleted_at INTO known
          FROM @schema@_internal.sessions AS s
         WHERE s.tenant = ensure_session.tenant AND s.session_id = ensure_session.session_id;
    END IF;
    is_known := FOUND;
    IF is_known AND (parent_session_id IS NULL OR known.parent_session_id = parent_session_id) THEN
        IF for_write AND known.deleted_at IS NOT NULL THEN
            RAISE EXCEPTION 'session % was deleted at %', @schema@_internal.shown(session_id), known.deleted_at
                USING ERRCODE = '55000', HINT = 'start a new session id';
        END IF;
        RETURN;
    END IF;
    IF is_known AND known.parent_session_id IS NOT NULL THEN
        RAISE EXCEPTION 'session % is registered with parent %, not %', @schema@_internal.shown(session_id),
            @schema@_internal.shown(known.parent_session_id), @schema@_internal.shown(parent_session_id)
            USING ERRCODE = '22023', HINT = 'a session''s parent is fixed once it is set';
    END IF;

    IF parent_session_id IS NOT NULL THEN
        -- An unknown parent is registered as a root, so the child can hang below it; it may
        -- name its own parent later.
        INSERT INTO @schema@_internal.sessions AS s (tenant, session_id, root_session_id)
        VALUES (ensure_session.tenant, ensure_session.parent_session_id,
                ensure_session.parent_session_id)
        ON CONFLICT ON CONSTRAINT sessions_pkey DO NOTHING;
        SELECT s.root_session_id, s.deleted_at INTO parent_root, parent_deleted
          FROM @schema@_internal.sessions AS s
         WHERE s.tenant = ensure_session.tenant AND s.session_id = ensure_session.parent_session_id
           FOR SHARE;
        IF for_write AND parent_deleted IS NOT NULL THEN
            RAISE EXCEPTION 'parent session % was deleted at %', @schema@_internal.shown(parent_session_id),
                parent_deleted
                USING ERRCODE = '55000', HINT = 'a deleted session takes no new children';
        END IF;
    END IF;

    IF NOT is_known THEN
        INSERT INTO @schema@_internal.sessions AS s (
            tenant, session_id, parent_session_id, root_session_id, agent_id)
        VALUES (ensure_session.tenant, ensure_session.session_id, ensure_session.parent_session_id,
                coalesce(parent_root, ensure_session.session_id), ensure_session.agent_id)
        ON CONFLICT ON CONSTRAINT sessions_pkey DO NOTHING;
        IF FOUND THEN
            RETURN;
        END IF;
        -- Another transaction registered it first: check it again against what we claim.
        PERFORM @schema@_internal.ensure_session(tenant, session_id, parent_session_id, agent_id,
                                                 for_write);
        RETURN;
    END IF;

    -- A root (possibly registered only as someone's parent) now names its parent: attach
    -- its whole tree below the parent's root. The cycle guard: the parent must not be in
    -- this session's own tree.
    IF parent_root = known.root_session_id THEN
        RAISE EXCEPTION 'session % cannot have % as its parent: % is in its spawn tree',
            @schema@_internal.shown(session_id), @schema@_internal.shown(parent_session_id), @schema@_internal.shown(parent_session_id)
            USING ERRCODE = '22023', HINT = 'spawn trees have no cycles';
    END IF;
    UPDATE @schema@_internal.sessions AS s
       SET root_session_id = parent_root,
           parent_session_id = CASE WHEN s.session_id = ensure_session.session_id
                                    THEN ensure_session.parent_session_id
                                    ELSE s.parent_session_id END
     WHERE s.tenant = ensure_session.tenant AND s.root_session_id = known.root_session_id;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.ensure_session(text, text, text, text, boolean) IS
'Register a session on first use (a root unless a parent is given; an unknown parent is '
'registered as a root). A root may later name a parent outside its own tree, which moves '
'its whole tree; a set parent never changes. Writers are refused for a deleted session or '
'under a deleted parent.';

-- A read's key pattern, parsed, when the kind may read what it names: an explicit read of a
-- prefix the kind may not read is an error, not an empty answer (read_facts,
-- read_facts_page). No pattern: every key (an empty head).
CREATE OR REPLACE FUNCTION @schema@_internal.readable_key_pattern(
    key_pattern text, kind text, OUT like_pattern text, OUT literal_head text
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    literal_head := '';
    IF key_pattern IS NULL OR key_pattern = '' THEN
        RETURN;
    END IF;
    SELECT p.like_pattern, p.literal_head INTO like_pattern, literal_head
      FROM @schema@_internal.parse_key_pattern(key_pattern) AS p;
    IF NOT @schema@_internal.readable_by(literal_head, kind) THEN
        RAISE EXCEPTION 'agent kind % may not read keys matching %', kind, @schema@_internal.shown(key_pattern)
            USING ERRCODE = '42501',
                  HINT = 'intake/ and config/facts-manager/ are for the facts manager and tuner; '
                         'tools/ for the tool layer';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.readable_key_pattern(text, text) IS
'A read''s key pattern as its LIKE pattern and literal head (parse_key_pattern); 42501 when '
'the kind may not read the keys it names (readable_by).';
