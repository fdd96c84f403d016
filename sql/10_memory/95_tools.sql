-- The working-memory agent tools: each one a handler that turns checked JSON arguments into
-- one API call and shapes its result, and one registration with the tool's JSON Schema.
-- call_tool (sql/90_tools) has already refused unknown argument names.
-- A handler reads an API function's rows by column name (WITH ORDINALITY AS r, no column
-- list): a column added to the function then renames nothing after it.

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
        shared => coalesce(@schema@_internal.arg_bool(args, 'shared'), false),
        ttl_seconds => @schema@_internal.arg_int(args, 'ttl_seconds'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.store_fact_tool(jsonb) IS
'The store_fact tool: one fact ({key, value, tags, shared, ttl_seconds}) or a batch (facts).';

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
    IF pg_catalog.jsonb_typeof(args -> 'scopeKeys') <> 'null' THEN
        RETURN @schema@_internal.read_facts_by_scope_keys_tool(args);
    END IF;
    SELECT pg_catalog.jsonb_build_object(
               'count', pg_catalog.count(*),
               'facts', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'key', r.key, 'value', r.value, 'scopeKey', r.scope_key,
                   'shared', r.shared, 'sessionId', r.fact_session_id,
                   'agentId', r.fact_agent_id, 'tags', r.fact_tags,
                   'createdAt', r.created_at, 'updatedAt', r.updated_at, 'etag', r.etag)
                   ORDER BY r.ordinality), '[]'))
      INTO result
      FROM @schema@.read_facts(
               key_pattern => @schema@_internal.arg_text(args, 'key_pattern'),
               tags => @schema@_internal.arg_text_array(args, 'tags'),
               session_id => @schema@_internal.arg_text(args, 'session_id'),
               agent_id => @schema@_internal.arg_text(args, 'agent_id'),
               "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 50),
               scope => coalesce(@schema@_internal.arg_text(args, 'scope'), 'accessible'),
               known_at => @schema@_internal.arg_timestamp(args, 'known_at'))
           WITH ORDINALITY AS r;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.read_facts_tool(jsonb) IS
'The read_facts tool: {count, facts: [{key, value, scopeKey, shared, sessionId, agentId, '
'tags, createdAt, updatedAt, etag}]}; by exact scopeKeys when they are given.';

CREATE OR REPLACE FUNCTION @schema@_internal.read_facts_by_scope_keys_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    others text;
    result jsonb;
BEGIN
    -- Exact keys are the whole selection: a filter beside them would be ignored or
    -- ambiguous, so it is refused.
    SELECT pg_catalog.string_agg(k, ', ' ORDER BY k) INTO others
      FROM pg_catalog.jsonb_object_keys(args) AS k
     WHERE k NOT IN ('scopeKeys', 'limit') AND pg_catalog.jsonb_typeof(args -> k) <> 'null';
    IF others IS NOT NULL THEN
        RAISE EXCEPTION 'read_facts takes scopeKeys alone (with limit), not with %', others
            USING ERRCODE = '22023', HINT = 'read by scopeKeys, or by the filters';
    END IF;
    SELECT pg_catalog.jsonb_build_object(
               'count', pg_catalog.count(*),
               'facts', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'key', r.key, 'value', r.value, 'scopeKey', r.scope_key,
                   'shared', r.shared, 'sessionId', r.fact_session_id,
                   'agentId', r.fact_agent_id, 'tags', r.fact_tags,
                   'createdAt', r.created_at, 'updatedAt', r.updated_at, 'etag', r.etag)
                   ORDER BY r.ordinality), '[]'))
      INTO result
      FROM @schema@.read_facts_by_scope_keys(
               scope_keys => @schema@_internal.arg_text_array(args, 'scopeKeys'),
               "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 1000))
           WITH ORDINALITY AS r;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.read_facts_by_scope_keys_tool(jsonb) IS
'The read_facts tool given scopeKeys: the readable facts with those exact scope keys, in the '
'same shape as read_facts.';

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
                   'knownTo', h.known_to, 'current', h.current) ORDER BY h.ordinality), '[]'))
      INTO result
      FROM @schema@.fact_history(
               key => @schema@_internal.arg_text(args, 'key'),
               shared => coalesce(@schema@_internal.arg_bool(args, 'shared'), false),
               session_id => @schema@_internal.arg_text(args, 'session_id'))
           WITH ORDINALITY AS h;
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
DECLARE
    key_prefix text := @schema@_internal.arg_text(args, 'keyPrefix');
    namespace text := @schema@_internal.arg_text(args, 'namespace');
