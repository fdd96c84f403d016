-- The pipeline's tenant settings (foundation's register_setting; set_setting sets them).

SELECT @schema@_internal.register_setting(
    '50_pipeline', 'extraction_lease_seconds', 'integer', 10, 86400, '300',
    'How long a worker holds a claimed extraction event before another may claim it.');
SELECT @schema@_internal.register_setting(
    '50_pipeline', 'extraction_max_attempts', 'integer', 1, 100, '5',
    'Attempts at an extraction event before it is parked as failed.');
SELECT @schema@_internal.register_setting(
    '50_pipeline', 'extraction_backoff_seconds', 'integer', 1, 3600, '5',
    'The first retry''s delay after a failed extraction; each later one doubles it (jittered).');
SELECT @schema@_internal.register_setting(
    '50_pipeline', 'extraction_backoff_max_seconds', 'integer', 1, 604800, '3600',
    'The longest delay between two attempts at an extraction event.');
