-- Graph grants: every kind reads the graph (topology is shared within a tenant, evidence
-- filtered per reader); writers (every kind but the tuner) write it; the crawl's
-- reconciliation is the crawler's and the facts manager's, as the crawl queue is; the
-- statistics are for the kinds that see the whole tenant. The tools are in 95_tools.sql.

SELECT @schema@_internal.register_api('@schema@.graph_upsert_node(text,text,text,text[],text[])',
                                      @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api(
    '@schema@.graph_upsert_edge(text,text,text,text,double precision,text[])',
    @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.graph_merge_nodes(text,text,text,text)',
                                      @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.graph_delete_node(text,text)',
                                      @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.graph_delete_edge(text,text,text,text)',
                                      @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.graph_remove_evidence(text,text)',
                                      '{facts_manager,crawler}');

SELECT @schema@_internal.register_api(
    '@schema@.graph_search_nodes(text,text,text,text[],integer,integer)',
    @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api(
    '@schema@.graph_search_edges(text,text,text,text,double precision,text,integer)',
    @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api(
    '@schema@.graph_neighbourhood(text,integer,text[],text,integer,timestamptz,timestamptz)',
    @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.graph_stats(text)', '{facts_manager,tuner,operator}');

-- The AGE projection (82..88): its name and named Cypher for every kind; sync and rebuild
-- for the kinds that maintain a tenant's data; verify also for the tuner; the backlog
-- crosses tenants (operator, as run_maintenance).
SELECT @schema@_internal.register_api('@schema@.graph_projection_name()',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.graph_cypher(text,jsonb)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.sync_graph_projection(integer)',
                                      '{facts_manager,operator}');
SELECT @schema@_internal.register_api('@schema@.rebuild_graph_projection()',
                                      '{facts_manager,operator}');
SELECT @schema@_internal.register_api('@schema@.verify_graph_projection()',
                                      '{facts_manager,tuner,operator}');
SELECT @schema@_internal.register_api('@schema@.graph_projection_backlog()', '{operator}');
GRANT SELECT ON @schema@_internal.graph_projections, @schema@_internal.graph_projection_changes
TO @schema@_maintainer;

-- Read-only table access for audits; row level security keeps it to the caller's tenant.
GRANT SELECT ON @schema@_internal.graph_nodes, @schema@_internal.graph_node_names,
    @schema@_internal.graph_edges, @schema@_internal.graph_node_evidence,
    @schema@_internal.graph_edge_evidence
TO @schema@_tuner, @schema@_operator;

-- The searcher's function of the graph (graph_name_candidates, 70_read.sql) reads the
-- node names; like its others, only the owner may run it.
GRANT SELECT ON @schema@_internal.graph_node_names TO @schema@_searcher;
SET LOCAL ROLE @schema@_searcher;
REVOKE ALL ON FUNCTION @schema@_internal.graph_name_candidates(text, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @schema@_internal.graph_name_candidates(text, text, integer) TO @schema@_owner;
SET LOCAL ROLE @schema@_owner;

SELECT @schema@_internal.grant_internal_functions();
