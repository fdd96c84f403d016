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
    -- The edges that pass, ordered and limited, then the evidence of the stored ones among
    -- them in one query.
    RETURN QUERY
    WITH hits AS MATERIALIZED (
        SELECT x.* FROM (
        SELECT e.edge_id, f.node_key AS from_key, e.predicate, e.predicate_key,
               t.node_key AS to_key, e.confidence, e.observations, e.namespace,
               NULL::text [] AS evidence, e.asserted_by, e.first_seen, e.last_seen
          FROM @schema@_internal.graph_edges AS e
          JOIN @schema@_internal.graph_nodes AS f ON f.tenant = e.tenant AND f.node_id = e.from_id
          JOIN @schema@_internal.graph_nodes AS t ON t.tenant = e.tenant AND t.node_id = e.to_id
         WHERE e.tenant = reader.tenant
           AND (wanted_key IS NULL OR e.predicate_key = wanted_key)
           AND (from_key IS NULL OR f.node_key = from_key)
           AND (to_key IS NULL OR t.node_key = to_key)
           AND (min_confidence IS NULL OR e.confidence >= min_confidence)
           AND (@schema@_internal.namespace_matches(e.namespace, wanted_ns)
                OR @schema@_internal.namespace_matches(f.namespace, wanted_ns)
                OR @schema@_internal.namespace_matches(t.namespace, wanted_ns))
        -- Claim edges believed now and true now (72_claim_edges.sql): no namespace, evidence
        -- their claim, first and last seen the instant it was recorded.
        UNION ALL
        SELECT NULL::bigint, k.edge_from_key, k.edge_predicate, k.edge_predicate_key,
               k.edge_to_key, k.confidence, k.observations, NULL::text, k.evidence,
               '{}'::text [], k.first_seen, k.first_seen
          FROM @schema@_internal.current_claim_edges(reader.tenant, wanted_key, from_key, to_key,
                                                     min_confidence, "limit") AS k
         WHERE @schema@_internal.namespace_matches(NULL, wanted_ns)) AS x
         ORDER BY x.confidence DESC, x.from_key, x.predicate_key, x.to_key
         LIMIT "limit"
    )
    SELECT h.from_key, h.predicate, h.predicate_key, h.to_key, h.confidence, h.observations,
           h.namespace, coalesce(h.evidence, ev.evidence, '{}'),
           CASE WHEN h.edge_id IS NULL THEN '{}' ELSE coalesce(ev.stale_evidence, '{}') END,
           h.asserted_by, h.first_seen, h.last_seen
      FROM hits AS h
      LEFT JOIN @schema@_internal.graph_evidence_seen(reader.tenant, NULL,
                    ARRAY(SELECT x.edge_id FROM hits AS x WHERE x.edge_id IS NOT NULL),
                    reader.kind, reader.with_shared, reader.every_session, reader.sessions) AS ev
        ON ev.edge_id = h.edge_id
     ORDER BY h.confidence DESC, h.from_key, h.predicate_key, h.to_key;
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_search_edges(
    text, text, text, text, double precision, text, integer) IS
'Edges by predicate (keyed by predicate_key_of) or predicate_key (exact; both given must '
'agree), exact from_key and to_key, min_confidence (0..1), namespace (the edge or either '
'end, itself and below; default: none), at most limit (1..500, default 50), most confident '
'first. Evidence as the caller may see it. Claim edges (entity:<id> to entity:<id>, the '
'claims believed now and true now) are among them, in no namespace.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_edges_between(
    tenant text, nodes bigint [], kind text, with_shared boolean, every_session boolean,
    sessions text []
) RETURNS TABLE (from_key text, predicate_key text, to_key text, claim_id bigint, edge jsonb)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The stored edges with both ends among nodes, as graph_neighbourhood shows them
    -- (claim_id NULL: the sort keys of claim_edges_between), their evidence in one query.
    RETURN QUERY
    WITH found AS MATERIALIZED (
        SELECT e.edge_id, f.node_key AS from_key, e.predicate_key, t.node_key AS to_key,
               e.predicate, e.confidence, e.observations, e.namespace
          FROM @schema@_internal.graph_edges AS e
          JOIN @schema@_internal.graph_nodes AS f ON f.tenant = e.tenant AND f.node_id = e.from_id
          JOIN @schema@_internal.graph_nodes AS t ON t.tenant = e.tenant AND t.node_id = e.to_id
         -- The ends by their ids too: index scans of those, whatever plan is cached.
         WHERE e.tenant = graph_edges_between.tenant AND e.from_id = ANY (nodes)
           AND e.to_id = ANY (nodes) AND f.node_id = ANY (nodes) AND t.node_id = ANY (nodes)
    )
    SELECT b.from_key, b.predicate_key, b.to_key, NULL::bigint, pg_catalog.jsonb_build_object(
               'from_key', b.from_key, 'to_key', b.to_key, 'predicate', b.predicate,
               'predicate_key', b.predicate_key, 'confidence', b.confidence,
               'observations', b.observations, 'namespace', b.namespace,
               'evidence', pg_catalog.to_jsonb(coalesce(ev.evidence, '{}')),
               'stale_evidence', pg_catalog.to_jsonb(coalesce(ev.stale_evidence, '{}')))
      FROM found AS b
      LEFT JOIN @schema@_internal.graph_evidence_seen(graph_edges_between.tenant, NULL,
                    ARRAY(SELECT x.edge_id FROM found AS x), graph_edges_between.kind,
                    with_shared, every_session, sessions) AS ev
        ON ev.edge_id = b.edge_id;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_edges_between(
    text, bigint [], text, boolean, boolean, text []) IS
