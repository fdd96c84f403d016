-- The pipeline's agent tools: an agent records what it saw and can ask where its
-- extraction is; the facts manager and operator force and list extractions. Each handler
-- turns checked JSON into one API call and answers in camelCase.

CREATE OR REPLACE FUNCTION @schema@_internal.record_memory_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.record_memory(
        source_kind => @schema@_internal.arg_text(args, 'sourceKind'),
        source_ref => @schema@_internal.arg_text(args, 'sourceRef'),
        lines => args -> 'lines',
        occurred_at => @schema@_internal.arg_timestamp(args, 'occurredAt'),
        trust => coalesce(@schema@_internal.arg_text(args, 'trust'), 'agent'),
        content_hash => @schema@_internal.arg_text(args, 'contentHash')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.record_memory_tool(jsonb) IS
'The record_memory tool: {memoryId, eventId, recorded, contentHash}.';

CREATE OR REPLACE FUNCTION @schema@_internal.force_extract_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN pg_catalog.jsonb_build_object('eventId', @schema@.force_extract(
        memory_id => @schema@_internal.arg_int(args, 'memoryId')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.force_extract_tool(jsonb) IS
'The force_extract tool: {eventId}.';

CREATE OR REPLACE FUNCTION @schema@_internal.extraction_status_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.extraction_status(
        event_id => @schema@_internal.arg_int(args, 'eventId')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.extraction_status_tool(jsonb) IS
'The extraction_status tool: the event as extraction_status shows it, in camelCase.';

CREATE OR REPLACE FUNCTION @schema@_internal.extraction_events_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    listed jsonb := @schema@.extraction_events(
        state => @schema@_internal.arg_text(args, 'state'),
        "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 50));
BEGIN
    RETURN pg_catalog.jsonb_build_object(
        'events', coalesce((SELECT pg_catalog.jsonb_agg(@schema@_internal.camel_keys(e) ORDER BY n)
                              FROM pg_catalog.jsonb_array_elements(listed) WITH ORDINALITY AS x (e, n)),
                           '[]'),
        'count', pg_catalog.jsonb_array_length(listed));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.extraction_events_tool(jsonb) IS
'The extraction_events tool: {events, count}, each event in camelCase.';

SELECT @schema@_internal.register_tool(
    layer => 'pipeline', name => 'record_memory', handler => '@schema@_internal.record_memory_tool',
    api_functions => '{"@schema@.record_memory(text,text,jsonb,timestamptz,text,text)"}',
    description => 'Record what you saw (a conversation turn, a note, a document) as lines for '
        'later extraction into facts; it is stored now even if no extractor runs. The same '
        'source and content again is the same memory.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["sourceKind", "sourceRef", "lines"], "properties": {
  "sourceKind": {"type": "string", "minLength": 1, "maxLength": 100, "description": "e.g. chat, note, document"},
  "sourceRef": {"type": "string", "minLength": 1, "maxLength": 1024, "description": "Where it comes from, e.g. conv/42#7"},
  "lines": {"type": "array", "minItems": 1, "maxItems": 1000, "items": {"type": "object", "additionalProperties": false, "required": ["id", "text"], "properties": {"id": {"type": "string", "minLength": 1, "maxLength": 100}, "text": {"type": "string", "maxLength": 10000}}}},
  "occurredAt": {"type": "string", "description": "ISO 8601; default now"},
  "trust": {"type": "string", "enum": ["owner", "agent", "third_party"], "description": "Default agent"},
  "contentHash": {"type": "string", "minLength": 1, "maxLength": 128, "description": "Default: a hash of the lines"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"memoryId": {"type": "integer"}, "eventId": {"type": ["integer", "null"]}, "recorded": {"type": "boolean"}, "contentHash": {"type": "string"}}, "required": ["memoryId", "eventId", "recorded", "contentHash"]}
$json$,
    read_only => false, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'pipeline', name => 'extraction_status', handler => '@schema@_internal.extraction_status_tool',
    api_functions => '{"@schema@.extraction_status(bigint)"}',
    description => 'Where the extraction of a recorded memory is: ready, leased, done (with its '
        'episode) or failed (with an error code).',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["eventId"], "properties": {
  "eventId": {"type": "integer", "minimum": 1, "description": "The eventId record_memory returned"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"eventId": {"type": "integer"}, "memoryId": {"type": "integer"}, "kind": {"type": "string"}, "state": {"type": "string", "enum": ["ready", "leased", "done", "failed"]}, "attempts": {"type": "integer"}, "dueAt": {"type": "string"}, "errorCode": {"type": ["integer", "null"]}, "lastError": {"type": ["string", "null"]}, "episodeId": {"type": ["integer", "null"]}, "createdAt": {"type": "string"}, "finishedAt": {"type": ["string", "null"]}}, "required": ["eventId", "memoryId", "state", "attempts"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'pipeline', name => 'force_extract', handler => '@schema@_internal.force_extract_tool',
    api_functions => '{"@schema@.force_extract(bigint)"}',
    description => 'Queue a recorded memory for extraction now (again, if it was done or failed).',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["memoryId"], "properties": {
  "memoryId": {"type": "integer", "minimum": 1}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"eventId": {"type": "integer"}}, "required": ["eventId"]}
$json$,
    read_only => false, destructive => false, idempotent => false);

SELECT @schema@_internal.register_tool(
    layer => 'pipeline', name => 'extraction_events', handler => '@schema@_internal.extraction_events_tool',
    api_functions => '{"@schema@.extraction_events(text,integer)"}',
    description => 'The tenant''s extraction events, newest first, optionally in one state.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "state": {"type": "string", "enum": ["ready", "leased", "done", "failed"]},
  "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 50"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"events": {"type": "array", "items": {"type": "object"}}, "count": {"type": "integer"}}, "required": ["events", "count"]}
$json$,
    read_only => true, destructive => false, idempotent => true);
