-- Layer: 40_graph
--
-- graph_search_nodes' name_like is a literal substring of a node's normalised name or
-- alias (the part of its name key after the kind). A trigram index on that part, led by
-- the tenant (btree_gin), lets graph_name_candidates (the searcher's, sql/40_graph/70_read.sql)
-- find the few names that hold it instead of reading every name of the tenant: measured by
-- bench/graph.py (100,000 nodes of one tenant among five).
SET LOCAL ROLE @schema@_owner;

CREATE INDEX graph_node_names_name_trgm_idx ON @schema@_internal.graph_node_names
    USING gin (tenant, (pg_catalog.substr(name_key, pg_catalog.strpos(name_key, ':') + 1))
    public.gin_trgm_ops);

-- graph_neighbourhood orders the nodes it reaches by distance and key and keeps the
-- nearest: it reads each one's key (and namespace, for the namespace filter) by its id, a
-- thousand of them for a node next to a hub. Held in an index with the id, they are read
-- from the index alone, not from a heap page per node.
CREATE INDEX graph_nodes_id_key_idx ON @schema@_internal.graph_nodes (tenant, node_id)
    INCLUDE (node_key, namespace);

-- The walk's step against the edges' direction reads each edge's start by its end: held
-- in the index, the step reads no heap page per edge (the forward step reads the edges'
-- unique key, which holds both ends already).
DROP INDEX @schema@_internal.graph_edges_to_idx;
CREATE INDEX graph_edges_to_idx ON @schema@_internal.graph_edges (tenant, to_id) INCLUDE (from_id);
