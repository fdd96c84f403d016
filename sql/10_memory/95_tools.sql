-- The working-memory agent tools: each one a handler that turns checked JSON arguments into
-- one API call and shapes its result, and one registration with the tool's JSON Schema.
-- call_tool (sql/90_tools) has already refused unknown argument names.

CREATE OR REPLACE FUNCTION @schema@_internal.store_fact_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.jsonb_typeof(args -> 'facts') IS NOT NULL
       AND pg_catalog.jsonb_typeof(args -> 'facts') <> 'null' THEN
        -- The batch form: top-level key and value are ignored, as the contract says.
        RETURN @schema@.store_facts(facts => args -> 'facts');
    END IF;
    IF NOT (args ? 'key' AND args ? 'value') THEN
        RAISE EXCEPTION 'store_fact needs {key, value} or facts: [{key, value}, ...]'
            USING ERRCODE = '22023';
    END IF;
    RETURN @schema@.store_fact(
        key => @schema@_internal.arg_text(args, 'key'),
        value => args -> 'value',
        tags => @schema@_internal.arg_text_array(args, 'tags'),
        shared => coalesce(@schema@_internal.arg_bool(args, 'shared'), false));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.store_fact_tool(jsonb) IS
'The store_fact tool: one fact ({key, value, tags, shared}) or a batch (facts).';

CREATE OR REPLACE FUNCTION @schema@_internal.read_facts_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    result jsonb;
BEGIN
    SELECT pg_catalog.jsonb_build_object(
               'count', pg_catalog.count(*),
               'facts', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'key', r.key, 'value', r.value, 'scopeKey', r.scope_key,
                   'shared', r.shared, 'sessionId', r.fact_session_id,
                   'agentId', r.fact_agent_id, 'tags', r.fact_tags,
                   'createdAt', r.created_at, 'updatedAt', r.updated_at, 'etag', r.etag)
                   ORDER BY r.ord), '[]'))
      INTO result
      FROM @schema@.read_facts(
               key_pattern => @schema@_internal.arg_text(args, 'key_pattern'),
               tags => @schema@_internal.arg_text_array(args, 'tags'),
               session_id => @schema@_internal.arg_text(args, 'session_id'),
               agent_id => @schema@_internal.arg_text(args, 'agent_id'),
               "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 50),
               scope => coalesce(@schema@_internal.arg_text(args, 'scope'), 'accessible'),
               known_at => @schema@_internal.arg_timestamp(args, 'known_at'))
           WITH ORDINALITY AS r (scope_key, key, value, shared, fact_session_id, fact_agent_id,
                                 fact_tags, created_at, updated_at, etag, ord);
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.read_facts_tool(jsonb) IS
'The read_facts tool: {count, facts: [{key, value, scopeKey, shared, sessionId, agentId, '
'tags, createdAt, updatedAt, etag}]}.';

CREATE OR REPLACE FUNCTION @schema@_internal.delete_fact_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@.delete_fact(
        key => @schema@_internal.arg_text(args, 'key'),
        shared => coalesce(@schema@_internal.arg_bool(args, 'shared'), false),
        pattern => coalesce(@schema@_internal.arg_bool(args, 'pattern'), false),
        scope => @schema@_internal.arg_text(args, 'scope'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.delete_fact_tool(jsonb) IS
'The delete_fact tool: by exact key, or by pattern with pattern=true.';

CREATE OR REPLACE FUNCTION @schema@_internal.delete_session_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@.delete_session(session_id => @schema@_internal.arg_text(args, 'session_id'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.delete_session_tool(jsonb) IS
'The delete_session tool.';

CREATE OR REPLACE FUNCTION @schema@_internal.fact_history_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    result jsonb;
BEGIN
    SELECT pg_catalog.jsonb_build_object(
               'key', @schema@_internal.arg_text(args, 'key'),
               'versions', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'value', h.value, 'tags', h.fact_tags, 'agentId', h.fact_agent_id,
                   'etag', h.etag, 'deleted', h.deleted, 'knownFrom', h.known_from,
                   'knownTo', h.known_to, 'current', h.current) ORDER BY h.ord), '[]'))
      INTO result
      FROM @schema@.fact_history(
               key => @schema@_internal.arg_text(args, 'key'),
               shared => coalesce(@schema@_internal.arg_bool(args, 'shared'), false),
               session_id => @schema@_internal.arg_text(args, 'session_id'))
           WITH ORDINALITY AS h (scope_key, value, fact_tags, fact_agent_id, etag, deleted,
                                 known_from, known_to, current, ord);
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_history_tool(jsonb) IS
'The fact_history tool: {key, versions: [{value, tags, agentId, etag, deleted, knownFrom, '
'knownTo, current}]}.';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_read_uncrawled_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@.facts_read_uncrawled(
        key_prefix => @schema@_internal.arg_text(args, 'keyPrefix'),
        "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 20));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_read_uncrawled_tool(jsonb) IS
'The facts_read_uncrawled tool (the crawl queue).';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_set_crawled_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@.facts_set_crawled(
        scope_keys => CASE WHEN pg_catalog.jsonb_typeof(args -> 'scopeKeys') <> 'null'
                           THEN args -> 'scopeKeys' END,
        key_prefix => @schema@_internal.arg_text(args, 'keyPrefix'),
        crawled => coalesce(@schema@_internal.arg_bool(args, 'crawled'), true));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_set_crawled_tool(jsonb) IS
'The facts_set_crawled tool: by scopeKeys with etag receipts, or a whole keyPrefix.';

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'store_fact', handler => '@schema@_internal.store_fact_tool',
    api_functions => '{"@schema@.store_fact(text,jsonb,text[],boolean)","@schema@.store_facts(jsonb)"}',
    description => 'Store a durable fact (upsert by key). Session-scoped by default: visible to '
        'your spawn tree (parent, children, siblings). Use shared=true for knowledge every '
        'session should see. Use facts=[...] to store several at once, all or nothing.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "key": {"type": "string", "minLength": 1, "maxLength": 512, "description": "Fact identifier, e.g. baseline/tps"},
  "value": {"description": "Any JSON value"},
  "tags": {"type": "array", "items": {"type": "string"}, "description": "Tags for filtering"},
  "shared": {"type": "boolean", "description": "true: visible to every session (default false)"},
  "facts": {"type": "array", "description": "Batch form; top-level key/value are ignored when present",
            "items": {"type": "object", "required": ["key", "value"], "additionalProperties": false,
                      "properties": {"key": {"type": "string"}, "value": {},
                                     "tags": {"type": "array", "items": {"type": "string"}},
                                     "shared": {"type": "boolean"}}}}}}
