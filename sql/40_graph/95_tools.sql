-- The graph's agent tools, with PilotSwarm's names and arguments (so its crawlers run
-- unchanged): each handler turns checked JSON into one API call and answers in camelCase.
-- Rows of graph_search_nodes and graph_search_edges are read by column name.

CREATE OR REPLACE FUNCTION @schema@_internal.graph_upsert_node_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.graph_upsert_node(
        kind => @schema@_internal.arg_text(args, 'kind'),
        name => @schema@_internal.arg_text(args, 'name'),
        namespace => @schema@_internal.arg_text(args, 'namespace'),
        aliases => @schema@_internal.arg_text_array(args, 'aliases'),
        evidence => @schema@_internal.arg_text_array(args, 'evidence')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_upsert_node_tool(jsonb) IS
'The graph_upsert_node tool: {nodeKey, kind, name, namespace, aliases, created, evidenceAdded}.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_upsert_edge_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.graph_upsert_edge(
        from_key => @schema@_internal.arg_text(args, 'fromKey'),
        to_key => @schema@_internal.arg_text(args, 'toKey'),
        predicate => @schema@_internal.arg_text(args, 'predicate'),
        namespace => @schema@_internal.arg_text(args, 'namespace'),
        confidence => coalesce(@schema@_internal.arg_number(args, 'confidence'), 1),
        evidence => @schema@_internal.arg_text_array(args, 'evidence')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_upsert_edge_tool(jsonb) IS
'The graph_upsert_edge tool: {fromKey, toKey, predicate, predicateKey, namespace, '
'confidence, observations, outcome, reinforced}.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_merge_nodes_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.graph_merge_nodes(
        from_key => @schema@_internal.arg_text(args, 'fromKey'),
        into_key => @schema@_internal.arg_text(args, 'intoKey'),
        reason => @schema@_internal.arg_text(args, 'reason'),
        namespace => @schema@_internal.arg_text(args, 'namespace')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_merge_nodes_tool(jsonb) IS
'The graph_merge_nodes tool: {fromKey, intoKey, merged, edgesMoved}.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_delete_node_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.graph_delete_node(
        node_key => @schema@_internal.arg_text(args, 'nodeKey'),
        namespace => @schema@_internal.arg_text(args, 'namespace')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_delete_node_tool(jsonb) IS
'The graph_delete_node tool: {nodeKey, deleted}.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_delete_edge_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.graph_delete_edge(
        from_key => @schema@_internal.arg_text(args, 'fromKey'),
        to_key => @schema@_internal.arg_text(args, 'toKey'),
        predicate_key => @schema@_internal.arg_text(args, 'predicateKey'),
        namespace => @schema@_internal.arg_text(args, 'namespace')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_delete_edge_tool(jsonb) IS
'The graph_delete_edge tool: {fromKey, toKey, predicateKey, deleted}.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_remove_evidence_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.graph_remove_evidence(
        scope_key => @schema@_internal.arg_text(args, 'scopeKey'),
        namespace => @schema@_internal.arg_text(args, 'namespace')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_remove_evidence_tool(jsonb) IS
'The graph_remove_evidence tool: {scopeKey, nodeEvidenceRemoved, edgeEvidenceRemoved, '
'edgesDeleted, nodesDeleted}.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_search_nodes_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    result jsonb;
BEGIN
    SELECT pg_catalog.jsonb_build_object('count', pg_catalog.count(*),
               'nodes', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'nodeKey', r.node_key, 'kind', r.node_kind, 'name', r.node_name,
                   'aliases', r.aliases, 'namespace', r.node_namespace, 'distance', r.distance,
                   'evidence', r.evidence, 'staleEvidence', r.stale_evidence,
                   'createdBy', r.created_by, 'createdAt', r.created_at, 'updatedAt', r.updated_at)
                   ORDER BY r.ordinality), '[]'))
      INTO result
      FROM @schema@.graph_search_nodes(
               kind => @schema@_internal.arg_text(args, 'kind'),
               name_like => @schema@_internal.arg_text(args, 'nameLike'),
               namespace => @schema@_internal.arg_text(args, 'namespace'),
               seeds => @schema@_internal.arg_text_array(args, 'seeds'),
               depth => coalesce(@schema@_internal.arg_int(args, 'depth'), 1),
               "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 50))
           WITH ORDINALITY AS r;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_search_nodes_tool(jsonb) IS
'The graph_search_nodes tool: {count, nodes: [{nodeKey, kind, name, aliases, namespace, '
'distance, evidence, staleEvidence, createdBy, createdAt, updatedAt}]}.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_search_edges_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    result jsonb;
BEGIN
    SELECT pg_catalog.jsonb_build_object('count', pg_catalog.count(*),
               'edges', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'fromKey', r.edge_from_key, 'toKey', r.edge_to_key, 'predicate', r.edge_predicate,
                   'predicateKey', r.edge_predicate_key, 'confidence', r.confidence,
                   'observations', r.observations, 'namespace', r.edge_namespace,
                   'evidence', r.evidence, 'staleEvidence', r.stale_evidence,
                   'assertedBy', r.asserted_by, 'firstSeen', r.first_seen, 'lastSeen', r.last_seen)
                   ORDER BY r.ordinality), '[]'))
      INTO result
      FROM @schema@.graph_search_edges(
               predicate => @schema@_internal.arg_text(args, 'predicate'),
               predicate_key => @schema@_internal.arg_text(args, 'predicateKey'),
               from_key => @schema@_internal.arg_text(args, 'fromKey'),
               to_key => @schema@_internal.arg_text(args, 'toKey'),
               min_confidence => @schema@_internal.arg_number(args, 'minConfidence'),
               namespace => @schema@_internal.arg_text(args, 'namespace'),
               "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 50))
           WITH ORDINALITY AS r;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_search_edges_tool(jsonb) IS
'The graph_search_edges tool: {count, edges: [{fromKey, toKey, predicate, predicateKey, '
'confidence, observations, namespace, evidence, staleEvidence, assertedBy, firstSeen, '
'lastSeen}]}.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_neighbourhood_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE  -- graph_neighbourhood with known_at waits for commits in progress
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.graph_neighbourhood(
        node_key => @schema@_internal.arg_text(args, 'nodeKey'),
        depth => coalesce(@schema@_internal.arg_int(args, 'depth'), 1),
        seeds => @schema@_internal.arg_text_array(args, 'seeds'),
        namespace => @schema@_internal.arg_text(args, 'namespace'),
        "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 100),
        valid_at => @schema@_internal.arg_timestamp(args, 'valid_at'),
        known_at => @schema@_internal.arg_timestamp(args, 'known_at')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_neighbourhood_tool(jsonb) IS
'The graph_neighbourhood tool: {nodes: [...], edges: [...]} with camelCase keys.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_stats_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.camel_keys(@schema@.graph_stats(
        namespace => @schema@_internal.arg_text(args, 'namespace')));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_stats_tool(jsonb) IS