BEGIN
    -- namespace: PilotSwarm's older name of keyPrefix, accepted as an alias.
    IF key_prefix IS NOT NULL AND namespace IS NOT NULL AND key_prefix <> namespace THEN
        RAISE EXCEPTION 'keyPrefix % and its alias namespace % differ', @schema@_internal.shown(key_prefix),
            @schema@_internal.shown(namespace)
            USING ERRCODE = '22023', HINT = 'pass one of them';
    END IF;
    RETURN @schema@.facts_read_uncrawled(
        key_prefix => coalesce(key_prefix, namespace),
        "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 20));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_read_uncrawled_tool(jsonb) IS
'The facts_read_uncrawled tool (the crawl queue); namespace is an alias of keyPrefix.';

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
    api_functions => '{"@schema@.store_fact(text,jsonb,text[],boolean,integer)",'
                     '"@schema@.store_facts(jsonb)"}',
    description => 'Store a durable fact (upsert by key). Session-scoped by default: visible to '
        'your spawn tree (parent, children, siblings). Use shared=true for knowledge every '
        'session should see. Use facts=[...] to store several at once, all or nothing.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "key": {"type": "string", "minLength": 1, "maxLength": 512, "description": "Fact identifier, e.g. baseline/tps"},
  "value": {"description": "Any JSON value"},
  "tags": {"type": "array", "items": {"type": "string"}, "description": "Tags for filtering"},
  "shared": {"type": "boolean", "description": "true: visible to every session (default false)"},
  "ttl_seconds": {"type": "integer", "minimum": 1, "maximum": 999999999, "description": "Expire the fact this many seconds from now: reads then treat it as absent (default: never)"},
  "facts": {"type": "array", "description": "Batch form; top-level key/value are ignored when present",
            "items": {"type": "object", "required": ["key", "value"], "additionalProperties": false,
                      "properties": {"key": {"type": "string"}, "value": {},
                                     "tags": {"type": "array", "items": {"type": "string"}},
                                     "shared": {"type": "boolean"},
                                     "ttl_seconds": {"type": "integer", "minimum": 1, "maximum": 999999999}}}}}}
