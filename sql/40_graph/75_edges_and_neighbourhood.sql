-- Edge search and neighbourhoods.

CREATE OR REPLACE FUNCTION @schema@.graph_search_edges(
    predicate text DEFAULT NULL, predicate_key text DEFAULT NULL, from_key text DEFAULT NULL,
    to_key text DEFAULT NULL, min_confidence double precision DEFAULT NULL,
    namespace text DEFAULT NULL, "limit" integer DEFAULT 50
) RETURNS TABLE (
    edge_from_key text, edge_predicate text, edge_predicate_key text, edge_to_key text,
    confidence double precision, observations integer, edge_namespace text, evidence text [],
    stale_evidence text [], asserted_by text [], first_seen timestamptz, last_seen timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    reader record := @schema@_internal.graph_reader();
    wanted_ns text := @schema@_internal.graph_namespace(namespace);
    wanted_key text := predicate_key;
BEGIN
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 500);
    -- Optional filters: NULL passes each check.
    PERFORM @schema@_internal.check_bytes(predicate_key, 'predicate_key', 400),
            @schema@_internal.check_bytes(from_key, 'from_key', 1024),
            @schema@_internal.check_bytes(to_key, 'to_key', 1024);
    IF min_confidence IS NOT NULL THEN
        PERFORM @schema@_internal.check_confidence(min_confidence, 'min_confidence');
    END IF;
    IF predicate IS NOT NULL THEN
        wanted_key := @schema@_internal.check_predicate(predicate);
        IF predicate_key IS NOT NULL AND predicate_key <> wanted_key THEN
            RAISE EXCEPTION 'predicate % has key %, not predicate_key %', @schema@_internal.shown(predicate),
                @schema@_internal.shown(wanted_key), @schema@_internal.shown(predicate_key)
                USING ERRCODE = '22023', HINT = 'pass one of them';
        END IF;
    END IF;
    RETURN QUERY
    SELECT f.node_key, e.predicate, e.predicate_key, t.node_key, e.confidence, e.observations,
           e.namespace, ev.evidence, ev.stale_evidence, e.asserted_by, e.first_seen, e.last_seen
      FROM @schema@_internal.graph_edges AS e
      JOIN @schema@_internal.graph_nodes AS f ON f.tenant = e.tenant AND f.node_id = e.from_id
      JOIN @schema@_internal.graph_nodes AS t ON t.tenant = e.tenant AND t.node_id = e.to_id
     CROSS JOIN LATERAL @schema@_internal.graph_evidence_of(reader.tenant, NULL, e.edge_id,
           reader.kind, reader.with_shared, reader.every_session, reader.sessions) AS ev
     WHERE e.tenant = reader.tenant
       AND (wanted_key IS NULL OR e.predicate_key = wanted_key)
       AND (from_key IS NULL OR f.node_key = from_key)
       AND (to_key IS NULL OR t.node_key = to_key)
       AND (min_confidence IS NULL OR e.confidence >= min_confidence)
       AND (@schema@_internal.namespace_matches(e.namespace, wanted_ns)
            OR @schema@_internal.namespace_matches(f.namespace, wanted_ns)
            OR @schema@_internal.namespace_matches(t.namespace, wanted_ns))
     ORDER BY e.confidence DESC, f.node_key, e.predicate_key, t.node_key
     LIMIT "limit";
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_search_edges(
    text, text, text, text, double precision, text, integer) IS
'Edges by predicate (keyed by predicate_key_of) or predicate_key (exact; both given must '
'agree), exact from_key and to_key, min_confidence (0..1), namespace (the edge or either '
'end, itself and below; default: none), at most limit (1..500, default 50), most confident '
'first. Evidence as the caller may see it.';

CREATE OR REPLACE FUNCTION @schema@.graph_neighbourhood(
    node_key text DEFAULT NULL, depth integer DEFAULT 1, seeds text [] DEFAULT NULL,
    namespace text DEFAULT NULL, "limit" integer DEFAULT 100
) RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    reader record := @schema@_internal.graph_reader();
    wanted_ns text := @schema@_internal.graph_namespace(namespace);
    start bigint [];
    chosen bigint [];
    hops integer [];
    result jsonb;
