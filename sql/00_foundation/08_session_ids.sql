-- Session ids: one normal form for the caller context and every session_id argument.
--
-- PilotSwarm hands agents two spellings of one session: its id (`abc`) and its
-- orchestration instance id (`session-abc`). pgfacts takes either and uses the id, so a
-- read by the orchestration form never silently finds nothing. set_context stores the
-- normal form; functions taking a session_id argument normalise it first.

-- 'session-' followed by something: the orchestration instance id of that something.
-- Inlinable (tests/lint_sql.py lists it): every call naming a session evaluates it.
CREATE OR REPLACE FUNCTION @schema@_internal.normalize_session_id(session_id text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN pg_catalog.starts_with(session_id, 'session-')
             AND pg_catalog.length(session_id) OPERATOR(pg_catalog.>) 8
        THEN pg_catalog.substr(session_id, 9)
        ELSE session_id
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.normalize_session_id(text) IS
'A session id in its one normal form: an orchestration instance id session-<id> becomes '
'<id>; anything else (NULL included) is returned as it is. (inlined)';
