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
  "operation": {"type": "string", "enum": ["store", "delete", "delete_pattern", "session_cleanup", "crawl_mark", "purge", "ingest", "override", "claim_decision", "retract", "restore", "purge_source", "record_memory", "graph_node_write", "graph_node_delete", "graph_edge_write", "graph_edge_delete", "register_embedding_model", "set_setting", "bind_tenant_login", "unbind_tenant_login", "purge_audit_log", "set_redaction_placeholders", "review_approve", "review_reject", "review_lift"]},
  "target": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "e.g. shared:notes/a, claim:42, episode:7"},
  "agentId": {"type": "string", "maxLength": 200},
  "sessionId": {"type": "string", "minLength": 1, "maxLength": 256},
  "limit": {"type": "integer", "minimum": 1, "maximum": 10000, "description": "Default 100"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"entries": {"type": "array", "items": {"type": "object", "properties": {"auditId": {"type": "integer"}, "at": {"type": "string"}, "operation": {"type": "string"}, "target": {"type": "string"}, "dbRole": {"type": "string"}, "sessionId": {"type": ["string", "null"]}, "agentId": {"type": ["string", "null"]}, "agentKind": {"type": ["string", "null"]}, "before": {"type": ["object", "null"]}, "after": {"type": ["object", "null"]}}, "required": ["auditId", "at", "operation", "target", "dbRole"]}}, "count": {"type": "integer"}}, "required": ["entries", "count"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

-- Human review: the tools of a reviewer agent (the operator's too; the tuner reads).

CREATE OR REPLACE FUNCTION @schema@_internal.review_queue_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    candidates jsonb;
BEGIN
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
               'candidateId', q.candidate_id, 'heldAt', q.held_at, 'heldBecause', q.held_because,
               'subjectId', q.subject_id, 'predicate', q.predicate, 'object', q.object,
               'objectEntityId', q.object_entity_id, 'text', q.text, 'confidence', q.confidence,
               'validFrom', q.valid_from, 'validTo', q.valid_to, 'quote', q.quote,
               'episodeId', q.episode_id, 'sourceKind', q.source_kind,
               'sourceRef', q.source_ref, 'trust', q.trust, 'extractor', q.extractor))
               || pg_catalog.jsonb_build_object('locator', q.locator)
               ORDER BY q.candidate_id), '[]')
      INTO candidates
      FROM @schema@.review_queue(coalesce(@schema@_internal.arg_int(args, 'limit'), 50)) AS q;
    RETURN pg_catalog.jsonb_build_object('candidates', candidates,
                                         'count', pg_catalog.jsonb_array_length(candidates));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.review_queue_tool(jsonb) IS
'The review_queue tool: {candidates, count}, oldest first, each in camelCase.';