$json$,
    output_schema => $json$
{"type": "object", "description": "One fact: {key, scope, shared, stored}; the batch form: {stored: count, facts: [...]}", "properties": {"key": {"type": "string"}, "scope": {"type": "string", "enum": ["session", "shared"]}, "shared": {"type": "boolean"}, "stored": {"type": ["boolean", "integer"], "description": "true (one fact) or how many (batch)"}, "facts": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}, "scope": {"type": "string", "enum": ["session", "shared"]}, "shared": {"type": "boolean"}, "stored": {"type": "boolean"}}, "required": ["key", "scope", "shared", "stored"]}}}, "required": ["stored"]}
$json$,
    read_only => false, destructive => false, idempotent => false);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'read_facts', handler => '@schema@_internal.read_facts_tool',
    api_functions => '{"@schema@.read_facts(text,text[],text,text,integer,text,timestamptz)",'
                     '"@schema@.read_facts_by_scope_keys(text[],integer)"}',
    description => 'Read facts visible to you: your spawn tree''s session facts and shared '
        'facts, most recently updated first.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "key_pattern": {"type": "string", "description": "Key with * or % wildcards; \\ escapes; everything else literal"},
  "tags": {"type": "array", "items": {"type": "string"}, "description": "All listed tags must be present"},
  "session_id": {"type": "string", "description": "Only facts stored by this session (must be in your spawn tree for its private facts)"},
  "agent_id": {"type": "string", "description": "Only facts stored by this agent"},
  "limit": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "Max rows (default 50; 1000 with scopeKeys)"},
  "scope": {"type": "string", "enum": ["accessible", "shared", "session", "descendants"], "description": "Default accessible"},
  "known_at": {"type": "string", "format": "date-time", "description": "Read what was visible at this past instant"},
  "scopeKeys": {"type": "array", "maxItems": 1000, "items": {"type": "string"}, "description": "Exact scope keys (shared:<key>, session:<id>:<key>) instead of the filters; unreadable ones are left out like unknown ones"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"count": {"type": "integer"}, "facts": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}, "value": {}, "scopeKey": {"type": "string"}, "shared": {"type": "boolean"}, "sessionId": {"type": ["string", "null"]}, "agentId": {"type": ["string", "null"]}, "tags": {"type": "array", "items": {"type": "string"}}, "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}, "etag": {"type": "integer"}}, "required": ["key", "value", "scopeKey", "shared", "sessionId", "agentId", "tags", "createdAt", "updatedAt", "etag"]}}}, "required": ["count", "facts"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

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
$json$,
    output_schema => $json$
{"type": "object", "properties": {"key": {"type": "string"}, "keyPattern": {"type": "string"}, "shared": {"type": "boolean"}, "scope": {"type": "string"}, "deleted": {"type": ["boolean", "integer"], "description": "By key: whether it was deleted; by pattern: how many"}}, "required": ["deleted"]}
$json$,
    read_only => false, destructive => true, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'delete_session', handler => '@schema@_internal.delete_session_tool',
    api_functions => '{"@schema@.delete_session(text)"}',
    description => 'Delete a session''s and all its descendants'' session-scoped facts (shared '
        'facts are kept).',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["session_id"], "properties": {
  "session_id": {"type": "string", "minLength": 1}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"sessionId": {"type": "string"}, "sessions": {"type": "array", "items": {"type": "string"}}, "deleted": {"type": "integer"}}, "required": ["sessionId", "sessions", "deleted"]}
$json$,
    read_only => false, destructive => true, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'fact_history', handler => '@schema@_internal.fact_history_tool',
    api_functions => '{"@schema@.fact_history(text,boolean,text)"}',
    description => 'Every version of one fact with when it was current.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["key"], "properties": {
  "key": {"type": "string", "minLength": 1},
  "shared": {"type": "boolean"},
  "session_id": {"type": "string", "description": "Whose session fact (default: yours)"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"key": {"type": "string"}, "versions": {"type": "array", "items": {"type": "object", "properties": {"value": {}, "tags": {"type": "array", "items": {"type": "string"}}, "agentId": {"type": ["string", "null"]}, "etag": {"type": "integer"}, "deleted": {"type": "boolean"}, "knownFrom": {"type": "string", "format": "date-time"}, "knownTo": {"type": ["string", "null"], "format": "date-time"}, "current": {"type": "boolean"}}, "required": ["value", "tags", "agentId", "etag", "deleted", "knownFrom", "knownTo", "current"]}}}, "required": ["key", "versions"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'facts_read_uncrawled',
    handler => '@schema@_internal.facts_read_uncrawled_tool',
    api_functions => '{"@schema@.facts_read_uncrawled(text,integer)"}',
    description => 'The crawl queue: facts new or changed since last marked crawled, tombstones '
        'included, each with scopeKey and etag.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "keyPrefix": {"type": "string", "description": "Literal key prefix"},
  "namespace": {"type": "string", "description": "Alias of keyPrefix (PilotSwarm's older name)"},
  "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Default 20"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"count": {"type": "integer"}, "facts": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}, "value": {}, "scopeKey": {"type": "string"}, "shared": {"type": "boolean"}, "sessionId": {"type": ["string", "null"]}, "agentId": {"type": ["string", "null"]}, "tags": {"type": "array", "items": {"type": "string"}}, "updatedAt": {"type": "string", "format": "date-time"}, "deletedAt": {"type": ["string", "null"], "format": "date-time"}, "etag": {"type": "integer"}}, "required": ["key", "value", "scopeKey", "shared", "sessionId", "agentId", "tags", "updatedAt", "deletedAt", "etag"]}}}, "required": ["count", "facts"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'facts_set_crawled', handler => '@schema@_internal.facts_set_crawled_tool',
    api_functions => '{"@schema@.facts_set_crawled(jsonb,text,boolean)"}',
    description => 'Mark facts crawled (or requeue with crawled=false): by scopeKeys with etag '
        'receipts (compare-and-set), or a whole literal keyPrefix.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "scopeKeys": {"type": "array", "minItems": 1, "maxItems": 500, "items": {"type": "object", "required": ["scopeKey"], "additionalProperties": false,
                "properties": {"scopeKey": {"type": "string"}, "etag": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[1-9][0-9]*$", "description": "A positive integer, or the same as a decimal string"}}}},
  "keyPrefix": {"type": "string", "minLength": 1},
  "crawled": {"type": "boolean", "description": "Default true"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"affected": {"type": "integer"}, "skipped": {"type": "integer"}}, "required": ["affected", "skipped"]}
$json$,
    read_only => false, destructive => false, idempotent => true);

