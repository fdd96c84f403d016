-- Reading the audit: the operator and the tuner (they audit), never a task agent.

CREATE OR REPLACE FUNCTION @schema@_internal.check_audit_filter(
    since timestamptz, until timestamptz, operation text, target text, "limit" integer
) RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF "limit" IS NULL OR "limit" NOT BETWEEN 1 AND 10000 THEN
        RAISE EXCEPTION 'limit must be 1 to 10000' USING ERRCODE = '22023';
    END IF;
    IF since > until THEN
        RAISE EXCEPTION 'since is later than until' USING ERRCODE = '22023',
              DETAIL = pg_catalog.format('since %s, until %s', since, until);
    END IF;
    IF operation IS NOT NULL AND NOT operation = ANY (@schema@_internal.audit_operations()) THEN
        RAISE EXCEPTION 'unknown audit operation %', @schema@_internal.shown(operation)
            USING ERRCODE = '22023',
                  HINT = 'one of: ' || pg_catalog.array_to_string(@schema@_internal.audit_operations(), ', ');
    END IF;
    IF target IS NOT NULL AND pg_catalog.length(target) NOT BETWEEN 1 AND 2000 THEN
        RAISE EXCEPTION 'target must be 1 to 2000 characters' USING ERRCODE = '22023';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_audit_filter(timestamptz, timestamptz, text, text, integer) IS
'Raise 22023 for a bad audit() filter: a limit outside 1 to 10000, since after until, an '
'unknown operation, an empty or over-long target.';

CREATE OR REPLACE FUNCTION @schema@.audit(
    since timestamptz DEFAULT NULL,
    until timestamptz DEFAULT NULL,
    operation text DEFAULT NULL,
    target text DEFAULT NULL,
    agent_id text DEFAULT NULL,
    session_id text DEFAULT NULL,
    "limit" integer DEFAULT 100
) RETURNS TABLE (
    audit_id bigint,
    at timestamptz,
    audit_operation text,
    audit_target text,
    db_role text,
    audit_session_id text,
    audit_agent_id text,
    audit_agent_kind text,
    before jsonb,
    after jsonb
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['tuner', 'operator'], 'audit');
    PERFORM @schema@_internal.check_audit_filter(since, until, operation, target, "limit");
    PERFORM @schema@_internal.check_agent_id(agent_id);
    session_id := @schema@_internal.normalize_session_id(session_id);
    PERFORM @schema@_internal.check_session_id(session_id, 'session_id');
    RETURN QUERY
    SELECT a.audit_id, a.at, a.operation, a.target, a.db_role, a.session_id, a.agent_id,
           a.agent_kind, a.before, a.after
      FROM @schema@_internal.audit_log AS a
     WHERE a.tenant = tenant
       AND (since IS NULL OR a.at >= since)
       AND (until IS NULL OR a.at < until)
       AND (operation IS NULL OR a.operation = operation)
       AND (target IS NULL OR a.target = target)
       AND (agent_id IS NULL OR a.agent_id = agent_id)
       AND (session_id IS NULL OR a.session_id = session_id)
     ORDER BY a.at DESC, a.audit_id DESC
     LIMIT "limit";
END
$fn$;

COMMENT ON FUNCTION @schema@.audit(timestamptz, timestamptz, text, text, text, text, integer) IS
'Tuner / operator: the tenant''s audit rows, newest first, filtered by time (since <= at < '
'until), operation, target, agent_id and session_id; each with who (db_role, session, '
'agent, agent kind), when (the instant the change carries), what and its before and after '
'(content as sha256 digests). 22023 for a bad filter.';
