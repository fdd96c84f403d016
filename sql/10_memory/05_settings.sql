-- Working memory's tenant settings (foundation's register_setting; set_setting sets them).

SELECT @schema@_internal.register_setting(
    '10_memory', 'value_max_bytes', 'integer', 1, 67108864, '1048576',
    'The most bytes a fact value''s JSON text may take (store_fact, store_facts).');

SELECT @schema@_internal.register_setting(
    '10_memory', 'tombstone_ttl_seconds', 'integer', 1, 315360000, '21600',
    'How long, in seconds, a tombstone no crawler reconciled is kept (purge_tombstones, '
    'tombstone_stats, run_maintenance).');