CREATE OR REPLACE FUNCTION @schema@_internal.bulk_store_facts_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- source is the file's text here (JSON has no bytes); its sha256 is of the UTF-8 bytes.
    -- The answer keeps PilotSwarm's snake_case keys (accepted_count, failed_sample, ...).
    RETURN @schema@.bulk_store_facts(
        records => CASE WHEN pg_catalog.jsonb_typeof(args -> 'records') <> 'null'
                        THEN args -> 'records' END,
        source => pg_catalog.convert_to(@schema@_internal.arg_text(args, 'source'), 'UTF8'),
        sha256 => @schema@_internal.arg_text(args, 'sha256'),
        expected_count => @schema@_internal.arg_int(args, 'expected_count'),
        key_prefix => @schema@_internal.arg_text(args, 'key_prefix'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.bulk_store_facts_tool(jsonb) IS
'The bulk_store_facts tool: records inline, or source (a file''s text) with its sha256.';

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'bulk_store_facts', handler => '@schema@_internal.bulk_store_facts_tool',
    api_functions => '{"@schema@.bulk_store_facts(jsonb,bytea,text,integer,text)"}',
    description => 'Store many facts in one call (by default up to 50,000 records or 32 MiB): '
        'records inline, or source, a file''s text, with its sha256 so nothing changed on the '
        'way. Valid records are written; each other one is reported by position with a reason, '
        'and failed_file holds the failed records (annotated with _error) to fix and send '
        'again. The first valid record of a key in a scope wins.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "records": {"type": "array", "description": "The records: [{key, value, tags?, shared?, ttl_seconds?}] (or source)",
              "items": {"type": "object", "required": ["key", "value"],
                        "properties": {"key": {"type": "string", "minLength": 1, "maxLength": 512}, "value": {},
                                       "tags": {"type": "array", "items": {"type": "string"}},
                                       "shared": {"type": "boolean"},
                                       "ttl_seconds": {"type": "integer", "minimum": 1, "maximum": 999999999},
                                       "_error": {"description": "A failure file's annotation, ignored"}}}},
  "source": {"type": "string", "description": "A file's text holding the JSON array of records (instead of records)"},
  "sha256": {"type": "string", "pattern": "^[0-9a-fA-F]{64}$", "description": "sha256 of source's UTF-8 bytes; required with source"},
  "expected_count": {"type": "integer", "minimum": 0, "description": "Refuse the call unless the input holds this many records"},
  "key_prefix": {"type": "string", "minLength": 1, "maxLength": 512, "description": "A literal prefix every key must have (prefix_violation otherwise)"}}}