$json$);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'read_facts', handler => '@schema@_internal.read_facts_tool',
    api_functions => '{"@schema@.read_facts(text,text[],text,text,integer,text,timestamptz)"}',
    description => 'Read facts visible to you: your spawn tree''s session facts and shared '
        'facts, most recently updated first.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "key_pattern": {"type": "string", "description": "Key with * or % wildcards; \\ escapes; everything else literal"},
  "tags": {"type": "array", "items": {"type": "string"}, "description": "All listed tags must be present"},
  "session_id": {"type": "string", "description": "Only facts stored by this session (must be in your spawn tree for its private facts)"},
  "agent_id": {"type": "string", "description": "Only facts stored by this agent"},
  "limit": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "Max rows (default 50)"},
  "scope": {"type": "string", "enum": ["accessible", "shared", "session", "descendants"], "description": "Default accessible"},
  "known_at": {"type": "string", "format": "date-time", "description": "Read what was visible at this past instant"}}}
$json$);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'delete_fact', handler => '@schema@_internal.delete_fact_tool',
    api_functions => '{"@schema@.delete_fact(text,boolean,boolean,text)"}',
    description => 'Delete a fact by exact key (your session''s, or the shared one with '
        'shared=true), or several with pattern=true.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["key"], "properties": {
  "key": {"type": "string", "minLength": 1, "description": "Key, or pattern when pattern=true"},
  "shared": {"type": "boolean", "description": "Delete the shared fact (default false)"},
  "pattern": {"type": "boolean", "description": "Treat key as a pattern with * or % wildcards"},
  "scope": {"type": "string", "enum": ["session", "shared", "all"], "description": "Pattern-delete scope; all is for the facts manager"}}}
$json$);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'delete_session', handler => '@schema@_internal.delete_session_tool',
    api_functions => '{"@schema@.delete_session(text)"}',
    description => 'Delete a session''s and all its descendants'' session-scoped facts (shared '
        'facts are kept).',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["session_id"], "properties": {
  "session_id": {"type": "string", "minLength": 1}}}
$json$);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'fact_history', handler => '@schema@_internal.fact_history_tool',
    api_functions => '{"@schema@.fact_history(text,boolean,text)"}',
    description => 'Every version of one fact with when it was current.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["key"], "properties": {
  "key": {"type": "string", "minLength": 1},
  "shared": {"type": "boolean"},
  "session_id": {"type": "string", "description": "Whose session fact (default: yours)"}}}
$json$);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'facts_read_uncrawled',
    handler => '@schema@_internal.facts_read_uncrawled_tool',
    api_functions => '{"@schema@.facts_read_uncrawled(text,integer)"}',
    description => 'The crawl queue: facts new or changed since last marked crawled, tombstones '
        'included, each with scopeKey and etag.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "keyPrefix": {"type": "string", "description": "Literal key prefix"},
  "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Default 20"}}}
$json$);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'facts_set_crawled', handler => '@schema@_internal.facts_set_crawled_tool',
    api_functions => '{"@schema@.facts_set_crawled(jsonb,text,boolean)"}',
    description => 'Mark facts crawled (or requeue with crawled=false): by scopeKeys with etag '
        'receipts (compare-and-set), or a whole literal keyPrefix.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "scopeKeys": {"type": "array", "minItems": 1, "maxItems": 500, "items": {"type": "object", "required": ["scopeKey"], "additionalProperties": false,
                "properties": {"scopeKey": {"type": "string"}, "etag": {"type": "integer", "minimum": 1}}}},
  "keyPrefix": {"type": "string", "minLength": 1},
  "crawled": {"type": "boolean", "description": "Default true"}}}
$json$);
