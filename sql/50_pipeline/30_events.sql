-- Where an extraction event is: force_extract, extraction_status, extraction_events.

CREATE OR REPLACE FUNCTION @schema@_internal.extraction_event_json(
    e @schema@_internal.extraction_events
) RETURNS jsonb
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'event_id', e.event_id, 'memory_id', e.memory_id, 'kind', 'FACT_EXTRACT',
        'state', e.state, 'attempts', e.attempts, 'due_at', e.due_at,
        'error_code', e.error_code, 'last_error', e.last_error, 'episode_id', e.episode_id,
        'created_at', e.created_at, 'finished_at', e.finished_at)
$fn$;

COMMENT ON FUNCTION @schema@_internal.extraction_event_json(@schema@_internal.extraction_events) IS
'An extraction event as extraction_status shows it (never its lease token).';

CREATE OR REPLACE FUNCTION @schema@.force_extract(memory_id bigint)
RETURNS bigint
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
DECLARE
    for_tenant text := @schema@_internal.context_tenant();
    forced bigint;
BEGIN
    PERFORM @schema@_internal.require_kind('{facts_manager,operator}', 'force extractions');
    PERFORM 1 FROM @schema@_internal.memories AS m
     WHERE m.tenant = for_tenant AND m.memory_id = force_extract.memory_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no memory %', force_extract.memory_id USING ERRCODE = 'P0002',
            HINT = 'record_memory returns the memory_id';
    END IF;
    -- Its open event made due now (a leased one is left to its worker), or a new event.
    INSERT INTO @schema@_internal.extraction_events AS e (tenant, memory_id)
    VALUES (for_tenant, force_extract.memory_id)
    ON CONFLICT (tenant, memory_id) WHERE state IN ('ready', 'leased') DO UPDATE
       SET due_at = CASE WHEN e.state = 'ready' THEN pg_catalog.now() ELSE e.due_at END
    RETURNING e.event_id INTO forced;
    RETURN forced;
END
$fn$;

COMMENT ON FUNCTION @schema@.force_extract(bigint) IS
'Queue a recorded memory for extraction now: its open event becomes due now (a leased one '
'keeps its worker), or a new event is created for a memory whose events are done or '
'failed. Returns the event id; P0002 for an unknown memory.';

CREATE OR REPLACE FUNCTION @schema@.extraction_status(event_id bigint)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    found_event @schema@_internal.extraction_events;
BEGIN
    SELECT e.* INTO found_event FROM @schema@_internal.extraction_events AS e
     WHERE e.tenant = tenant AND e.event_id = event_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no extraction event %', event_id USING ERRCODE = 'P0002';
    END IF;
    RETURN @schema@_internal.extraction_event_json(found_event);
END
$fn$;

COMMENT ON FUNCTION @schema@.extraction_status(bigint) IS
'Where one extraction event is: {event_id, memory_id, kind, state (ready, leased, done, '
'failed), attempts, due_at, error_code, last_error, episode_id, created_at, finished_at}; '
'P0002 for an unknown event.';

CREATE OR REPLACE FUNCTION @schema@.extraction_events(state text DEFAULT NULL, "limit" integer DEFAULT 50)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    listed jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind('{facts_manager,tuner,operator}', 'list extraction events');
    IF state IS NOT NULL AND state <> ALL ('{ready,leased,done,failed}') THEN
        RAISE EXCEPTION 'unknown event state %', @schema@_internal.shown(state)
            USING ERRCODE = '22023', HINT = 'ready, leased, done or failed';
    END IF;
    PERFORM @schema@_internal.check_limit("limit", 'limit', 1, 1000);
    SELECT coalesce(pg_catalog.jsonb_agg(@schema@_internal.extraction_event_json(n)
                                         ORDER BY n.event_id DESC), '[]')
      INTO listed
      FROM (SELECT e.* FROM @schema@_internal.extraction_events AS e
             WHERE e.tenant = tenant AND (state IS NULL OR e.state = state)
             ORDER BY e.event_id DESC
             LIMIT "limit") AS n;
    RETURN listed;
END
$fn$;

COMMENT ON FUNCTION @schema@.extraction_events(text, integer) IS
'The tenant''s extraction events as a JSON array, newest first, optionally in one state '
'(ready, leased, done, failed), at most limit (1 to 1000), each as extraction_status shows it.';
