-- The governance layer's agent tools: the audit, for the operator and the tuner.

CREATE OR REPLACE FUNCTION @schema@_internal.audit_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    entries jsonb;
BEGIN
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'auditId', a.audit_id, 'at', a.at, 'operation', a.audit_operation,
               'target', a.audit_target, 'dbRole', a.db_role, 'sessionId', a.audit_session_id,
               'agentId', a.audit_agent_id, 'agentKind', a.audit_agent_kind,
               'before', a.before, 'after', a.after) ORDER BY a.at DESC, a.audit_id DESC), '[]')
      INTO entries
      FROM @schema@.audit(
               since => @schema@_internal.arg_timestamp(args, 'since'),
               until => @schema@_internal.arg_timestamp(args, 'until'),
               operation => @schema@_internal.arg_text(args, 'operation'),
               target => @schema@_internal.arg_text(args, 'target'),
               agent_id => @schema@_internal.arg_text(args, 'agentId'),
               session_id => @schema@_internal.arg_text(args, 'sessionId'),
               "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 100)) AS a;
    RETURN pg_catalog.jsonb_build_object('entries', entries,
                                         'count', pg_catalog.jsonb_array_length(entries));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_tool(jsonb) IS
'The audit tool: {entries, count}, newest first, each entry in camelCase.';

SELECT @schema@_internal.register_tool(
    layer => 'governance', name => 'audit', handler => '@schema@_internal.audit_tool',
    api_functions => '{"@schema@.audit(timestamptz,timestamptz,text,text,text,text,integer)"}',
    description => 'The audit of changes to this tenant''s memory, newest first: who changed '
        'what, when, and the before and after (content as sha256 digests). Filter by time, '
        'operation, target, agent or session.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "since": {"type": "string", "description": "ISO 8601: rows at or after this instant"},
  "until": {"type": "string", "description": "ISO 8601: rows before this instant"},
  "operation": {"type": "string", "enum": ["store", "delete", "delete_pattern", "session_cleanup", "crawl_mark", "purge", "ingest", "override", "claim_decision", "retract", "restore", "purge_source", "record_memory", "graph_node_write", "graph_node_delete", "graph_edge_write", "graph_edge_delete", "register_embedding_model", "set_setting", "bind_tenant_login", "unbind_tenant_login", "purge_audit_log", "set_redaction_placeholders"]},
  "target": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "e.g. shared:notes/a, claim:42, episode:7"},
  "agentId": {"type": "string", "maxLength": 200},
  "sessionId": {"type": "string", "minLength": 1, "maxLength": 256},
  "limit": {"type": "integer", "minimum": 1, "maximum": 10000, "description": "Default 100"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"entries": {"type": "array", "items": {"type": "object", "properties": {"auditId": {"type": "integer"}, "at": {"type": "string"}, "operation": {"type": "string"}, "target": {"type": "string"}, "dbRole": {"type": "string"}, "sessionId": {"type": ["string", "null"]}, "agentId": {"type": ["string", "null"]}, "agentKind": {"type": ["string", "null"]}, "before": {"type": ["object", "null"]}, "after": {"type": ["object", "null"]}}, "required": ["auditId", "at", "operation", "target", "dbRole"]}}, "count": {"type": "integer"}}, "required": ["entries", "count"]}
$json$,
    read_only => true, destructive => false, idempotent => true);