'The stored edges with both ends among nodes, each with its sort keys and its document as '
'graph_neighbourhood shows it (evidence as the reader sees it).';

-- valid_at and known_at came with the claim edges: the old signature goes.
DROP FUNCTION IF EXISTS @schema@.graph_neighbourhood(text, integer, text [], text, integer);
-- Which nodes a neighbourhood shows: the start nodes always, then the nearest others in the
-- namespace, up to limit, stored nodes (reached through stored edges by graph_reach) and
-- entity nodes (through the claim edges in view) alike. Inlined (no SET clause, every name
-- qualified), so the caller's cached generic plan covers it.
CREATE OR REPLACE FUNCTION @schema@_internal.neighbourhood_nodes(
    tenant text, reached bigint [], reached_hops integer [], entity_start bigint [],
    depth integer, valid_at timestamptz, known_at timestamptz, wanted_ns text, "limit" integer
) RETURNS TABLE (id bigint, distance integer, entity boolean, ord bigint)
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT x.id, x.distance, x.entity,
           pg_catalog.row_number() OVER (ORDER BY x.distance, x.key)
      FROM (SELECT u.id, u.distance, u.key, u.entity FROM (
                -- each stored node read by its id (OFFSET 0 keeps it an index probe per
                -- node, whatever plan is cached)
                SELECT r.node_id AS id, r.distance, n.node_key AS key, false AS entity
                  FROM ROWS FROM (pg_catalog.unnest(reached), pg_catalog.unnest(reached_hops))
                       AS r (node_id, distance)
                 CROSS JOIN LATERAL (
                       SELECT g.node_key, g.namespace FROM @schema@_internal.graph_nodes AS g
                        WHERE g.tenant = neighbourhood_nodes.tenant AND g.node_id = r.node_id
                       OFFSET 0) AS n
                 WHERE r.distance = 0 OR @schema@_internal.namespace_matches(n.namespace, wanted_ns)
                UNION ALL
                SELECT r.entity_id, r.distance, @schema@_internal.entity_node_key(r.entity_id), true
                  FROM @schema@_internal.claim_reach(neighbourhood_nodes.tenant, entity_start,
                                                     depth, valid_at, known_at) AS r
                 WHERE pg_catalog.cardinality(entity_start) > 0
                   AND (r.distance = 0 OR @schema@_internal.namespace_matches(NULL, wanted_ns))) AS u
             ORDER BY u.distance, u.key
             LIMIT "limit") AS x
$fn$;

COMMENT ON FUNCTION @schema@_internal.neighbourhood_nodes(
    text, bigint [], integer [], bigint [], integer, timestamptz, timestamptz, text, integer) IS
'The nodes a neighbourhood shows, in its order (inlined): the start nodes (distance 0), then '
'the nearest others in wanted_ns, stored and entity nodes alike, at most limit.';

