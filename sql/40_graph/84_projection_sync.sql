-- Keeping each tenant's projection in step: the triggers log which nodes and edges
-- changed; a sync (`pgfacts worker --graph`, every second) takes a tenant's logged changes
-- first and then projects the current rows of what they name, so a change committed
-- meanwhile stays logged for the next sync; a rebuild replaces the whole graph. Both lock
-- the tenant's graph_projections row, so they never interleave for one tenant.

-- One trigger function per table, each reading its row's id as a field: a merge logs 20
-- edges, and a document of each whole row (to_jsonb, which one function for both tables
-- needed) cost more than the insert of its log row.
CREATE OR REPLACE FUNCTION @schema@_internal.graph_node_changed()
RETURNS trigger
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO @schema@_internal.graph_projection_changes (tenant, entity, entity_id)
        VALUES (OLD.tenant, 'node', OLD.node_id);
    ELSE
        INSERT INTO @schema@_internal.graph_projection_changes (tenant, entity, entity_id)
        VALUES (NEW.tenant, 'node', NEW.node_id);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_node_changed() IS
'Trigger on graph_nodes: log a node whose projected part (key, kind, namespace) changed.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_edge_changed()
RETURNS trigger
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO @schema@_internal.graph_projection_changes (tenant, entity, entity_id)
        VALUES (OLD.tenant, 'edge', OLD.edge_id);
    ELSE
        INSERT INTO @schema@_internal.graph_projection_changes (tenant, entity, entity_id)
        VALUES (NEW.tenant, 'edge', NEW.edge_id);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_edge_changed() IS
'Trigger on graph_edges: log an edge whose projected part (ends, predicate key, confidence, '
'namespace) changed.';

DROP TRIGGER IF EXISTS graph_nodes_projection_log ON @schema@_internal.graph_nodes;
CREATE TRIGGER graph_nodes_projection_log AFTER INSERT OR DELETE ON @schema@_internal.graph_nodes
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.graph_node_changed();
DROP TRIGGER IF EXISTS graph_nodes_projection_log_update ON @schema@_internal.graph_nodes;
CREATE TRIGGER graph_nodes_projection_log_update AFTER UPDATE ON @schema@_internal.graph_nodes
FOR EACH ROW WHEN (OLD.node_key IS DISTINCT FROM NEW.node_key
                   OR OLD.kind_key IS DISTINCT FROM NEW.kind_key
                   OR OLD.namespace IS DISTINCT FROM NEW.namespace)
EXECUTE FUNCTION @schema@_internal.graph_node_changed();

DROP TRIGGER IF EXISTS graph_edges_projection_log ON @schema@_internal.graph_edges;
CREATE TRIGGER graph_edges_projection_log AFTER INSERT OR DELETE ON @schema@_internal.graph_edges
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.graph_edge_changed();
DROP TRIGGER IF EXISTS graph_edges_projection_log_update ON @schema@_internal.graph_edges;
CREATE TRIGGER graph_edges_projection_log_update AFTER UPDATE ON @schema@_internal.graph_edges
FOR EACH ROW WHEN (OLD.from_id IS DISTINCT FROM NEW.from_id
                   OR OLD.to_id IS DISTINCT FROM NEW.to_id
                   OR OLD.predicate_key IS DISTINCT FROM NEW.predicate_key
                   OR OLD.confidence IS DISTINCT FROM NEW.confidence
                   OR OLD.namespace IS DISTINCT FROM NEW.namespace)
EXECUTE FUNCTION @schema@_internal.graph_edge_changed();

-- The one function both tables' triggers ran before.
DROP FUNCTION IF EXISTS @schema@_internal.graph_row_changed();

CREATE OR REPLACE FUNCTION @schema@_internal.lock_graph_projection(tenant text)
RETURNS text
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    graph text := @schema@_internal.graph_projection_name_of(tenant);
BEGIN
    -- The tenant's registry row, created on first use and locked until commit. A name
    -- another tenant holds (an 80-bit collision) is refused, never shared.
    BEGIN
        INSERT INTO @schema@_internal.graph_projections AS p (
            tenant, graph_name, built_at, build_seconds, synced_at)
        VALUES (tenant, graph, '-infinity', 0, '-infinity')
        ON CONFLICT ON CONSTRAINT graph_projections_pkey DO NOTHING;
    EXCEPTION WHEN unique_violation THEN
        RAISE EXCEPTION 'the graph projection name % is taken by another tenant', graph
            USING ERRCODE = '55000', HINT = 'report this collision; the tenant needs a new name';
    END;
    PERFORM FROM @schema@_internal.graph_projections AS p
     WHERE p.tenant = lock_graph_projection.tenant FOR UPDATE;
    RETURN graph;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.lock_graph_projection(text) IS
'Lock (creating) the tenant''s graph_projections row; returns its graph''s name.';

