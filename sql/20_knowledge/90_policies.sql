-- Row level security for the knowledge tables: every row belongs to the caller's tenant.

SELECT @schema@_internal.isolate_tenants(ARRAY[
    'entities', 'predicates', 'episodes', 'claims', 'claim_sources', 'retractions',
    'override_requests', 'purge_audit', 'knowledge_pending_writes'
]);
