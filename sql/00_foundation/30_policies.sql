-- Row level security for the foundation tables.

-- A login sees its own tenant bindings; only bind_tenant_login / unbind_tenant_login (run
-- as the owner, by a DBA) write them, for the tenant they name.
DROP POLICY IF EXISTS tenant_logins_own ON @schema@_internal.tenant_logins;
CREATE POLICY tenant_logins_own ON @schema@_internal.tenant_logins FOR SELECT
    USING (login = session_user);

DROP POLICY IF EXISTS tenant_logins_manage ON @schema@_internal.tenant_logins;
CREATE POLICY tenant_logins_manage ON @schema@_internal.tenant_logins TO @schema@_owner
    USING (tenant = NULLIF(pg_catalog.current_setting('pgfacts.binding', true), ''))
    WITH CHECK (tenant = NULLIF(pg_catalog.current_setting('pgfacts.binding', true), ''));

CREATE OR REPLACE FUNCTION @schema@_internal.isolate_tenants(tables text [])
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    table_name text;
BEGIN
    -- Run by the definitions as the owner. Every row of these tables belongs to the tenant
    -- of the caller context, for every role (FORCE RLS covers the owner too):
    -- * agent-kind roles reading tables directly get the checked tenant (context_tenant()
    --   verifies the login may act for it, every statement);
    -- * the owner, i.e. the API's SECURITY DEFINER functions, each of which checks the
    --   tenant with context_tenant() when it starts, reads the setting directly: the same
    --   value, without checking it again for every table a statement touches.
    FOREACH table_name IN ARRAY tables LOOP
        EXECUTE pg_catalog.format('DROP POLICY IF EXISTS tenant_isolation ON %I.%I',
                                  '@schema@_internal', table_name);
        EXECUTE pg_catalog.format(
            'CREATE POLICY tenant_isolation ON %I.%I TO %s '
            'USING (tenant = (SELECT @schema@_internal.context_tenant()))',
            '@schema@_internal', table_name,
            @schema@_internal.kind_roles(@schema@_internal.agent_kinds()));
        EXECUTE pg_catalog.format('DROP POLICY IF EXISTS tenant_isolation_api ON %I.%I',
                                  '@schema@_internal', table_name);
        EXECUTE pg_catalog.format(
            'CREATE POLICY tenant_isolation_api ON %I.%I TO @schema@_owner '
            'USING (tenant = (SELECT pg_catalog.current_setting(''pgfacts.tenant'', true)))',
            '@schema@_internal', table_name);
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.isolate_tenants(text []) IS
'(Re)create the tenant isolation policies on each named internal table.';
