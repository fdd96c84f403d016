-- Foundation grants. Each layer grants its own functions in its own 99_grants.sql, through
-- register_api; none of the agent kinds may write a table directly.

DO $schemas$
BEGIN
    EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA @schema@ TO %s',
        @schema@_internal.kind_roles(@schema@_internal.agent_kinds()));
    EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA @schema@_internal TO %s, @schema@_maintainer',
        @schema@_internal.kind_roles(@schema@_internal.agent_kinds()));
    -- Every kind reads its own tenant bindings (set_context checks them).
    EXECUTE pg_catalog.format(
        'GRANT SELECT ON @schema@_internal.tenant_logins TO %s, @schema@_maintainer',
        @schema@_internal.kind_roles(@schema@_internal.agent_kinds()));
    -- call_tool and tool_definitions read the tool registry as the caller.
    EXECUTE pg_catalog.format('GRANT SELECT ON @schema@_internal.tools TO %s',
        @schema@_internal.kind_roles(@schema@_internal.agent_kinds()));
END
$schemas$;

SELECT @schema@_internal.register_api('@schema@.set_context(text,text,text,text,text,text)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.current_context()', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.schema_version()', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.set_setting(text,jsonb)', '{operator}');
-- DBA functions: no agent kind.
SELECT @schema@_internal.register_api('@schema@.bind_tenant_login(name,text)', '{}');
SELECT @schema@_internal.register_api('@schema@.unbind_tenant_login(name,text)', '{}');

-- Read-only table access for audits; row level security keeps it to the caller's tenant.
GRANT SELECT ON @schema@_internal.settings TO @schema@_tuner, @schema@_operator, @schema@_maintainer;
-- The registered settings (their bounds and defaults), read with them, and by setting() as
-- the maintainer in run_maintenance's purge.
GRANT SELECT ON @schema@_internal.setting_definitions
TO @schema@_tuner, @schema@_operator, @schema@_maintainer;

SELECT @schema@_internal.grant_internal_functions();
