-- Embedding dimensions are allowed per install, by the DBA, not per tenant: every HNSW
-- index on embeddings (one per dimension, embeddings_hnsw_<dimension>) is opened and
-- locked by every tenant's statement on the table, so register_embedding_model no longer
-- builds one; a tenant registers models of the dimensions that have a valid index
-- (allow_embedding_dimension, sql/30_retrieval/40_vectors.sql, builds more). An install
-- starts with the common sizes: 384 (all-MiniLM-L6-v2, the offline embedder), 768, 1024
-- and 1536. Indexes that exist stay, so the dimensions tenants registered stay allowed.
-- On an install with many embeddings a missing index here is built under a SHARE lock
-- (writes of embeddings wait); on a new install the table is empty.
SET LOCAL ROLE @schema@_owner;
SET LOCAL max_parallel_maintenance_workers = 0;  -- pgvector 0.8.0's parallel HNSW build is unsafe

DO $dimensions$
DECLARE
    d integer;
BEGIN
    FOREACH d IN ARRAY ARRAY[384, 768, 1024, 1536] LOOP
        EXECUTE pg_catalog.format(
            'CREATE INDEX IF NOT EXISTS %I ON @schema@_internal.embeddings USING hnsw '
            '((embedding::public.halfvec(%s)) public.halfvec_cosine_ops) '
            'WITH (ef_construction = 128) WHERE dimension = %s',
            'embeddings_hnsw_' || d, d, d);
    END LOOP;
END
$dimensions$;

-- Facts whose value is JSON null were never queued for embedding: their text was NULL,
-- which the queue reads as deleted. They embed as "key: null" now, so the tenants that
-- embed queue them here, as the migrating superuser (row level security would show the
-- owner no tenant's rows).
RESET ROLE;
INSERT INTO @schema@_internal.embedding_queue (tenant, item_kind, item_id, content_hash)
SELECT
    f.tenant,
    'fact' AS item_kind,
    f.fact_id AS item_id,
    pg_catalog.md5(f.key || ': null') AS content_hash
FROM @schema@_internal.facts AS f
WHERE
    f.value = 'null'::jsonb
    AND f.deleted_at IS NULL
    AND EXISTS (
        SELECT 1 FROM @schema@_internal.embedding_models AS m
        WHERE m.tenant = f.tenant
    )
ON CONFLICT ON CONSTRAINT embedding_queue_pkey DO NOTHING;
