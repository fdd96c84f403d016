-- Every tenant's extraction backlog, for `pgfacts worker` (which tenants have due events,
-- longest waiting first, so one busy tenant cannot starve the others) and `pgfacts doctor`.
-- It crosses tenants, so its body is the maintainer's (BYPASSRLS), like run_maintenance's.

SET LOCAL ROLE @schema@_maintainer;

CREATE OR REPLACE FUNCTION @schema@_internal.extraction_backlog_all()
RETURNS TABLE (
    tenant text, due bigint, ready bigint, leased bigint, failed bigint, oldest_due timestamptz
)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT e.tenant,
           pg_catalog.count(*) FILTER (WHERE e.state IN ('ready', 'leased')
                                         AND e.due_at <= pg_catalog.now()),
           pg_catalog.count(*) FILTER (WHERE e.state = 'ready'),
           pg_catalog.count(*) FILTER (WHERE e.state = 'leased'),
           pg_catalog.count(*) FILTER (WHERE e.state = 'failed'),
           pg_catalog.min(e.due_at) FILTER (WHERE e.state IN ('ready', 'leased'))
      FROM @schema@_internal.extraction_events AS e
     WHERE e.state <> 'done'
     GROUP BY e.tenant
     ORDER BY pg_catalog.min(e.due_at) FILTER (WHERE e.state IN ('ready', 'leased')) NULLS LAST,
              e.tenant
$fn$;

COMMENT ON FUNCTION @schema@_internal.extraction_backlog_all() IS
'The body of extraction_backlog(), owned by the maintainer role (BYPASSRLS) to cross tenants.';

REVOKE ALL ON FUNCTION @schema@_internal.extraction_backlog_all() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @schema@_internal.extraction_backlog_all() TO @schema@_operator;

SET LOCAL ROLE @schema@_owner;

CREATE OR REPLACE FUNCTION @schema@.extraction_backlog()
RETURNS TABLE (
    tenant text, due bigint, ready bigint, leased bigint, failed bigint, oldest_due timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Crosses tenants and reads no caller context (the worker, doctor), as run_maintenance.
    IF @schema@_internal.context_setting('pgfacts.agent_kind') IS NOT NULL THEN
        PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'extraction_backlog');
    END IF;
    RETURN QUERY SELECT * FROM @schema@_internal.extraction_backlog_all();
END
$fn$;

COMMENT ON FUNCTION @schema@.extraction_backlog() IS
'Operator: every tenant with unfinished extraction events: how many are due now, ready, '
'leased and parked as failed, and the earliest due time; longest waiting first (the order '
'`pgfacts worker` serves tenants in).';
