-- The projection's API: its name (the psql route for DBAs), rebuild, verify, and the
-- backlog the worker and `pgfacts doctor` read.

CREATE OR REPLACE FUNCTION @schema@.graph_projection_name()
RETURNS text
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT @schema@_internal.graph_projection_name_of(@schema@_internal.context_tenant())
$fn$;

COMMENT ON FUNCTION @schema@.graph_projection_name() IS
'The name of the caller''s tenant''s AGE graph (and schema), for a DBA''s own read-only '
'Cypher as a member of <schema>_graph_reader (docs/operations.md). Every kind.';

CREATE OR REPLACE FUNCTION @schema@.rebuild_graph_projection()
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.require_kind('{facts_manager,operator}', 'rebuild_graph_projection');
    RETURN @schema@_internal.rebuild_graph_projection_of(@schema@_internal.context_tenant());
END
$fn$;

COMMENT ON FUNCTION @schema@.rebuild_graph_projection() IS
'Facts manager, operator: drop the caller''s tenant''s AGE projection and build it again '
'from the graph tables (also the fix after a dump and restore, apache/age#2503). Returns '
'{graph, nodes, edges, seconds}.';

CREATE OR REPLACE FUNCTION @schema@.verify_graph_projection()
RETURNS TABLE (entity text, entity_id bigint, difference text)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, ag_catalog, pg_temp
AS $fn$
DECLARE
    caller_tenant text;
    graph text;
    state text;
BEGIN
    PERFORM @schema@_internal.require_kind('{facts_manager,tuner,operator}',
                                           'verify_graph_projection');
    caller_tenant := @schema@_internal.context_tenant();
    graph := @schema@_internal.graph_projection_name_of(caller_tenant);
    state := @schema@_internal.graph_projection_state(graph);
    IF state <> 'ok' THEN
        -- No graph is the right projection of an empty graph only.
        RETURN QUERY SELECT 'graph', NULL::bigint, state
         WHERE state = 'broken' OR EXISTS (SELECT FROM @schema@_internal.graph_nodes AS n
                                            WHERE n.tenant = caller_tenant);
        RETURN;
    END IF;
    -- Every node and edge as the projection must hold it (label, id, ends, properties).
    RETURN QUERY EXECUTE pg_catalog.format($q$
        WITH want_nodes AS (
            SELECT n.node_id AS id, @schema@_internal.graph_node_properties(
                       n.node_id, n.node_key, n.kind_key, n.namespace) AS doc
              FROM @schema@_internal.graph_nodes AS n WHERE n.tenant = $1),
        have_nodes AS (
            SELECT @schema@_internal.graphid_entry(v.id) AS id,
                   ag_catalog.agtype_out(v.properties)::text::jsonb
                   || CASE WHEN @schema@_internal.graphid_label(v.id) = $2 THEN '{}'
                           ELSE '{"label": "other"}' END::jsonb AS doc
              FROM %1$I.node AS v),
        want_edges AS (
            SELECT e.edge_id AS id, @schema@_internal.graph_edge_properties(
                       e.edge_id, e.predicate_key, e.confidence, e.namespace)
                   || pg_catalog.jsonb_build_object('ends', ARRAY[e.from_id, e.to_id]) AS doc
              FROM @schema@_internal.graph_edges AS e WHERE e.tenant = $1),
        have_edges AS (
            SELECT @schema@_internal.graphid_entry(r.id) AS id,
                   ag_catalog.agtype_out(r.properties)::text::jsonb || pg_catalog.jsonb_build_object('ends', ARRAY[
                       @schema@_internal.graphid_entry(r.start_id),
                       @schema@_internal.graphid_entry(r.end_id)])
                   || CASE WHEN @schema@_internal.graphid_label(r.id) = $3
                            AND @schema@_internal.graphid_label(r.start_id) = $2
                            AND @schema@_internal.graphid_label(r.end_id) = $2 THEN '{}'
                           ELSE '{"label": "other"}' END::jsonb AS doc
              FROM %1$I.edge AS r)
        SELECT 'node', coalesce(w.id, h.id),
               CASE WHEN h.id IS NULL THEN 'missing' WHEN w.id IS NULL THEN 'unexpected'
                    ELSE 'differs' END
          FROM want_nodes AS w FULL JOIN have_nodes AS h ON h.id = w.id
         WHERE w.doc IS DISTINCT FROM h.doc
        UNION ALL
        SELECT 'edge', coalesce(w.id, h.id),
               CASE WHEN h.id IS NULL THEN 'missing' WHEN w.id IS NULL THEN 'unexpected'
                    ELSE 'differs' END
          FROM want_edges AS w FULL JOIN have_edges AS h ON h.id = w.id
         WHERE w.doc IS DISTINCT FROM h.doc
         ORDER BY 1, 2 $q$, graph)
      USING caller_tenant, ag_catalog._label_id(graph::name, 'node'::name),
            ag_catalog._label_id(graph::name, 'edge'::name);
END
$fn$;

COMMENT ON FUNCTION @schema@.verify_graph_projection() IS
'Facts manager, tuner, operator: how the caller''s tenant''s AGE projection differs from '
'the graph tables: a row (entity node or edge, its id, missing / unexpected / differs) per '
'difference, or (graph, NULL, missing / broken); no rows when they are equal. Changes '
'the worker has not applied yet show as differences.';