CREATE OR REPLACE FUNCTION @schema@.graph_neighbourhood(
    node_key text DEFAULT NULL, depth integer DEFAULT 1, seeds text [] DEFAULT NULL,
    namespace text DEFAULT NULL, "limit" integer DEFAULT 100, valid_at timestamptz DEFAULT NULL,
    known_at timestamptz DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE  -- with known_at it waits for commits in progress, then reads with a fresh snapshot
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
-- Written so that one cached generic plan per statement serves every call, the helpers'
-- included (sets of ids read by index, branches switched by one-time filters): planning
-- them per call cost more than the read.
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_variable
DECLARE
    reader record := @schema@_internal.graph_reader();
    wanted_ns text := @schema@_internal.graph_namespace(namespace);
    starts text [] := pg_catalog.array_remove(node_key || coalesce(seeds, '{}'), NULL);
    start bigint [];
    entity_start bigint [] := '{}';
    reached bigint [];
    reached_hops integer [];
    chosen bigint [];
    hops integer [];
    of_entity boolean [];
    stored_ids bigint [];
    entity_ids bigint [];
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
    -- The one meaning of known_at: a future one is 22023, a past one waits for the commits
    -- being stamped, so the answer for it never changes.
    PERFORM @schema@_internal.settle_known_at(reader.tenant, known_at);
    start := @schema@_internal.seed_nodes(reader.tenant, starts, reader.kind, reader.with_shared,
                                          reader.every_session, reader.sessions);
    -- Claim edges start at entity:<id> and claim:<id> seeds only: without one, neither the
    -- claims' walk nor their edges are read (each gated by a one-time filter below).
    IF EXISTS (SELECT 1 FROM pg_catalog.unnest(starts) AS s
                WHERE pg_catalog.starts_with(s, 'entity:') OR pg_catalog.starts_with(s, 'claim:')) THEN
        entity_start := @schema@_internal.entity_seeds(reader.tenant, starts);
    END IF;
    -- Without a namespace every node reached counts, so the walk stops once limit nodes
    -- are known; neighbourhood_nodes then chooses what is shown (no edge joins stored and
    -- entity nodes).
    SELECT coalesce(pg_catalog.array_agg(r.node_id), '{}'), coalesce(pg_catalog.array_agg(r.distance), '{}')
      INTO reached, reached_hops
      FROM @schema@_internal.graph_reach(reader.tenant, start, depth,
                                         CASE WHEN wanted_ns IS NULL THEN "limit" END) AS r;
    SELECT coalesce(pg_catalog.array_agg(x.id ORDER BY x.ord), '{}'),
           coalesce(pg_catalog.array_agg(x.distance ORDER BY x.ord), '{}'),
           coalesce(pg_catalog.array_agg(x.entity ORDER BY x.ord), '{}')
      INTO chosen, hops, of_entity
      FROM @schema@_internal.neighbourhood_nodes(reader.tenant, reached, reached_hops,
                                                 entity_start, depth, valid_at, known_at,
                                                 wanted_ns, "limit") AS x;
    SELECT coalesce(pg_catalog.array_agg(u.id) FILTER (WHERE NOT u.entity), '{}'),
           coalesce(pg_catalog.array_agg(u.id) FILTER (WHERE u.entity), '{}')
      INTO stored_ids, entity_ids
      FROM ROWS FROM (pg_catalog.unnest(chosen), pg_catalog.unnest(of_entity)) AS u (id, entity);
    SELECT pg_catalog.jsonb_build_object(
        'nodes', (SELECT coalesce(pg_catalog.jsonb_agg(CASE WHEN c.entity
                      THEN @schema@_internal.entity_node_doc(reader.tenant, c.id, c.distance)
                      ELSE pg_catalog.jsonb_build_object(
                      'node_key', n.node_key, 'kind', n.kind, 'name', n.name,
                      'aliases', pg_catalog.to_jsonb(n.aliases), 'namespace', n.namespace,
                      'distance', c.distance,
                      'evidence', pg_catalog.to_jsonb(coalesce(ev.evidence, '{}')),
                      'stale_evidence', pg_catalog.to_jsonb(coalesce(ev.stale_evidence, '{}'))) END
                      ORDER BY c.position), '[]')
                    FROM ROWS FROM (pg_catalog.unnest(chosen), pg_catalog.unnest(hops),
                                    pg_catalog.unnest(of_entity))
                         WITH ORDINALITY AS c (id, distance, entity, position)
                    LEFT JOIN @schema@_internal.graph_nodes AS n
                      ON NOT c.entity AND n.tenant = reader.tenant AND n.node_id = c.id
                    LEFT JOIN @schema@_internal.graph_evidence_seen(reader.tenant, stored_ids, NULL,
                         reader.kind, reader.with_shared, reader.every_session, reader.sessions) AS ev
                      ON NOT c.entity AND ev.node_id = c.id),
        'edges', (SELECT coalesce(pg_catalog.jsonb_agg(y.edge
                      ORDER BY y.from_key, y.predicate_key, y.to_key, y.claim_id), '[]')
                    FROM (SELECT g.from_key, g.predicate_key, g.to_key, g.claim_id, g.edge
                     FROM @schema@_internal.graph_edges_between(reader.tenant,
                              stored_ids,
                              reader.kind, reader.with_shared, reader.every_session, reader.sessions) AS g
                   UNION ALL
                   SELECT k.from_key, k.predicate_key, k.to_key, k.claim_id, k.edge
                     FROM @schema@_internal.claim_edges_between(reader.tenant,
                              entity_ids, valid_at, known_at) AS k
                    WHERE pg_catalog.cardinality(entity_ids) > 0) AS y))
      INTO result;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_neighbourhood(
    text, integer, text [], text, integer, timestamptz, timestamptz) IS
'The nodes within depth (1..5) edges, either way, of node_key and seeds (node keys, entity '
'nodes entity:<id>, fact scope keys the caller may read, claim:<id>), the start nodes first '
'and then by distance, others only in namespace (when given), at most limit (1..1000, '
'default 100), and the edges between them, each with the evidence the caller may see: '
'{nodes: [{node_key, kind, name, aliases, namespace, distance, evidence, stale_evidence}], '
'edges: [{from_key, to_key, predicate, predicate_key, confidence, observations, namespace, '
'evidence, stale_evidence}]}. Claim edges join entity nodes: the claims with an entity '
'object believed at known_at and true at valid_at (both default now; a future known_at is '
'22023). An unknown start gives no nodes.';