$json$,
    output_schema => $json$
{"type": "object", "required": ["source", "record_count", "accepted_count", "committed_count",
                                "failed_count", "failures", "failed_sample"],
 "properties": {
  "source": {"type": "string"}, "sha256": {"type": ["string", "null"]},
  "record_count": {"type": "integer"}, "accepted_count": {"type": "integer"},
  "committed_count": {"type": "integer"}, "failed_count": {"type": "integer"},
  "failures": {"type": "array", "items": {"type": "object", "required": ["position", "reason", "message"],
               "properties": {"position": {"type": "integer"}, "reason": {"type": "string"},
                              "message": {"type": "string"}, "sqlstate": {"type": "string"}}}},
  "failed_sample": {"type": "array", "items": {"type": "string"}},
  "failed_file": {"type": ["string", "null"]}, "failed_file_sha256": {"type": ["string", "null"]}}}
$json$,
    read_only => false, destructive => false, idempotent => false);

-- Statistics and purges for the facts manager, the tuner and operators.

CREATE OR REPLACE FUNCTION @schema@_internal.facts_stats_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    stats jsonb := @schema@.facts_stats();
BEGIN
    PERFORM args;  -- takes no arguments (call_tool refused any)
    RETURN pg_catalog.jsonb_build_object(
        'live', stats -> 'live', 'tombstones', stats -> 'tombstones',
        'uncrawled', stats -> 'uncrawled', 'uncrawledTombstones', stats -> 'uncrawled_tombstones',
        'buckets', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                        'bucket', b -> 'bucket', 'scope', b -> 'scope', 'facts', b -> 'facts',
                        'valueBytes', b -> 'value_bytes') ORDER BY b.ord), '[]')
                      FROM pg_catalog.jsonb_array_elements(stats -> 'buckets')
                           WITH ORDINALITY AS b (b, ord)),
        'writerKinds', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                            'writerKind', w -> 'writer_kind', 'facts', w -> 'facts') ORDER BY w.ord),
                            '[]')
                          FROM pg_catalog.jsonb_array_elements(stats -> 'writer_kinds')
                               WITH ORDINALITY AS w (w, ord)));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_stats_tool(jsonb) IS
'The facts_stats tool: facts_stats() with camelCase keys.';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_tombstone_stats_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    stats jsonb := @schema@.tombstone_stats(
        ttl_seconds => @schema@_internal.arg_int(args, 'ttlSeconds'));
BEGIN
    RETURN pg_catalog.jsonb_build_object(
        'ttlSeconds', stats -> 'ttl_seconds', 'pending', stats -> 'pending',
        'reconciled', stats -> 'reconciled', 'unreconciled', stats -> 'unreconciled',
        'blockedByTtl', stats -> 'blocked_by_ttl',
        'oldestUnreconciledAgeSeconds', stats -> 'oldest_unreconciled_age_seconds');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_tombstone_stats_tool(jsonb) IS
