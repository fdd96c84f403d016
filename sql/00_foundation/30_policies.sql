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