CREATE OR REPLACE FUNCTION @schema@_internal.rebuild_graph_projection_of(tenant text)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    started timestamptz := pg_catalog.clock_timestamp();
    graph text := @schema@_internal.lock_graph_projection(tenant);
    seconds double precision;
BEGIN
    -- The log first, the rows after: what changes after the log is read stays logged.
    DELETE FROM @schema@_internal.graph_projection_changes AS c
     WHERE c.tenant = rebuild_graph_projection_of.tenant;
    -- A sound graph is emptied in place; a missing or broken one (re)created.
    IF @schema@_internal.graph_projection_state(graph) = 'ok' THEN
        EXECUTE pg_catalog.format('TRUNCATE %1$I.node, %1$I.edge', graph);
    ELSE
        PERFORM @schema@_internal.create_graph_projection(graph);
    END IF;
    PERFORM @schema@_internal.project_graph_rows(tenant, graph, NULL, NULL);
    seconds := EXTRACT(epoch FROM pg_catalog.clock_timestamp() - started);
    UPDATE @schema@_internal.graph_projections AS p
       SET built_at = pg_catalog.clock_timestamp(), synced_at = pg_catalog.clock_timestamp(),
           build_seconds = seconds, last_lag_seconds = NULL
     WHERE p.tenant = rebuild_graph_projection_of.tenant;
    RETURN pg_catalog.jsonb_build_object(
        'graph', graph, 'seconds', seconds,
        'nodes', (SELECT pg_catalog.count(*) FROM @schema@_internal.graph_nodes AS n
                   WHERE n.tenant = rebuild_graph_projection_of.tenant),
        'edges', (SELECT pg_catalog.count(*) FROM @schema@_internal.graph_edges AS e
                   WHERE e.tenant = rebuild_graph_projection_of.tenant));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.rebuild_graph_projection_of(text) IS
'Drop and rebuild the tenant''s projection from the graph tables (the tenant must be the '
'context''s); returns {graph, nodes, edges, seconds}.';

CREATE OR REPLACE FUNCTION @schema@.sync_graph_projection(max_changes integer DEFAULT 10000)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    caller_tenant text;
    graph text;
    oldest timestamptz;
    nodes bigint [];
    edges bigint [];
    taken integer;
BEGIN
    PERFORM @schema@_internal.require_kind('{facts_manager,operator}', 'sync_graph_projection');
    caller_tenant := @schema@_internal.context_tenant();
    max_changes := @schema@_internal.check_limit(max_changes, 'max_changes', 1, 100000);
    graph := @schema@_internal.lock_graph_projection(caller_tenant);
    IF @schema@_internal.graph_projection_state(graph) <> 'ok' THEN
        RETURN @schema@_internal.rebuild_graph_projection_of(caller_tenant) || '{"rebuilt": true}';
    END IF;
    WITH taken AS (
        DELETE FROM @schema@_internal.graph_projection_changes AS c
         WHERE c.tenant = caller_tenant
           AND c.change_id IN (SELECT l.change_id FROM @schema@_internal.graph_projection_changes AS l
                                WHERE l.tenant = caller_tenant
                                ORDER BY l.change_id LIMIT max_changes)
        RETURNING c.entity, c.entity_id, c.changed_at
    )
    SELECT pg_catalog.count(*), pg_catalog.min(t.changed_at),
           pg_catalog.array_agg(DISTINCT t.entity_id) FILTER (WHERE t.entity = 'node'),
           pg_catalog.array_agg(DISTINCT t.entity_id) FILTER (WHERE t.entity = 'edge')
      INTO taken, oldest, nodes, edges
      FROM taken AS t;
    IF taken > 0 THEN
        PERFORM @schema@_internal.project_graph_rows(caller_tenant, graph, coalesce(nodes, '{}'),
                                                     coalesce(edges, '{}'));
    END IF;
    UPDATE @schema@_internal.graph_projections AS p
       SET synced_at = pg_catalog.clock_timestamp(),
           last_lag_seconds = coalesce(
               EXTRACT(epoch FROM pg_catalog.clock_timestamp() - oldest),
               p.last_lag_seconds)
     WHERE p.tenant = caller_tenant;
    RETURN pg_catalog.jsonb_build_object('graph', graph, 'applied', taken,
        'lag_seconds', EXTRACT(epoch FROM pg_catalog.clock_timestamp() - oldest));
END
$fn$;

COMMENT ON FUNCTION @schema@.sync_graph_projection(integer) IS
'Facts manager, operator: apply up to max_changes (1..100000) of the caller''s tenant''s '
'logged graph changes to its AGE projection, oldest first (a missing or broken projection '
'is rebuilt instead). Run by `pgfacts worker --graph`. Returns {graph, applied, '
'lag_seconds} (the age of the oldest change applied) or a rebuild''s report.';