'The facts_tombstone_stats tool: tombstone_stats() with camelCase keys.';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_purge_tombstones_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@.purge_tombstones(
        ttl_seconds => @schema@_internal.arg_int(args, 'ttlSeconds'),
        "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 1000));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_purge_tombstones_tool(jsonb) IS
'The facts_purge_tombstones tool: purge reconciled or expired tombstones.';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_force_purge_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF @schema@_internal.arg_text(args, 'cutoff') IS NULL THEN
        RAISE EXCEPTION 'facts_force_purge needs a cutoff (an ISO 8601 instant)'
            USING ERRCODE = '22023';
    END IF;
    RETURN @schema@.purge_tombstones_before(
        cutoff => @schema@_internal.arg_timestamp(args, 'cutoff'),
        include_unreconciled => coalesce(
            @schema@_internal.arg_bool(args, 'includeUnreconciled'), false),
        key_prefix => @schema@_internal.arg_text(args, 'keyPrefix'),
        "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 1000));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_force_purge_tool(jsonb) IS
'The facts_force_purge tool: purge tombstones deleted before a cutoff, whatever the TTL.';

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'facts_stats', handler => '@schema@_internal.facts_stats_tool',
    api_functions => '{"@schema@.facts_stats()"}',
    description => 'Working memory in numbers: live facts by bucket (skills, asks, config, '
        'intake, other) and scope, by the agent kind that wrote them, tombstones and the '
        'uncrawled backlog.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"live": {"type": "integer"}, "tombstones": {"type": "integer"}, "uncrawled": {"type": "integer"}, "uncrawledTombstones": {"type": "integer"}, "buckets": {"type": "array", "items": {"type": "object", "properties": {"bucket": {"type": "string"}, "scope": {"type": "string"}, "facts": {"type": "integer"}, "valueBytes": {"type": "integer"}}, "required": ["bucket", "scope", "facts", "valueBytes"]}}, "writerKinds": {"type": "array", "items": {"type": "object", "properties": {"writerKind": {"type": ["string", "null"]}, "facts": {"type": "integer"}}, "required": ["writerKind", "facts"]}}}, "required": ["live", "tombstones", "uncrawled", "uncrawledTombstones", "buckets", "writerKinds"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'facts_tombstone_stats',
    handler => '@schema@_internal.facts_tombstone_stats_tool',
    api_functions => '{"@schema@.tombstone_stats(integer)"}',
    description => 'Tombstones waiting to be purged: pending, reconciled, unreconciled, '
        'blocked by the TTL, and the age of the oldest unreconciled one.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "ttlSeconds": {"type": "integer", "minimum": 0, "description": "Default: the tenant's tombstone TTL (21600)"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"ttlSeconds": {"type": "integer"}, "pending": {"type": "integer"}, "reconciled": {"type": "integer"}, "unreconciled": {"type": "integer"}, "blockedByTtl": {"type": "integer"}, "oldestUnreconciledAgeSeconds": {"type": ["number", "null"]}}, "required": ["ttlSeconds", "pending", "reconciled", "unreconciled", "blockedByTtl", "oldestUnreconciledAgeSeconds"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'facts_purge_tombstones',
    handler => '@schema@_internal.facts_purge_tombstones_tool',
    api_functions => '{"@schema@.purge_tombstones(integer,integer)"}',
    description => 'Hard-delete tombstones that a crawler reconciled or that outlived the TTL, '
        'reconciled first.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "ttlSeconds": {"type": "integer", "minimum": 0, "description": "Default: the tenant's tombstone TTL (21600)"},
  "limit": {"type": "integer", "minimum": 1, "maximum": 100000, "description": "Default 1000"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"purged": {"type": "integer"}}, "required": ["purged"]}
$json$,
    read_only => false, destructive => true, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'memory', name => 'facts_force_purge', handler => '@schema@_internal.facts_force_purge_tool',
    api_functions => '{"@schema@.purge_tombstones_before(timestamptz,boolean,text,integer)"}',
    description => 'Operators: hard-delete tombstones deleted before cutoff, whatever the TTL; '
        'only reconciled ones unless includeUnreconciled (which can strand graph evidence).',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["cutoff"], "properties": {
  "cutoff": {"type": "string", "format": "date-time", "description": "Purge tombstones deleted before this past instant"},
  "includeUnreconciled": {"type": "boolean", "description": "Also tombstones no crawler has reconciled (default false)"},
  "keyPrefix": {"type": "string", "minLength": 1, "description": "Only keys starting with this literal prefix"},
  "limit": {"type": "integer", "minimum": 1, "maximum": 100000, "description": "Default 1000"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"purged": {"type": "integer"}}, "required": ["purged"]}
$json$,
    read_only => false, destructive => true, idempotent => true);