BEGIN
    depth := @schema@_internal.check_limit(depth, 'depth', 1, 5);
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 1000);
    IF node_key IS NULL AND coalesce(pg_catalog.cardinality(seeds), 0) = 0 THEN
        RAISE EXCEPTION 'graph_neighbourhood needs node_key or seeds' USING ERRCODE = '22023';
    END IF;
    IF node_key IS NOT NULL THEN
        PERFORM @schema@_internal.check_node_key(node_key, 'node_key');
    END IF;
    start := @schema@_internal.seed_nodes(reader.tenant,
        pg_catalog.array_remove(node_key || coalesce(seeds, '{}'), NULL),
                                          reader.kind, reader.with_shared, reader.every_session,
                                          reader.sessions);
    -- The start nodes always, then the nearest others in the namespace, up to limit nodes.
    SELECT coalesce(pg_catalog.array_agg(x.node_id ORDER BY x.distance, x.node_key), '{}'),
           coalesce(pg_catalog.array_agg(x.distance ORDER BY x.distance, x.node_key), '{}')
      INTO chosen, hops
      FROM (SELECT r.node_id, r.distance, n.node_key
              FROM @schema@_internal.graph_reach(reader.tenant, start, depth) AS r
              JOIN @schema@_internal.graph_nodes AS n ON n.tenant = reader.tenant AND n.node_id = r.node_id
             WHERE r.distance = 0 OR @schema@_internal.namespace_matches(n.namespace, wanted_ns)
             ORDER BY r.distance, n.node_key
             LIMIT "limit") AS x;
    SELECT pg_catalog.jsonb_build_object(
        'nodes', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                      'node_key', n.node_key, 'kind', n.kind, 'name', n.name,
                      'aliases', pg_catalog.to_jsonb(n.aliases), 'namespace', n.namespace,
                      'distance', c.distance, 'evidence', pg_catalog.to_jsonb(ev.evidence),
                      'stale_evidence', pg_catalog.to_jsonb(ev.stale_evidence)) ORDER BY c.position), '[]')
                    FROM ROWS FROM (pg_catalog.unnest(chosen), pg_catalog.unnest(hops))
                         WITH ORDINALITY AS c (node_id, distance, position)
                    JOIN @schema@_internal.graph_nodes AS n ON n.tenant = reader.tenant AND n.node_id = c.node_id
                   CROSS JOIN LATERAL @schema@_internal.graph_evidence_of(reader.tenant, n.node_id, NULL,
                         reader.kind, reader.with_shared, reader.every_session, reader.sessions) AS ev),
        'edges', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                      'from_key', f.node_key, 'to_key', t.node_key, 'predicate', e.predicate,
                      'predicate_key', e.predicate_key, 'confidence', e.confidence,
                      'observations', e.observations, 'namespace', e.namespace,
                      'evidence', pg_catalog.to_jsonb(ev.evidence),
                      'stale_evidence', pg_catalog.to_jsonb(ev.stale_evidence))
                      ORDER BY f.node_key, e.predicate_key, t.node_key), '[]')
                    FROM @schema@_internal.graph_edges AS e
                    JOIN @schema@_internal.graph_nodes AS f ON f.tenant = e.tenant AND f.node_id = e.from_id
                    JOIN @schema@_internal.graph_nodes AS t ON t.tenant = e.tenant AND t.node_id = e.to_id
                   CROSS JOIN LATERAL @schema@_internal.graph_evidence_of(reader.tenant, NULL, e.edge_id,
                         reader.kind, reader.with_shared, reader.every_session, reader.sessions) AS ev
                   WHERE e.tenant = reader.tenant AND e.from_id = ANY (chosen) AND e.to_id = ANY (chosen)))
      INTO result;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_neighbourhood(text, integer, text [], text, integer) IS
'The nodes within depth (1..5) edges, either way, of node_key and seeds (node keys, fact '
'scope keys the caller may read, claim:<id>), the start nodes first and then by distance, '
'others only in namespace (when given), at most limit (1..1000, default 100), and the edges '
'between them, each with the evidence the caller may see: {nodes: [{node_key, kind, name, '
'aliases, namespace, distance, evidence, stale_evidence}], edges: [{from_key, to_key, '
'predicate, predicate_key, confidence, observations, namespace, evidence, '
'stale_evidence}]}. An unknown start gives no nodes.';
