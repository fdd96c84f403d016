-- Row level security for the knowledge tables: every row belongs to the caller's tenant.

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.entities;
CREATE POLICY tenant_isolation ON @schema@_internal.entities
    USING (tenant = (SELECT @schema@_internal.context_tenant()));

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.predicates;
CREATE POLICY tenant_isolation ON @schema@_internal.predicates
    USING (tenant = (SELECT @schema@_internal.context_tenant()));

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.episodes;
CREATE POLICY tenant_isolation ON @schema@_internal.episodes
    USING (tenant = (SELECT @schema@_internal.context_tenant()));

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.claims;
CREATE POLICY tenant_isolation ON @schema@_internal.claims
    USING (tenant = (SELECT @schema@_internal.context_tenant()));

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.claim_sources;
CREATE POLICY tenant_isolation ON @schema@_internal.claim_sources
    USING (tenant = (SELECT @schema@_internal.context_tenant()));

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.retractions;
CREATE POLICY tenant_isolation ON @schema@_internal.retractions
    USING (tenant = (SELECT @schema@_internal.context_tenant()));

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.override_requests;
CREATE POLICY tenant_isolation ON @schema@_internal.override_requests
    USING (tenant = (SELECT @schema@_internal.context_tenant()));

DROP POLICY IF EXISTS tenant_isolation ON @schema@_internal.purge_audit;
CREATE POLICY tenant_isolation ON @schema@_internal.purge_audit
    USING (tenant = (SELECT @schema@_internal.context_tenant()));
