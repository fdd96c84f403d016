-- Session ids: one normal form for the caller context and every session_id argument.
--
-- PilotSwarm hands agents two spellings of one session: its id (`abc`) and its
-- orchestration instance id (`session-abc`). Working memory takes either and uses the id,
-- so a read by the orchestration form never silently finds nothing.

CREATE OR REPLACE FUNCTION @schema@_internal.normalize_session_id(session_id text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- 'session-' followed by something: the orchestration instance id of that something.
    IF pg_catalog.starts_with(session_id, 'session-') AND pg_catalog.length(session_id) > 8 THEN
        RETURN pg_catalog.substr(session_id, 9);
    END IF;
    RETURN session_id;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.normalize_session_id(text) IS
'A session id in its one normal form: an orchestration instance id session-<id> becomes '
'<id>; anything else (NULL included) is returned as it is.';

CREATE OR REPLACE FUNCTION @schema@_internal.caller_session()
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.normalize_session_id(@schema@_internal.context_session());
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.caller_session() IS
'The session of the caller context in normal form (normalize_session_id), or NULL.';

CREATE OR REPLACE FUNCTION @schema@_internal.caller_parent_session()
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.normalize_session_id(
        NULLIF(pg_catalog.current_setting('pgfacts.parent_session_id', true), ''));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.caller_parent_session() IS
'The parent session of the caller context in normal form (normalize_session_id), or NULL.';
