-- Row level security: every row belongs to the tenant of the caller context. The owner is
-- subject to it too (FORCE), so SECURITY DEFINER functions cannot cross tenants.

SELECT @schema@_internal.isolate_tenants(ARRAY[
    'sessions', 'facts', 'fact_versions', 'fact_purges', 'fact_uses', 'fact_usage'
]);

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.settings;
CREATE POLICY tenant_isolation ON @schema@_internal.settings
    USING (tenant = (SELECT @schema@_internal.context_tenant()))
    WITH CHECK (tenant = (SELECT @schema@_internal.context_tenant()));

-- Raw SELECT (tuner, operator) shows each kind exactly the keys read_facts shows it: the
-- same rule, readable_by, for the kind of the caller context (tools/ for nobody; intake/
-- and config/facts-manager/ for the tuner, not the operator). A login holding several
-- kinds sees what the kind it acts as may read.
DROP POLICY IF EXISTS hide_tool_keys ON @schema@_internal.facts;
DROP POLICY IF EXISTS readable_keys ON @schema@_internal.facts;
CREATE POLICY readable_keys ON @schema@_internal.facts AS RESTRICTIVE FOR SELECT
    TO @schema@_tuner, @schema@_operator
    USING (@schema@_internal.readable_by(key, (SELECT @schema@_internal.context_kind())));

DROP POLICY IF EXISTS hide_tool_keys ON @schema@_internal.fact_versions;
DROP POLICY IF EXISTS readable_keys ON @schema@_internal.fact_versions;
CREATE POLICY readable_keys ON @schema@_internal.fact_versions AS RESTRICTIVE FOR SELECT
    TO @schema@_tuner, @schema@_operator
    USING (@schema@_internal.readable_by(key, (SELECT @schema@_internal.context_kind())));
