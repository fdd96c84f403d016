-- Facts whose value is JSON null were never queued for embedding: their text was NULL,
-- which the queue reads as deleted. They embed as "key: null" now, so the tenants that
-- embed queue them here, as the migrating superuser (row level security would show the
-- owner no tenant's rows).
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
