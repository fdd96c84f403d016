-- The Apache AGE projection: one graph per tenant, built from the graph tables (the truth)
-- and kept in step from the change log the triggers below fill. Structure and keys only:
-- a vertex per node {id, key, kind, namespace}, an edge per edge {id, predicate (its key),
-- confidence, namespace}; no name, alias, evidence or fact value. The graphid of a vertex
-- or an edge is its label's id and its node_id or edge_id, so a row is found, replaced and
-- checked by its id; the label tables get the indexes AGE 1.5 does not create.

CREATE OR REPLACE FUNCTION @schema@_internal.graph_projection_name_of(tenant text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- 80 bits of sha256 in hex: a valid AGE graph and schema name (at most 63 bytes) for any
    -- tenant name; graph_projections.graph_name is unique, so a collision is refused, never
    -- shared.
    SELECT '@schema@_g_' OPERATOR(pg_catalog.||) pg_catalog.left(pg_catalog.encode(
        pg_catalog.sha256(pg_catalog.convert_to(tenant, 'UTF8')), 'hex'), 20)
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_projection_name_of(text) IS
'The name of a tenant''s AGE graph (and its schema): <schema>_g_ and the first 20 hex '
'digits of sha256(tenant).';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_projection_state(graph text)
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- missing: no such graph; broken: its catalog row names a schema oid that is not its
    -- schema's (a dump and restore, apache/age#2503) or a label is gone; ok otherwise.
    SELECT CASE
        WHEN g.name IS NULL THEN 'missing'
        WHEN g.graphid <> g.namespace::oid
          OR (SELECT pg_catalog.count(*) FROM ag_catalog.ag_label AS l
               WHERE l.graph = g.graphid AND l.name IN ('node', 'edge')) <> 2 THEN 'broken'
        ELSE 'ok'
    END
      FROM (SELECT graph) AS want
      LEFT JOIN ag_catalog.ag_graph AS g ON g.name = want.graph::name
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_projection_state(text) IS
'missing, broken (apache/age#2503 after a restore, or a label dropped) or ok.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_node_properties(
    node_id bigint, node_key text, kind_key text, namespace text
) RETURNS jsonb
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
        'id', node_id, 'key', node_key, 'kind', kind_key, 'namespace', namespace))
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_node_properties(bigint, text, text, text) IS
'A node''s properties in the projection: id, key, kind (its key), namespace when set.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_edge_properties(
    edge_id bigint, predicate_key text, confidence double precision, namespace text
) RETURNS jsonb
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
        'id', edge_id, 'predicate', predicate_key, 'confidence', confidence,
        'namespace', namespace))
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_edge_properties(
    bigint, text, double precision, text) IS
'An edge''s properties in the projection: id, predicate (its key), confidence, namespace.';

CREATE OR REPLACE FUNCTION @schema@_internal.graphid_entry(id ag_catalog.graphid)
RETURNS bigint
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- A graphid is a label id (16 bits) and an entry (48 bits): here, a node_id or edge_id.
    SELECT ag_catalog.graphid_out(id)::text::bigint OPERATOR(pg_catalog.&) 281474976710655
$fn$;

COMMENT ON FUNCTION @schema@_internal.graphid_entry(ag_catalog.graphid) IS
'The entry of an AGE graphid (its low 48 bits): the projected node_id or edge_id.';

CREATE OR REPLACE FUNCTION @schema@_internal.graphid_label(id ag_catalog.graphid)
RETURNS integer
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT (ag_catalog.graphid_out(id)::text::bigint OPERATOR(pg_catalog.>>) 48)::integer
$fn$;

COMMENT ON FUNCTION @schema@_internal.graphid_label(ag_catalog.graphid) IS
'The label id of an AGE graphid (its high 16 bits).';

