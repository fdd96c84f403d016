-- Row level security for the retrieval tables: every row belongs to the caller's tenant.

SELECT @schema@_internal.isolate_tenants(ARRAY[
    'embedding_models', 'embeddings', 'embedding_queue', 'replaced_fact_embeddings'
]);
