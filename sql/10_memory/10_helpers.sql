-- Working-memory helpers: patterns, key rules, spawn trees, session registration.

CREATE OR REPLACE FUNCTION @schema@_internal.like_pattern(pattern text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
STRICT
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- A key pattern for LIKE ... ESCAPE '\': '*' and '%' match any run of characters, '\'
-- escapes the next character, every other character (including '_') is literal.
DECLARE
    out text := '';
    ch text;
    i int := 1;
    n int := pg_catalog.length(pattern);
BEGIN
    WHILE i <= n LOOP
        ch := pg_catalog.substr(pattern, i, 1);
        IF ch = E'\\' AND i < n THEN
            i := i + 1;
            ch := pg_catalog.substr(pattern, i, 1);
            out := out || E'\\' || ch;
        ELSIF ch = '*' OR ch = '%' THEN
            out := out || '%';
        ELSIF ch = '_' OR ch = E'\\' THEN
            out := out || E'\\' || ch;
        ELSE
            out := out || ch;
        END IF;
        i := i + 1;
    END LOOP;
    RETURN out;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.like_pattern(text) IS
'Translate a key pattern (* and % wildcards, \ escapes, all else literal) to LIKE syntax.';

CREATE OR REPLACE FUNCTION @schema@_internal.like_prefix(prefix text)
RETURNS text
LANGUAGE sql
IMMUTABLE
STRICT
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
        prefix, E'\\', E'\\\\'), '%', E'\\%'), '_', E'\\_') || '%'
$fn$;

COMMENT ON FUNCTION @schema@_internal.like_prefix(text) IS
'A literal key prefix as a LIKE pattern (no wildcards; escape character \).';

CREATE OR REPLACE FUNCTION @schema@_internal.check_key(key text, what text DEFAULT 'key')
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF key IS NULL OR key = '' THEN
        RAISE EXCEPTION '% must be a non-empty string', what USING ERRCODE = '22023';
    END IF;
    IF pg_catalog.length(key) > 512 THEN
        RAISE EXCEPTION '% is longer than 512 characters', what
            USING ERRCODE = '22023', DETAIL = pg_catalog.format('length %s', pg_catalog.length(key));
    END IF;
    IF pg_catalog.strpos(key, pg_catalog.chr(1)) > 0 OR key ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION '% contains a control character', what USING ERRCODE = '22023';
    END IF;
    RETURN key;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_key(text, text) IS
'Raise 22023 unless key is 1 to 512 characters without control characters.';

