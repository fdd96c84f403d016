-- Working memory's tenant settings (foundation's register_setting; set_setting sets them).

SELECT @schema@_internal.register_setting(
    '10_memory', 'value_max_bytes', 'integer', 1, 67108864, '1048576',
    'The most bytes a fact value''s JSON text may take (store_fact, store_facts).');

SELECT @schema@_internal.register_setting(
    '10_memory', 'tombstone_ttl_seconds', 'integer', 1, 315360000, '21600',
    'How long, in seconds, a tombstone no crawler reconciled is kept (purge_tombstones, '
    'tombstone_stats, run_maintenance).');

-- bulk_store_facts' caps on one call (PilotSwarm's: 50,000 records, 32 MiB). One call is one
-- transaction holding its rows' locks until it commits, so the caps bound that too.
SELECT @schema@_internal.register_setting(
    '10_memory', 'bulk_max_records', 'integer', 1, 100000, '50000',
    'The most records one bulk_store_facts call takes.');

SELECT @schema@_internal.register_setting(
    '10_memory', 'bulk_max_bytes', 'integer', 1, 134217728, '33554432',
    'The most bytes one bulk_store_facts call takes: a source''s bytes, or the JSON text of '
    'records given inline.');

SELECT @schema@_internal.register_setting(
    '10_memory', 'usage_tracking', 'integer', 0, 1, '1',
    'Whether the reads that surface a fact (read_facts_by_scope_keys, search, context_pack) '
    'record its use (1) or not (0): each fact''s last use and use count, which prune_facts '
    'ranks by.');
