-- Every tenant's projection at a glance, for `pgfacts worker --graph` (which tenants to
-- sync) and `pgfacts doctor` (state and lag): it crosses tenants, so its body is the
-- maintainer's (BYPASSRLS), like run_maintenance's.

SET LOCAL ROLE @schema@_maintainer;

CREATE OR REPLACE FUNCTION @schema@_internal.graph_projection_backlog_all()
RETURNS TABLE (
    tenant text, graph_name text, state text, pending bigint, oldest_change timestamptz,
    synced_at timestamptz, last_lag_seconds double precision
)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH logged AS (
        SELECT c.tenant, pg_catalog.count(*) AS pending, pg_catalog.min(c.changed_at) AS oldest
          FROM @schema@_internal.graph_projection_changes AS c
         GROUP BY c.tenant
    ),
    tenants AS (
        SELECT l.tenant FROM logged AS l
        UNION
        SELECT p.tenant FROM @schema@_internal.graph_projections AS p
    )
    SELECT t.tenant, @schema@_internal.graph_projection_name_of(t.tenant),
           @schema@_internal.graph_projection_state(
               @schema@_internal.graph_projection_name_of(t.tenant)),
           coalesce(l.pending, 0), l.oldest, p.synced_at, p.last_lag_seconds
      FROM tenants AS t
      LEFT JOIN logged AS l ON l.tenant = t.tenant
      LEFT JOIN @schema@_internal.graph_projections AS p ON p.tenant = t.tenant
     ORDER BY t.tenant
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_projection_backlog_all() IS
'The body of graph_projection_backlog(), owned by the maintainer role (BYPASSRLS) to cross '
'tenants.';

REVOKE ALL ON FUNCTION @schema@_internal.graph_projection_backlog_all() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @schema@_internal.graph_projection_backlog_all() TO @schema@_operator;

SET LOCAL ROLE @schema@_owner;

CREATE OR REPLACE FUNCTION @schema@.graph_projection_backlog()
RETURNS TABLE (
    tenant text, graph_name text, state text, pending bigint, oldest_change timestamptz,
    synced_at timestamptz, last_lag_seconds double precision
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('graph_projection_backlog');
    RETURN QUERY SELECT * FROM @schema@_internal.graph_projection_backlog_all();
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_projection_backlog() IS
'Operator: every tenant''s AGE projection: graph name, state (ok, missing, broken), logged '
'changes not applied yet and the oldest one''s time, the last sync and its lag in seconds. '
'Read by `pgfacts worker --graph` and `pgfacts doctor`.';