CREATE OR REPLACE FUNCTION @schema@_internal.key_access(key text, kind text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- 'none': the key is in a prefix this kind may not touch; 'read': it may read but not
    -- write or delete it; 'write': it may also write it; 'all': it may write and delete.
    SELECT CASE
        WHEN key LIKE 'tools/%' THEN 'none'
        WHEN key LIKE 'config/facts-manager/%' THEN
            CASE WHEN kind IN ('facts_manager', 'operator') THEN 'all'
                 WHEN kind = 'tuner' THEN 'read' ELSE 'none' END
        WHEN key LIKE 'intake/%' THEN
            CASE WHEN kind IN ('facts_manager', 'operator') THEN 'all'
                 WHEN kind = 'tuner' THEN 'read' ELSE 'write' END
        WHEN kind = 'tuner' THEN 'read'
        ELSE 'all'
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.key_access(text, text) IS
'What an agent kind may do with a key: none, read, write (not delete) or all. tools/ is '
'reserved to the tool layer; intake/ and config/facts-manager/ are readable only by the '
'facts manager, operator and tuner; agents may write intake/ but not delete it.';

CREATE OR REPLACE FUNCTION @schema@_internal.readable_by(key text, kind text)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT NOT (key LIKE 'tools/%'
        OR (kind NOT IN ('facts_manager', 'operator', 'tuner')
            AND (key LIKE 'intake/%' OR key LIKE 'config/facts-manager/%')))
$fn$;

COMMENT ON FUNCTION @schema@_internal.readable_by(text, text) IS
'Whether an agent kind may read a key (the read side of key_access, inlinable in queries).';

CREATE OR REPLACE FUNCTION @schema@_internal.spawn_tree(tenant text, session_id text)
RETURNS text []
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Up to the root with a cycle guard, then every descendant of the root, ended and
    -- deleted sessions included: a deleted interior session never hides its subtree.
    WITH RECURSIVE up AS (
        SELECT s.session_id, s.parent_session_id, 0 AS depth
          FROM @schema@_internal.sessions AS s
         WHERE s.tenant = spawn_tree.tenant AND s.session_id = spawn_tree.session_id
        UNION ALL
        SELECT p.session_id, p.parent_session_id, up.depth + 1
          FROM @schema@_internal.sessions AS p
          JOIN up ON p.tenant = spawn_tree.tenant AND p.session_id = up.parent_session_id
    ) CYCLE session_id SET up_cycle USING up_path,
    root AS (
        SELECT up.session_id FROM up WHERE NOT up.up_cycle ORDER BY up.depth DESC LIMIT 1
    ),
    down AS (
        SELECT root.session_id FROM root
        UNION ALL
        SELECT c.session_id
          FROM @schema@_internal.sessions AS c
          JOIN down ON c.tenant = spawn_tree.tenant AND c.parent_session_id = down.session_id
    ) CYCLE session_id SET down_cycle USING down_path
    SELECT coalesce(
        (SELECT pg_catalog.array_agg(DISTINCT down.session_id) FROM down WHERE NOT down.down_cycle),
        ARRAY[spawn_tree.session_id])
$fn$;

COMMENT ON FUNCTION @schema@_internal.spawn_tree(text, text) IS
'Every session in the spawn tree of session_id (its root and all the root''s descendants).';

CREATE OR REPLACE FUNCTION @schema@_internal.ensure_session(
    tenant text, session_id text, parent_session_id text, agent_id text
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    known_parent text;
    deleted timestamptz;
BEGIN
    SELECT s.parent_session_id, s.deleted_at INTO known_parent, deleted
      FROM @schema@_internal.sessions AS s
     WHERE s.tenant = ensure_session.tenant AND s.session_id = ensure_session.session_id;
    IF NOT FOUND THEN
        IF parent_session_id IS NOT NULL THEN
            -- An unknown parent is registered as a root, so the child can hang below it.
            INSERT INTO @schema@_internal.sessions AS s (tenant, session_id)
            VALUES (ensure_session.tenant, ensure_session.parent_session_id)
            ON CONFLICT ON CONSTRAINT sessions_pkey DO NOTHING;
        END IF;
        INSERT INTO @schema@_internal.sessions AS s (tenant, session_id, parent_session_id, agent_id)
        VALUES (ensure_session.tenant, ensure_session.session_id,
                ensure_session.parent_session_id, ensure_session.agent_id)
        ON CONFLICT ON CONSTRAINT sessions_pkey DO NOTHING;
        SELECT s.parent_session_id, s.deleted_at INTO known_parent, deleted
          FROM @schema@_internal.sessions AS s
         WHERE s.tenant = ensure_session.tenant AND s.session_id = ensure_session.session_id;
    END IF;
    IF parent_session_id IS NOT NULL AND known_parent IS DISTINCT FROM parent_session_id THEN
        RAISE EXCEPTION 'session % is registered with parent %, not %', session_id,
            coalesce(known_parent, '(none: a root)'), parent_session_id
            USING ERRCODE = '22023', HINT = 'a session''s parent is fixed when it is registered';
    END IF;
    IF deleted IS NOT NULL THEN
        RAISE EXCEPTION 'session % was deleted at %', session_id, deleted
            USING ERRCODE = '55000', HINT = 'start a new session id';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.ensure_session(text, text, text, text) IS
'Register a session on first use (a root unless a parent is given; an unknown parent is '
'registered as a root); refuse a different parent or a deleted session.';