CREATE OR REPLACE FUNCTION @schema@_internal.create_graph_projection(graph text)
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, ag_catalog, pg_temp
AS $fn$
BEGIN
    -- Run as the owner (the graph and its tables are the owner's, so the lint, the schema
    -- file and \dn cover them). A graph that exists (broken or not) is dropped first.
    IF @schema@_internal.graph_projection_state(graph) <> 'missing' THEN
        PERFORM ag_catalog.drop_graph(graph::name, true);
    END IF;
    PERFORM ag_catalog.create_graph(graph::name);
    PERFORM ag_catalog.create_vlabel(graph::name, 'node'::name);
    PERFORM ag_catalog.create_elabel(graph::name, 'edge'::name);
    EXECUTE pg_catalog.format('CREATE UNIQUE INDEX node_id_key ON %I.node (id)', graph);
    EXECUTE pg_catalog.format(
        'CREATE INDEX node_properties_idx ON %I.node USING gin (properties)', graph);
    EXECUTE pg_catalog.format('CREATE UNIQUE INDEX edge_id_key ON %I.edge (id)', graph);
    EXECUTE pg_catalog.format('CREATE INDEX edge_start_idx ON %I.edge (start_id)', graph);
    EXECUTE pg_catalog.format('CREATE INDEX edge_end_idx ON %I.edge (end_id)', graph);
    EXECUTE pg_catalog.format(
        'CREATE INDEX edge_properties_idx ON %I.edge USING gin (properties)', graph);
    EXECUTE pg_catalog.format('COMMENT ON SCHEMA %I IS %L', graph,
        'pgfacts: the AGE projection of one tenant''s graph (rebuilt from the graph tables)');
    -- DBAs' and auditors' read-only Cypher (the write clauses' functions are revoked).
    EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA %I TO @schema@_graph_reader', graph);
    EXECUTE pg_catalog.format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO @schema@_graph_reader',
                              graph);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.create_graph_projection(text) IS
'(Re)create an empty projection graph: labels node and edge, their indexes, the reader grants.';

CREATE OR REPLACE FUNCTION @schema@_internal.project_graph_rows(
    tenant text, graph text, node_ids bigint [], edge_ids bigint []
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, ag_catalog, pg_temp
AS $fn$
DECLARE
    node_label integer := ag_catalog._label_id(graph::name, 'node'::name);
    edge_label integer := ag_catalog._label_id(graph::name, 'edge'::name);
BEGIN
    -- Replace the projected rows of these nodes and edges by their current rows (none for
    -- a row deleted since). NULL arrays: every row (a rebuild of an empty graph).
    IF node_ids IS NOT NULL THEN
        EXECUTE pg_catalog.format('DELETE FROM %I.node WHERE id = ANY ($1)', graph)
          USING ARRAY(SELECT ag_catalog._graphid(node_label, i) FROM pg_catalog.unnest(node_ids) AS i);
    END IF;
    IF edge_ids IS NOT NULL THEN
        EXECUTE pg_catalog.format('DELETE FROM %I.edge WHERE id = ANY ($1)', graph)
          USING ARRAY(SELECT ag_catalog._graphid(edge_label, i) FROM pg_catalog.unnest(edge_ids) AS i);
    END IF;
    EXECUTE pg_catalog.format(
        'INSERT INTO %I.node (id, properties) '
        'SELECT ag_catalog._graphid($1, n.node_id), @schema@_internal.graph_node_properties('
        '  n.node_id, n.node_key, n.kind_key, n.namespace)::text::ag_catalog.agtype '
        '  FROM @schema@_internal.graph_nodes AS n '
        ' WHERE n.tenant = $2 AND ($3 IS NULL OR n.node_id = ANY ($3))', graph)
      USING node_label, tenant, node_ids;
    EXECUTE pg_catalog.format(
        'INSERT INTO %I.edge (id, start_id, end_id, properties) '
        'SELECT ag_catalog._graphid($1, e.edge_id), ag_catalog._graphid($2, e.from_id), '
        '       ag_catalog._graphid($2, e.to_id), @schema@_internal.graph_edge_properties('
        '         e.edge_id, e.predicate_key, e.confidence, e.namespace)::text::ag_catalog.agtype '
        '  FROM @schema@_internal.graph_edges AS e '
        ' WHERE e.tenant = $3 AND ($4 IS NULL OR e.edge_id = ANY ($4))', graph)
      USING edge_label, node_label, tenant, edge_ids;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.project_graph_rows(text, text, bigint [], bigint []) IS
'Replace the projected vertices and edges of the given node and edge ids (NULL: all) by '
'their current rows.';
