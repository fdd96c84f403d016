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
    -- Run by the definitions as the owner: every row of these tables belongs to the tenant
    -- of the caller context (FORCE RLS makes it hold for the owner's functions too).
    FOREACH table_name IN ARRAY tables LOOP
        EXECUTE pg_catalog.format('DROP POLICY IF EXISTS tenant_isolation ON %I.%I',
                                  '@schema@_internal', table_name);
        EXECUTE pg_catalog.format(
            'CREATE POLICY tenant_isolation ON %I.%I '
            'USING (tenant = (SELECT @schema@_internal.context_tenant()))',
            '@schema@_internal', table_name);
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.isolate_tenants(text []) IS
'(Re)create the tenant_isolation policy on each named internal table.';
