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

CREATE OR REPLACE FUNCTION @schema@_internal.extraction_health_all(for_tenant text)
RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- The lag: how long the longest-waiting due event has waited since it became due (a
    -- new event since it was recorded, a retried one since its backoff ended).
    SELECT pg_catalog.jsonb_build_object(
        'due', pg_catalog.count(*) FILTER (WHERE e.state IN ('ready', 'leased')
                                             AND e.due_at <= pg_catalog.now()),
        'ready', pg_catalog.count(*) FILTER (WHERE e.state = 'ready'),
        'leased', pg_catalog.count(*) FILTER (WHERE e.state = 'leased'),
        'failed', pg_catalog.count(*) FILTER (WHERE e.state = 'failed'),
        'lag_seconds', coalesce(pg_catalog.round(pg_catalog.date_part('epoch',
            pg_catalog.now() - pg_catalog.min(e.due_at)
                FILTER (WHERE e.state IN ('ready', 'leased') AND e.due_at <= pg_catalog.now())
            )::numeric, 3), 0))
      FROM @schema@_internal.extraction_events AS e
     WHERE e.state <> 'done' AND (for_tenant IS NULL OR e.tenant = for_tenant)
$fn$;

COMMENT ON FUNCTION @schema@_internal.extraction_health_all(text) IS
'The body of extraction_health(), owned by the maintainer role (BYPASSRLS) to cross tenants.';

REVOKE ALL ON FUNCTION @schema@_internal.extraction_health_all(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @schema@_internal.extraction_health_all(text) TO @schema@_operator;

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
    PERFORM @schema@_internal.require_cross_tenant_operator('extraction_backlog');
    RETURN QUERY SELECT * FROM @schema@_internal.extraction_backlog_all();
END
$fn$;

COMMENT ON FUNCTION @schema@.extraction_backlog() IS
'Operator: every tenant with unfinished extraction events: how many are due now, ready, '
'leased and parked as failed, and the earliest due time; longest waiting first (the order '
'`pgfacts worker` serves tenants in).';

CREATE OR REPLACE FUNCTION @schema@.extraction_health(tenant text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('extraction_health');
    IF tenant IS NOT NULL AND pg_catalog.btrim(tenant) = '' THEN
        RAISE EXCEPTION 'tenant must name a tenant, or be NULL for every tenant'
            USING ERRCODE = '22023', HINT = 'pass NULL (the default) for the whole install';
    END IF;
    RETURN @schema@_internal.extraction_health_all(tenant);
END
$fn$;

COMMENT ON FUNCTION @schema@.extraction_health(text) IS
'Operator: the extraction events of every tenant (or of tenant) in one object: {due, ready, '
'leased, failed, lag_seconds}, the lag being how long the longest-waiting due event has '
'waited since it became due (0 when none is due). What `pgfacts worker` prints in its '
'health line. 22023 for an empty tenant name.';
