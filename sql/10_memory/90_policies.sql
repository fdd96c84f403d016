-- Row level security: every row belongs to the tenant of the caller context. The owner is
-- subject to it too (FORCE), so SECURITY DEFINER functions cannot cross tenants.

SELECT @schema@_internal.isolate_tenants(ARRAY[
    'sessions', 'facts', 'fact_versions'
]);

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.settings;
CREATE POLICY tenant_isolation ON @schema@_internal.settings
    USING (tenant IN ((SELECT @schema@_internal.context_tenant()), '*'))
    WITH CHECK (tenant = (SELECT @schema@_internal.context_tenant()));

-- tools/ is reserved to the tool layer: raw SELECT (tuner, operator) never shows it.
DROP POLICY IF EXISTS hide_tool_keys ON @schema@_internal.facts;
CREATE POLICY hide_tool_keys ON @schema@_internal.facts AS RESTRICTIVE FOR SELECT
    TO @schema@_tuner, @schema@_operator
    USING (NOT pg_catalog.starts_with(key, 'tools/'));

DROP POLICY IF EXISTS hide_tool_keys ON @schema@_internal.fact_versions;
CREATE POLICY hide_tool_keys ON @schema@_internal.fact_versions AS RESTRICTIVE FOR SELECT
    TO @schema@_tuner, @schema@_operator
    USING (NOT pg_catalog.starts_with(key, 'tools/'));
