-- The tool definitions: the one source from which the OpenAI, Anthropic and MCP formats are
-- generated (pgfacts.tools in Python), readable by any language with one SELECT.

CREATE OR REPLACE FUNCTION @schema@.tool_definitions()
RETURNS jsonb
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT $json$[
 {"name": "store_fact",
  "kinds": ["agent", "facts_manager", "crawler", "operator"],
  "description": "Store a durable fact (upsert by key). Session-scoped by default: visible to your spawn tree (parent, children, siblings). Use shared=true for knowledge every session should see. Use facts=[...] to store several at once, all or nothing.",
  "input_schema": {"type": "object", "additionalProperties": false, "properties": {
    "key": {"type": "string", "minLength": 1, "maxLength": 512, "description": "Fact identifier, e.g. baseline/tps"},
    "value": {"description": "Any JSON value"},
    "tags": {"type": "array", "items": {"type": "string"}, "description": "Tags for filtering"},
    "shared": {"type": "boolean", "description": "true: visible to every session (default false)"},
    "facts": {"type": "array", "description": "Batch form; top-level key/value are ignored when present",
              "items": {"type": "object", "required": ["key", "value"], "additionalProperties": false,
                        "properties": {"key": {"type": "string"}, "value": {},
                                       "tags": {"type": "array", "items": {"type": "string"}},
                                       "shared": {"type": "boolean"}}}}}}},
 {"name": "read_facts",
  "kinds": ["agent", "facts_manager", "crawler", "tuner", "operator"],
  "description": "Read facts visible to you: your spawn tree's session facts and shared facts, most recently updated first.",
  "input_schema": {"type": "object", "additionalProperties": false, "properties": {
    "key_pattern": {"type": "string", "description": "Key with * or % wildcards; \\ escapes; everything else literal"},
    "tags": {"type": "array", "items": {"type": "string"}, "description": "All listed tags must be present"},
    "session_id": {"type": "string", "description": "Only facts stored by this session (must be in your spawn tree for its private facts)"},
    "agent_id": {"type": "string", "description": "Only facts stored by this agent"},
    "limit": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "Max rows (default 50)"},
    "scope": {"type": "string", "enum": ["accessible", "shared", "session", "descendants"], "description": "Default accessible"},
    "known_at": {"type": "string", "format": "date-time", "description": "Read what was visible at this past instant"}}}},
 {"name": "delete_fact",
  "kinds": ["agent", "facts_manager", "crawler", "operator"],
  "description": "Delete a fact by exact key (your session's, or the shared one with shared=true), or several with pattern=true.",
  "input_schema": {"type": "object", "additionalProperties": false, "required": ["key"], "properties": {
    "key": {"type": "string", "minLength": 1, "description": "Key, or pattern when pattern=true"},
    "shared": {"type": "boolean", "description": "Delete the shared fact (default false)"},
    "pattern": {"type": "boolean", "description": "Treat key as a pattern with * or % wildcards"},
    "scope": {"type": "string", "enum": ["session", "shared", "all"], "description": "Pattern-delete scope; all is for the facts manager"}}}},
 {"name": "delete_session",
  "kinds": ["facts_manager", "operator"],
  "description": "Delete a session's and all its descendants' session-scoped facts (shared facts are kept).",
  "input_schema": {"type": "object", "additionalProperties": false, "required": ["session_id"], "properties": {
    "session_id": {"type": "string", "minLength": 1}}}},
 {"name": "fact_history",
  "kinds": ["agent", "facts_manager", "crawler", "tuner", "operator"],
  "description": "Every version of one fact with when it was current.",
  "input_schema": {"type": "object", "additionalProperties": false, "required": ["key"], "properties": {
    "key": {"type": "string", "minLength": 1},
    "shared": {"type": "boolean"},
    "session_id": {"type": "string", "description": "Whose session fact (default: yours)"}}}},
 {"name": "facts_read_uncrawled",
  "kinds": ["crawler", "facts_manager"],
  "description": "The crawl queue: facts new or changed since last marked crawled, tombstones included, each with scopeKey and etag.",
  "input_schema": {"type": "object", "additionalProperties": false, "properties": {
    "keyPrefix": {"type": "string", "description": "Literal key prefix"},
    "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Default 20"}}}},
 {"name": "facts_set_crawled",
  "kinds": ["crawler", "facts_manager"],
  "description": "Mark facts crawled (or requeue with crawled=false): by scopeKeys with etag receipts (compare-and-set), or a whole literal keyPrefix.",
  "input_schema": {"type": "object", "additionalProperties": false, "properties": {
    "scopeKeys": {"type": "array", "minItems": 1, "maxItems": 500, "items": {"type": "object", "required": ["scopeKey"], "additionalProperties": false,
                  "properties": {"scopeKey": {"type": "string"}, "etag": {"type": "integer", "minimum": 1}}}},
    "keyPrefix": {"type": "string", "minLength": 1},
    "crawled": {"type": "boolean", "description": "Default true"}}}}
]$json$::jsonb
$fn$;

COMMENT ON FUNCTION @schema@.tool_definitions() IS
'The agent tools call_tool implements: [{name, kinds, description, input_schema}] with JSON '
'Schema arguments; kinds lists the agent kinds that may call the tool.';
