-- Row level security for the pipeline's tables: every row belongs to the caller's tenant.

SELECT @schema@_internal.isolate_tenants(ARRAY['memories', 'extraction_events']);