CREATE OR REPLACE FUNCTION @schema@_internal.review_candidate_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@.review_candidate(@schema@_internal.arg_int(args, 'candidateId'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.review_candidate_tool(jsonb) IS
'The review_candidate tool: review_candidate''s answer as it is.';

CREATE OR REPLACE FUNCTION @schema@_internal.review_approve_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@.approve_claim(@schema@_internal.arg_int(args, 'candidateId'),
                                  @schema@_internal.arg_text(args, 'note'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.review_approve_tool(jsonb) IS
'The review_approve tool: approve_claim''s answer as it is.';

CREATE OR REPLACE FUNCTION @schema@_internal.review_reject_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@.reject_claim(@schema@_internal.arg_int(args, 'candidateId'),
                                 @schema@_internal.arg_text(args, 'note'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.review_reject_tool(jsonb) IS
'The review_reject tool: reject_claim''s answer as it is.';

SELECT @schema@_internal.register_tool(
    layer => 'governance', name => 'review_queue', handler => '@schema@_internal.review_queue_tool',
    api_functions => '{"@schema@.review_queue(integer)"}',
    description => 'The claims waiting for human review, oldest first: each candidate''s '
        'claim, its evidence (quote, locator, source, trust, extractor) and why it was held '
        '(its source''s trust or its confidence). Candidates are invisible to every other '
        'read until approved.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 50"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"candidates": {"type": "array", "items": {"type": "object", "properties": {"candidateId": {"type": "integer"}, "heldAt": {"type": "string"}, "heldBecause": {"type": "string", "enum": ["trust", "confidence"]}, "subjectId": {"type": "integer"}, "predicate": {"type": "string"}, "object": {}, "objectEntityId": {"type": "integer"}, "text": {"type": "string"}, "confidence": {"type": "number"}, "validFrom": {"type": "string"}, "validTo": {"type": "string"}, "quote": {"type": "string"}, "locator": {}, "episodeId": {"type": "integer"}, "sourceKind": {"type": "string"}, "sourceRef": {"type": "string"}, "trust": {"type": "string"}, "extractor": {"type": "string"}}, "required": ["candidateId", "heldAt", "heldBecause", "subjectId", "predicate", "confidence", "episodeId", "sourceKind", "sourceRef", "trust"]}}, "count": {"type": "integer"}}, "required": ["candidates", "count"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'governance', name => 'review_candidate',
    handler => '@schema@_internal.review_candidate_tool',
    api_functions => '{"@schema@.review_candidate(bigint)"}',
    description => 'One review candidate, pending or decided: its claim, the episode that '
        'said it, why it was held, and its decision (who, when, the note, what the approval '
        'wrote, the rejection).',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["candidateId"], "properties": {
  "candidateId": {"type": "integer", "minimum": 1}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"candidate_id": {"type": "integer"}, "status": {"type": "string", "enum": ["pending", "approved", "rejected"]}, "held_because": {"type": "string"}, "held_at": {"type": "string"}, "claim": {"type": "object"}, "episode": {"type": "object"}, "decided_at": {"type": ["string", "null"]}, "decided_by": {"type": ["string", "null"]}, "note": {"type": ["string", "null"]}, "outcome": {"type": ["object", "null"]}, "rejection": {"type": ["object", "null"]}}, "required": ["candidate_id", "status", "held_because", "held_at", "claim", "episode"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'governance', name => 'review_approve',
    handler => '@schema@_internal.review_approve_tool',
    api_functions => '{"@schema@.approve_claim(bigint,text)"}',
    description => 'Approve a claim waiting for review: it is written to memory now, '
        'through the normal write path, and believed from this decision on. The decision is '
        'final and audited.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["candidateId"], "properties": {
  "candidateId": {"type": "integer", "minimum": 1},
  "note": {"type": "string", "maxLength": 2000, "description": "Why (kept with the decision)"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"candidate_id": {"type": "integer"}, "status": {"type": "string", "enum": ["approved"]}, "episode_id": {"type": "integer"}, "outcome": {"type": "object", "properties": {"outcome": {"type": "string"}, "claim_id": {"type": "integer"}}, "required": ["outcome"]}}, "required": ["candidate_id", "status", "episode_id", "outcome"]}
$json$,
    read_only => false, destructive => false, idempotent => false);

SELECT @schema@_internal.register_tool(
    layer => 'governance', name => 'review_reject',
    handler => '@schema@_internal.review_reject_tool',
    api_functions => '{"@schema@.reject_claim(bigint,text)"}',
    description => 'Reject a claim waiting for review: its assertion is never written to '
        'memory again, by any later extraction, until an operator lifts the rejection. Other '
        'pending candidates of the same assertion are rejected with it. Final and audited.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["candidateId"], "properties": {
  "candidateId": {"type": "integer", "minimum": 1},
  "note": {"type": "string", "maxLength": 2000, "description": "Why (kept with the decision)"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"candidate_id": {"type": "integer"}, "status": {"type": "string", "enum": ["rejected"]}, "rejection_id": {"type": "integer"}, "also_rejected": {"type": "array", "items": {"type": "integer"}}}, "required": ["candidate_id", "status", "rejection_id", "also_rejected"]}
$json$,
    read_only => false, destructive => true, idempotent => false);

-- Review of fact writes held under review key prefixes: the same reviewer agent's tools.

CREATE OR REPLACE FUNCTION @schema@_internal.fact_review_queue_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    held jsonb;
BEGIN
    SELECT coalesce(pg_catalog.jsonb_agg(@schema@_internal.camel_keys(c) ORDER BY o), '[]')
      INTO held
      FROM pg_catalog.jsonb_array_elements(@schema@.fact_review_queue(
               coalesce(@schema@_internal.arg_int(args, 'limit'), 50))) WITH ORDINALITY AS e (c, o);
    RETURN pg_catalog.jsonb_build_object('candidates', held,
                                         'count', pg_catalog.jsonb_array_length(held));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_review_queue_tool(jsonb) IS
'The fact_review_queue tool: {candidates, count}, oldest first, each in camelCase.';

-- The approve and reject tools went straight to their functions (a shared handler with a
-- flag between them said less than the two calls).
DROP FUNCTION IF EXISTS @schema@_internal.fact_review_decide_tool(jsonb, boolean);

CREATE OR REPLACE FUNCTION @schema@_internal.fact_review_approve_tool(args jsonb)
RETURNS jsonb
LANGUAGE sql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT @schema@.approve_fact(@schema@_internal.arg_int(args, 'candidateId'),
                                 @schema@_internal.arg_text(args, 'note'))
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_review_approve_tool(jsonb) IS
'The fact_review_approve tool: approve_fact''s answer as it is.';

CREATE OR REPLACE FUNCTION @schema@_internal.fact_review_reject_tool(args jsonb)
RETURNS jsonb
LANGUAGE sql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT @schema@.reject_fact(@schema@_internal.arg_int(args, 'candidateId'),
                                @schema@_internal.arg_text(args, 'note'))
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_review_reject_tool(jsonb) IS
'The fact_review_reject tool: reject_fact''s answer as it is.';

SELECT @schema@_internal.register_tool(
    layer => 'governance', name => 'fact_review_queue',
    handler => '@schema@_internal.fact_review_queue_tool',
    api_functions => '{"@schema@.fact_review_queue(integer)"}',
    description => 'The working-memory fact writes waiting for human review (a task agent''s '
        'write under one of the tenant''s review key prefixes), oldest first: what was '
        'written, by whom, and what memory holds under the key now. They are in no read '
        'until approved.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 50"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"candidates": {"type": "array", "items": {"type": "object", "properties": {"candidateId": {"type": "integer"}, "heldAt": {"type": "string"}, "scopeKey": {"type": "string"}, "key": {"type": "string"}, "shared": {"type": "boolean"}, "sessionId": {"type": ["string", "null"]}, "agentId": {"type": ["string", "null"]}, "writerKind": {"type": "string"}, "value": {}, "tags": {"type": "array", "items": {"type": "string"}}, "expiresAt": {"type": ["string", "null"]}, "currentValue": {}}, "required": ["candidateId", "heldAt", "scopeKey", "key", "shared", "writerKind", "value", "tags"]}}, "count": {"type": "integer"}}, "required": ["candidates", "count"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'governance', name => 'fact_review_approve',
    handler => '@schema@_internal.fact_review_approve_tool',
    api_functions => '{"@schema@.approve_fact(bigint,text)"}',
    description => 'Approve a fact write waiting for review: the fact is stored now, in the '
        'session of the agent that wrote it. Final and audited.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["candidateId"], "properties": {
  "candidateId": {"type": "integer", "minimum": 1},
  "note": {"type": "string", "maxLength": 2000, "description": "Why (kept with the decision)"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"candidate_id": {"type": "integer"}, "status": {"type": "string", "enum": ["approved"]}, "scope_key": {"type": "string"}, "stored": {"type": "boolean"}}, "required": ["candidate_id", "status", "scope_key", "stored"]}
$json$,
    read_only => false, destructive => false, idempotent => false);

SELECT @schema@_internal.register_tool(
    layer => 'governance', name => 'fact_review_reject',
    handler => '@schema@_internal.fact_review_reject_tool',
    api_functions => '{"@schema@.reject_fact(bigint,text)"}',
    description => 'Reject a fact write waiting for review: memory stays as it was. Final and '
        'audited.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["candidateId"], "properties": {
  "candidateId": {"type": "integer", "minimum": 1},
  "note": {"type": "string", "maxLength": 2000, "description": "Why (kept with the decision)"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"candidate_id": {"type": "integer"}, "status": {"type": "string", "enum": ["rejected"]}, "scope_key": {"type": "string"}, "stored": {"type": "boolean"}}, "required": ["candidate_id", "status", "scope_key", "stored"]}
$json$,
    read_only => false, destructive => true, idempotent => false);