'The graph_stats tool: {namespace, nodeCount, edgeCount, uncrawledFacts, lastCrawledAt}.';

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_upsert_node', handler => '@schema@_internal.graph_upsert_node_tool',
    api_functions => '{"@schema@.graph_upsert_node(text,text,text,text[],text[])"}',
    description => 'Create a graph node, or resolve to the existing one with this kind and name '
        '(or alias) and add aliases and evidence. Search by nameLike first, and pass the '
        'source fact''s scopeKey as evidence.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["kind", "name"], "properties": {
  "kind": {"type": "string", "minLength": 1, "maxLength": 100, "description": "e.g. person, service; no ':'"},
  "name": {"type": "string", "minLength": 1, "maxLength": 500},
  "namespace": {"type": "string", "maxLength": 256, "description": "e.g. corpus/acme; default means none; omitted keeps the stored one"},
  "aliases": {"type": "array", "maxItems": 64, "items": {"type": "string", "minLength": 1, "maxLength": 500}},
  "evidence": {"type": "array", "maxItems": 100, "items": {"type": "string"}, "description": "Fact scope keys (shared:<key>, session:<id>:<key>) or claim:<id>"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"nodeKey": {"type": "string"}, "kind": {"type": "string"}, "name": {"type": "string"}, "aliases": {"type": "array", "items": {"type": "string"}}, "namespace": {"type": ["string", "null"]}, "created": {"type": "boolean"}, "evidenceAdded": {"type": "integer"}}, "required": ["nodeKey", "kind", "name", "aliases", "namespace", "created", "evidenceAdded"]}
$json$,
    read_only => false, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_upsert_edge', handler => '@schema@_internal.graph_upsert_edge_tool',
    api_functions => '{"@schema@.graph_upsert_edge(text,text,text,text,double precision,text[])"}',
    description => 'Assert a relation between two nodes. Asserting it again never duplicates: '
        'new evidence (or none) adds one observation and combines confidence by noisy-OR; '
        'known evidence changes nothing.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["fromKey", "toKey", "predicate"], "properties": {
  "fromKey": {"type": "string", "minLength": 1, "description": "Node key, e.g. person:tom-lane"},
  "toKey": {"type": "string", "minLength": 1},
  "predicate": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Free text, e.g. works with"},
  "namespace": {"type": "string", "maxLength": 256},
  "confidence": {"type": "number", "minimum": 0, "maximum": 1, "description": "Default 1"},
  "evidence": {"type": "array", "maxItems": 100, "items": {"type": "string"}, "description": "Fact scope keys or claim:<id>"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"fromKey": {"type": "string"}, "toKey": {"type": "string"}, "predicate": {"type": "string"}, "predicateKey": {"type": "string"}, "namespace": {"type": ["string", "null"]}, "confidence": {"type": "number"}, "observations": {"type": "integer"}, "outcome": {"type": "string"}, "reinforced": {"type": "boolean"}}, "required": ["fromKey", "toKey", "predicate", "predicateKey", "namespace", "confidence", "observations", "outcome", "reinforced"]}
