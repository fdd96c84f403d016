-- The agent kinds: the one list every check, grant and policy reads.

CREATE OR REPLACE FUNCTION @schema@_internal.agent_kinds()
RETURNS text []
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Each kind is a NOLOGIN role @schema@_<kind> (migration 0001).
    -- (reviewer: migration 0045, human review in sql/60_governance.)
    RETURN ARRAY['agent', 'facts_manager', 'crawler', 'tuner', 'operator', 'reviewer'];
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.agent_kinds() IS
'Every agent kind, in display order: agent, facts_manager, crawler, tuner, operator, '
'reviewer. Every kind reads.';

CREATE OR REPLACE FUNCTION @schema@_internal.writer_kinds()
RETURNS text []
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The tuner audits: it reads everything in its tenant and writes nothing. The reviewer
    -- writes only review decisions, through its own functions.
    RETURN ARRAY['agent', 'facts_manager', 'crawler', 'operator'];
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.writer_kinds() IS
'The agent kinds that may write memory: every kind but the tuner and the reviewer.';

CREATE OR REPLACE FUNCTION @schema@_internal.kind_roles(kinds text [])
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- For GRANT ... TO and CREATE POLICY ... TO, which take role names, not an array.
    RETURN (SELECT pg_catalog.string_agg(pg_catalog.quote_ident('@schema@_' || k), ', ')
              FROM pg_catalog.unnest(kinds) AS k);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.kind_roles(text []) IS
'The NOLOGIN roles of some agent kinds as a role list for GRANT or CREATE POLICY.';
