-- Row level security for the graph tables: every row belongs to the caller's tenant.

SELECT @schema@_internal.isolate_tenants(ARRAY[
    'graph_nodes', 'graph_node_names', 'graph_edges', 'graph_node_evidence', 'graph_edge_evidence',
    'graph_projections', 'graph_projection_changes'
]);

-- Raw SELECT (tuner, operator) shows the evidence keys read_facts would show the kind: a
-- fact source whose key the kind may not read (readable_by) is hidden, as in facts.
DROP POLICY IF EXISTS readable_sources ON @schema@_internal.graph_node_evidence;
CREATE POLICY readable_sources ON @schema@_internal.graph_node_evidence AS RESTRICTIVE FOR SELECT
    TO @schema@_tuner, @schema@_operator
    USING (pg_catalog.starts_with(source, 'claim:')
           OR @schema@_internal.readable_by(@schema@_internal.scope_key_key(source),
                                            (SELECT @schema@_internal.context_kind())));

DROP POLICY IF EXISTS readable_sources ON @schema@_internal.graph_edge_evidence;
CREATE POLICY readable_sources ON @schema@_internal.graph_edge_evidence AS RESTRICTIVE FOR SELECT
    TO @schema@_tuner, @schema@_operator
    USING (pg_catalog.starts_with(source, 'claim:')
           OR @schema@_internal.readable_by(@schema@_internal.scope_key_key(source),
                                            (SELECT @schema@_internal.context_kind())));