$json$,
    read_only => false, destructive => false, idempotent => false);

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_merge_nodes', handler => '@schema@_internal.graph_merge_nodes_tool',
    api_functions => '{"@schema@.graph_merge_nodes(text,text,text,text)"}',
    description => 'Merge a duplicate node into another: aliases, edges and evidence move to the '
        'survivor; the duplicate''s key resolves to it from then on.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["fromKey", "intoKey"], "properties": {
  "fromKey": {"type": "string", "minLength": 1, "description": "The duplicate"},
  "intoKey": {"type": "string", "minLength": 1, "description": "The survivor"},
  "reason": {"type": "string", "maxLength": 1000},
  "namespace": {"type": "string", "maxLength": 256, "description": "Both nodes must be in it"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"fromKey": {"type": "string"}, "intoKey": {"type": "string"}, "merged": {"type": "boolean"}, "edgesMoved": {"type": "integer"}}, "required": ["fromKey", "intoKey", "merged", "edgesMoved"]}
$json$,
    read_only => false, destructive => true, idempotent => false);

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_delete_node', handler => '@schema@_internal.graph_delete_node_tool',
    api_functions => '{"@schema@.graph_delete_node(text,text)"}',
    description => 'Delete a node with its edges and evidence (facts are untouched).',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["nodeKey"], "properties": {
  "nodeKey": {"type": "string", "minLength": 1},
  "namespace": {"type": "string", "maxLength": 256}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"nodeKey": {"type": "string"}, "deleted": {"type": "boolean"}}, "required": ["nodeKey", "deleted"]}
$json$,
    read_only => false, destructive => true, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_delete_edge', handler => '@schema@_internal.graph_delete_edge_tool',
    api_functions => '{"@schema@.graph_delete_edge(text,text,text,text)"}',
    description => 'Delete one edge by its two node keys and predicate key.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["fromKey", "toKey", "predicateKey"], "properties": {
  "fromKey": {"type": "string", "minLength": 1},
  "toKey": {"type": "string", "minLength": 1},
  "predicateKey": {"type": "string", "minLength": 1},
  "namespace": {"type": "string", "maxLength": 256}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"fromKey": {"type": "string"}, "toKey": {"type": "string"}, "predicateKey": {"type": "string"}, "deleted": {"type": "boolean"}}, "required": ["fromKey", "toKey", "predicateKey", "deleted"]}
$json$,
    read_only => false, destructive => true, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_remove_evidence',
    handler => '@schema@_internal.graph_remove_evidence_tool',
    api_functions => '{"@schema@.graph_remove_evidence(text,text)"}',
    description => 'Reconcile a deleted fact (a tombstone from facts_read_uncrawled): strip its '
        'scopeKey from the graph, delete edges left without evidence and nodes left without '
        'evidence or edges. Then mark the tombstone crawled.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["scopeKey"], "properties": {
  "scopeKey": {"type": "string", "minLength": 1, "description": "A fact scope key, or claim:<id>"},
  "namespace": {"type": "string", "maxLength": 256}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"scopeKey": {"type": "string"}, "nodeEvidenceRemoved": {"type": "integer"}, "edgeEvidenceRemoved": {"type": "integer"}, "edgesDeleted": {"type": "integer"}, "nodesDeleted": {"type": "integer"}}, "required": ["scopeKey", "nodeEvidenceRemoved", "edgeEvidenceRemoved", "edgesDeleted", "nodesDeleted"]}
