-- Security hardening.
--
-- Tenant names follow one pattern (@schema@_internal.check_tenant): settings and tenant
-- bindings refuse any other name, even from raw SQL. Settings are per tenant: the '*' rows
-- that used to be every tenant's default (and that an all-tenants operator could write
-- through set_setting) no longer mean anything, so they are removed here.

-- As the migrating superuser: the rows to remove may belong to any tenant (row level
-- security would show the owner none of them without a caller context).
DO $cleanup$
DECLARE
    removed int;
BEGIN
    DELETE FROM @schema@_internal.settings AS s
     WHERE s.tenant !~ '^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$';
    GET DIAGNOSTICS removed = ROW_COUNT;
    IF removed > 0 THEN
        RAISE NOTICE 'removed % setting row(s) of no valid tenant (such as the old ''*'' defaults)',
            removed;
    END IF;
    DELETE FROM @schema@_internal.tenant_logins AS b
     WHERE b.tenant !~ '^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$';
    GET DIAGNOSTICS removed = ROW_COUNT;
    IF removed > 0 THEN
        RAISE NOTICE 'removed % tenant binding(s) of no valid tenant name', removed;
    END IF;
END
$cleanup$;

ALTER TABLE @schema@_internal.settings
ADD CONSTRAINT settings_tenant_shape CHECK (tenant ~ '^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$');
ALTER TABLE @schema@_internal.tenant_logins
ADD CONSTRAINT tenant_logins_tenant_shape CHECK (
    tenant ~ '^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$'
);
COMMENT ON TABLE @schema@_internal.settings IS 'Per-tenant settings (no cross-tenant defaults)';
