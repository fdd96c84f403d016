-- Layer: 40_graph
--
-- The Apache AGE projection of each tenant's graph: a registry of the projections (one AGE
-- graph per tenant, named graph_projection_name_of(tenant) in sql/40_graph) and the change
-- log the graph's triggers fill and `pgfacts worker --graph` drains. The tables above
-- (0035) stay the truth; a projection is rebuilt from them at any time.
--
-- Runs as a superuser first: AGE 1.5 checks no privilege on Cypher SET, REMOVE, DELETE or
-- MERGE beyond SELECT on the label tables (tested in tests/test_graph_projection.py; a
-- READ ONLY transaction and triggers do not stop them either), but each of those clauses
-- runs through a marker function whose EXECUTE privilege is checked. Revoking them from
-- PUBLIC makes SELECT on a graph's label tables read-only access; the install's owner, which
-- builds the projections, keeps them. (Another application of this database that writes
-- through Cypher needs them granted to its own role.)
REVOKE EXECUTE ON FUNCTION ag_catalog._cypher_create_clause(internal),
    ag_catalog._cypher_set_clause(internal), ag_catalog._cypher_delete_clause(internal),
    ag_catalog._cypher_merge_clause(internal)
FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ag_catalog._cypher_create_clause(internal),
    ag_catalog._cypher_set_clause(internal), ag_catalog._cypher_delete_clause(internal),
    ag_catalog._cypher_merge_clause(internal)
TO @schema@_owner;

-- DBAs and auditors who run their own Cypher on a tenant's projection (docs/operations.md):
-- USAGE on ag_catalog here, USAGE and SELECT on each graph as it is built.
DO $roles$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = '@schema@_graph_reader') THEN
        CREATE ROLE @schema@_graph_reader NOLOGIN;
    END IF;
END
$roles$;
GRANT USAGE ON SCHEMA ag_catalog TO @schema@_graph_reader;
-- The projection's state (graph_projection_state) reads AGE's catalog: the owner when it
-- builds or verifies one, the maintainer when it lists every tenant's (the backlog).
GRANT USAGE ON SCHEMA ag_catalog TO @schema@_maintainer;
GRANT SELECT ON ag_catalog.ag_graph, ag_catalog.ag_label TO @schema@_owner, @schema@_maintainer;

SET LOCAL ROLE @schema@_owner;

-- One row per tenant whose projection exists: its graph's name (unique, so two tenants can
-- never share a graph), when it was last rebuilt and last brought up to date.
CREATE TABLE @schema@_internal.graph_projections (
    tenant text NOT NULL,
    graph_name text NOT NULL,
    built_at timestamptz NOT NULL,
    build_seconds double precision NOT NULL,
    synced_at timestamptz NOT NULL,
    -- The age of the oldest change the last drain applied, when it committed (seconds).
    last_lag_seconds double precision,
    CONSTRAINT graph_projections_pkey PRIMARY KEY (tenant),
    CONSTRAINT graph_projections_name_key UNIQUE (graph_name)
);
COMMENT ON TABLE @schema@_internal.graph_projections IS
'Each tenant''s AGE projection of its graph: the graph''s name, last rebuild and last sync';

-- Which nodes and edges changed since the projection last took them (triggers on
-- graph_nodes and graph_edges): the current row is projected, or its absence.
CREATE TABLE @schema@_internal.graph_projection_changes (
    tenant text NOT NULL,
    change_id bigint GENERATED ALWAYS AS IDENTITY,
    entity text NOT NULL,
    entity_id bigint NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT graph_projection_changes_pkey PRIMARY KEY (tenant, change_id),
    CONSTRAINT graph_projection_changes_entity CHECK (entity IN ('node', 'edge'))
);
COMMENT ON TABLE @schema@_internal.graph_projection_changes IS
'Graph nodes and edges changed since the tenant''s AGE projection last applied them';

ALTER TABLE @schema@_internal.graph_projections ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_projections FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_projection_changes ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_projection_changes FORCE ROW LEVEL SECURITY;

-- A graph written before this migration gets its projection built on the worker's first
-- pass: one logged change per tenant (a projection that is missing is rebuilt whole).
-- As the superuser again: the owner's policies would show it no tenant here.
RESET ROLE;
INSERT INTO @schema@_internal.graph_projection_changes (tenant, entity, entity_id)
SELECT
    n.tenant,
    'node' AS entity,
    pg_catalog.min(n.node_id) AS entity_id
FROM @schema@_internal.graph_nodes AS n
GROUP BY n.tenant;