$json$,
    read_only => false, destructive => true, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_search_nodes', handler => '@schema@_internal.graph_search_nodes_tool',
    api_functions => '{"@schema@.graph_search_nodes(text,text,text,text[],integer,integer)"}',
    description => 'Find graph nodes by kind, name (nameLike) and namespace, or around seeds '
        '(node keys, fact scope keys, claim:<id>) up to depth edges away, with the evidence '
        'you may read.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "kind": {"type": "string", "maxLength": 100},
  "nameLike": {"type": "string", "maxLength": 500, "description": "Part of a name or alias (case and accents ignored)"},
  "namespace": {"type": "string", "maxLength": 256},
  "seeds": {"type": "array", "maxItems": 100, "items": {"type": "string"}},
  "depth": {"type": "integer", "minimum": 1, "maximum": 5, "description": "Default 1"},
  "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Default 50"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"count": {"type": "integer"}, "nodes": {"type": "array", "items": {"type": "object", "properties": {"nodeKey": {"type": "string"}, "kind": {"type": "string"}, "name": {"type": "string"}, "aliases": {"type": "array", "items": {"type": "string"}}, "namespace": {"type": ["string", "null"]}, "distance": {"type": ["integer", "null"]}, "evidence": {"type": "array", "items": {"type": "string"}}, "staleEvidence": {"type": "array", "items": {"type": "string"}}, "createdBy": {"type": ["string", "null"]}, "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}}, "required": ["nodeKey", "kind", "name", "aliases", "namespace", "distance", "evidence", "staleEvidence", "createdBy", "createdAt", "updatedAt"]}}}, "required": ["count", "nodes"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_search_edges', handler => '@schema@_internal.graph_search_edges_tool',
    api_functions => '{"@schema@.graph_search_edges(text,text,text,text,double precision,text,integer)"}',
    description => 'Find graph edges by predicate, endpoints, confidence and namespace, most '
        'confident first, with the evidence you may read.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "predicate": {"type": "string", "maxLength": 200},
  "predicateKey": {"type": "string", "maxLength": 400},
  "fromKey": {"type": "string"},
  "toKey": {"type": "string"},
  "minConfidence": {"type": "number", "minimum": 0, "maximum": 1},
  "namespace": {"type": "string", "maxLength": 256},
  "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Default 50"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"count": {"type": "integer"}, "edges": {"type": "array", "items": {"type": "object", "properties": {"fromKey": {"type": "string"}, "toKey": {"type": "string"}, "predicate": {"type": "string"}, "predicateKey": {"type": "string"}, "confidence": {"type": "number"}, "observations": {"type": "integer"}, "namespace": {"type": ["string", "null"]}, "evidence": {"type": "array", "items": {"type": "string"}}, "staleEvidence": {"type": "array", "items": {"type": "string"}}, "assertedBy": {"type": "array", "items": {"type": "string"}}, "firstSeen": {"type": "string", "format": "date-time"}, "lastSeen": {"type": "string", "format": "date-time"}}, "required": ["fromKey", "toKey", "predicate", "predicateKey", "confidence", "observations", "namespace", "evidence", "staleEvidence", "assertedBy", "firstSeen", "lastSeen"]}}}, "required": ["count", "edges"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_neighbourhood', handler => '@schema@_internal.graph_neighbourhood_tool',
    api_functions => '{"@schema@.graph_neighbourhood(text,integer,text[],text,integer,timestamptz,timestamptz)"}',
    description => 'The nodes up to depth edges from a node (or seeds) and the edges between '
        'them, with the evidence you may read. Knowledge claims between entities are edges '
        'between entity:<id> nodes, with the claim as evidence; valid_at and known_at show '
        'them as true at, and as known at, a past instant.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "nodeKey": {"type": "string", "minLength": 1},
  "depth": {"type": "integer", "minimum": 1, "maximum": 5, "description": "Default 1"},
  "seeds": {"type": "array", "maxItems": 100, "items": {"type": "string"}},
  "namespace": {"type": "string", "maxLength": 256},
  "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Max nodes (default 100)"},
  "valid_at": {"type": "string", "format": "date-time", "description": "Claim edges true at this instant (default now)"},
  "known_at": {"type": "string", "format": "date-time", "description": "Claim edges as believed at this past instant (default now)"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"nodes": {"type": "array", "items": {"type": "object", "properties": {"nodeKey": {"type": "string"}, "kind": {"type": "string"}, "name": {"type": "string"}, "distance": {"type": "integer"}}, "required": ["nodeKey", "distance"]}}, "edges": {"type": "array", "items": {"type": "object", "properties": {"fromKey": {"type": "string"}, "toKey": {"type": "string"}, "predicate": {"type": "string"}, "predicateKey": {"type": "string"}, "evidence": {"type": "array", "items": {"type": "string"}}}, "required": ["fromKey", "toKey"]}}}, "required": ["nodes", "edges"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'graph', name => 'graph_stats', handler => '@schema@_internal.graph_stats_tool',
    api_functions => '{"@schema@.graph_stats(text)"}',
    description => 'The graph in numbers (nodes, edges) with the crawl backlog and the last '
        'crawl time, for a namespace or the whole tenant.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "properties": {
  "namespace": {"type": "string", "maxLength": 256}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"namespace": {"type": ["string", "null"]}, "nodeCount": {"type": "integer"}, "edgeCount": {"type": "integer"}, "uncrawledFacts": {"type": "integer"}, "lastCrawledAt": {"type": ["string", "null"], "format": "date-time"}}, "required": ["namespace", "nodeCount", "edgeCount", "uncrawledFacts", "lastCrawledAt"]}
$json$,
    read_only => true, destructive => false, idempotent => true);
