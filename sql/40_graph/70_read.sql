-- Reading the graph: seeds, reach by depth, node and edge search, neighbourhoods. Topology
-- is shared within a tenant; evidence is filtered per reader (evidence_seen).

CREATE OR REPLACE FUNCTION @schema@_internal.seed_nodes(
    tenant text, seeds text [], kind text, with_shared boolean, every_session boolean,
    sessions text []
) RETURNS bigint []
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    sources text [];
    keys text [];
    found_ids bigint [];
BEGIN
    -- A seed is a fact scope key or claim:<id> (pivoting through the evidence that cites
    -- it), or else a node key (through node names). A fact the reader may not read is
    -- dropped before any lookup, so it answers exactly as an unknown one: nothing.
    IF pg_catalog.cardinality(seeds) > 100 THEN
        RAISE EXCEPTION 'seeds holds at most 100 items, not %', pg_catalog.cardinality(seeds)
            USING ERRCODE = '22023', HINT = 'see "Limits" in docs/errors.md';
    END IF;
    IF EXISTS (SELECT 1 FROM pg_catalog.unnest(seeds) AS s
                WHERE s IS NULL OR s = '' OR pg_catalog.octet_length(s) > 1300) THEN
        RAISE EXCEPTION 'a seed is a node key, a fact scope key or claim:<id> of at most 1300 bytes'
            USING ERRCODE = '22023';
    END IF;
    -- Node keys alone (a neighbourhood's node_key): their names are all there is to read.
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.unnest(seeds) AS s
                    WHERE pg_catalog.starts_with(s, 'shared:') OR pg_catalog.starts_with(s, 'session:')
                       OR pg_catalog.starts_with(s, 'claim:')) THEN
        RETURN ARRAY(SELECT DISTINCT n.node_id FROM @schema@_internal.graph_node_names AS nm
                       JOIN @schema@_internal.graph_nodes AS n
                         ON n.tenant = nm.tenant AND n.node_key = nm.node_key
                      WHERE nm.tenant = seed_nodes.tenant AND nm.name_key = ANY (seeds));
    END IF;
    SELECT pg_catalog.array_agg(s) FILTER (WHERE pg_catalog.starts_with(s, 'shared:')
                                          OR pg_catalog.starts_with(s, 'session:')),
           pg_catalog.array_agg(s) FILTER (WHERE NOT (pg_catalog.starts_with(s, 'shared:')
                                          OR pg_catalog.starts_with(s, 'session:')
                                          OR pg_catalog.starts_with(s, 'claim:')))
      INTO sources, keys FROM pg_catalog.unnest(seeds) AS s;
    sources := ARRAY(SELECT s FROM pg_catalog.unnest(sources) AS s
                      WHERE @schema@_internal.fact_source_readable(s, kind, with_shared,
                                                                   every_session, sessions))
            || ARRAY(SELECT c.source FROM pg_catalog.unnest(seeds) AS s,
                            LATERAL @schema@_internal.claim_source(tenant, s) AS c
                      WHERE pg_catalog.starts_with(s, 'claim:') AND c.source IS NOT NULL);
    SELECT pg_catalog.array_agg(DISTINCT x.node_id) INTO found_ids FROM (
        SELECT n.node_id FROM @schema@_internal.graph_node_names AS nm
          JOIN @schema@_internal.graph_nodes AS n ON n.tenant = nm.tenant AND n.node_key = nm.node_key
         WHERE nm.tenant = seed_nodes.tenant AND nm.name_key = ANY (keys)
        UNION ALL
        SELECT v.node_id FROM @schema@_internal.graph_node_evidence AS v
         WHERE v.tenant = seed_nodes.tenant AND v.source = ANY (sources)
        UNION ALL
        SELECT u.node_id FROM @schema@_internal.graph_edge_evidence AS v
          JOIN @schema@_internal.graph_edges AS e ON e.tenant = v.tenant AND e.edge_id = v.edge_id
         CROSS JOIN LATERAL (VALUES (e.from_id), (e.to_id)) AS u (node_id)
         WHERE v.tenant = seed_nodes.tenant AND v.source = ANY (sources)) AS x;
    RETURN coalesce(found_ids, '{}');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.seed_nodes(text, text [], text, boolean, boolean, text []) IS
'The nodes seeds name: node keys through node names; fact scope keys the reader may read '
'(others dropped before any lookup, like unknown ones) and claim:<id> through the node and '
'edge evidence citing them. At most 100 seeds.';

-- enough came with the neighbourhood's early stop: the old signature goes.
DROP FUNCTION IF EXISTS @schema@_internal.graph_reach(text, bigint [], integer);
CREATE OR REPLACE FUNCTION @schema@_internal.graph_reach(
    tenant text, start bigint [], depth integer, enough integer DEFAULT NULL
) RETURNS TABLE (node_id bigint, distance integer)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    seen bigint [] := ARRAY(SELECT DISTINCT s FROM pg_catalog.unnest(start) AS s);
    frontier bigint [] := seen;
    hop integer := 0;
BEGIN
    -- Breadth first over edges in both directions, each node at its shortest distance; with
    -- enough, no further hop once that many nodes are known (a reader that keeps the
    -- nearest enough, by distance, needs none farther). The new frontier is the neighbours
    -- less the nodes seen, as a set difference (hashed), not a search of seen per neighbour.
    RETURN QUERY SELECT s, 0 FROM pg_catalog.unnest(seen) AS s;
    WHILE hop < depth AND pg_catalog.cardinality(frontier) > 0
          AND (enough IS NULL OR pg_catalog.cardinality(seen) < enough) LOOP
        hop := hop + 1;
        frontier := ARRAY(
            SELECT x.id FROM (
                SELECT e.to_id AS id FROM @schema@_internal.graph_edges AS e
                 WHERE e.tenant = graph_reach.tenant AND e.from_id = ANY (frontier)
                UNION ALL
                SELECT e.from_id FROM @schema@_internal.graph_edges AS e
                 WHERE e.tenant = graph_reach.tenant AND e.to_id = ANY (frontier)) AS x
            EXCEPT
            SELECT s FROM pg_catalog.unnest(seen) AS s);
        seen := seen || frontier;
        RETURN QUERY SELECT s, hop FROM pg_catalog.unnest(frontier) AS s;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_reach(text, bigint [], integer, integer) IS
'The nodes within depth edges (either direction) of start, each with its shortest distance '
'(0 for start); with enough, no hop further once at least that many are found.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_reader(
    OUT tenant text, OUT kind text, OUT with_shared boolean, OUT every_session boolean,
    OUT sessions text []
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    access record := @schema@_internal.reader_visibility('accessible');
BEGIN
    -- Every graph read: the checked tenant and what read_facts shows the reader.
    tenant := @schema@_internal.context_tenant();
    kind := access.kind;
    with_shared := access.with_shared;
    every_session := access.every_session;
    sessions := access.sessions;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_reader() IS
'The caller of a graph read: its tenant, kind and fact visibility (scope accessible).';

-- Replaced by graph_evidence_seen (60_evidence.sql): the evidence of every row a read
-- returns in one query, after its limit, instead of a call per row before it.
DROP FUNCTION IF EXISTS @schema@_internal.graph_evidence_of(
    text, bigint, bigint, text, boolean, boolean, text []);

SET LOCAL ROLE @schema@_searcher;

CREATE OR REPLACE FUNCTION @schema@_internal.graph_name_candidates(
    for_tenant text, pattern text, lim integer
) RETURNS TABLE (node_key text)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Under row level security LIKE (not leakproof) could not use the names' trigram index
    -- (graph_node_names_name_trgm_idx): the searcher bypasses it and names the tenant
    -- itself. strpos rechecks the literal substring (LIKE's escapes apart). lim: the first
    -- that many by key (a search with no other filter keeps no more); the names are found
    -- first (MATERIALIZED), so the limit never turns the plan into a walk of the tenant's
    -- names in key order that stops at the lim-th match.
    WITH found AS MATERIALIZED (
        SELECT nm.node_key FROM @schema@_internal.graph_node_names AS nm
         WHERE nm.tenant = for_tenant
           AND pg_catalog.substr(nm.name_key, pg_catalog.strpos(nm.name_key, ':') + 1)
               LIKE '%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
                               pattern, '\', '\\'), '%', '\%'), '_', '\_') || '%'
           AND pg_catalog.strpos(pg_catalog.substr(nm.name_key,
                                                   pg_catalog.strpos(nm.name_key, ':') + 1), pattern) > 0
    )
    SELECT DISTINCT f.node_key FROM found AS f ORDER BY 1 LIMIT lim
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_name_candidates(text, text, integer) IS
'The keys of the nodes of a tenant with a name or alias whose normalised name holds pattern '
'literally, the first lim by key (NULL: all; owner only: the tenant is an argument).';

SET LOCAL ROLE @schema@_owner;

CREATE OR REPLACE FUNCTION @schema@.graph_search_nodes(
    kind text DEFAULT NULL, name_like text DEFAULT NULL, namespace text DEFAULT NULL,
    seeds text [] DEFAULT NULL, depth integer DEFAULT 1, "limit" integer DEFAULT 50
) RETURNS TABLE (
    node_key text, node_kind text, node_name text, aliases text [], node_namespace text,
    distance integer,
    evidence text [], stale_evidence text [], created_by text, created_at timestamptz,
    updated_at timestamptz
)
LANGUAGE plpgsql
STABLE
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
    wanted_kind text;
    pattern text;
    start bigint [];
    reached bigint [];
    hops integer [];
    named text [];
BEGIN
    depth := @schema@_internal.check_limit(depth, 'depth', 1, 5);
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 500);
    PERFORM @schema@_internal.check_text(kind, 'kind', 100), @schema@_internal.check_text(name_like, 'name_like', 500);
    wanted_kind := NULLIF(@schema@_internal.graph_kind_key(kind), '');
    pattern := NULLIF(pg_catalog.replace(@schema@_internal.normalize_graph_name(name_like), ' ', '-'), '');
    IF pg_catalog.cardinality(seeds) > 0 THEN
        start := @schema@_internal.seed_nodes(reader.tenant, seeds, reader.kind, reader.with_shared,
                                              reader.every_session, reader.sessions);
        SELECT coalesce(pg_catalog.array_agg(r.node_id), '{}'), coalesce(pg_catalog.array_agg(r.distance), '{}')
          INTO reached, hops FROM @schema@_internal.graph_reach(reader.tenant, start, depth) AS r;
    END IF;
    IF pattern IS NOT NULL THEN
        -- With no other filter, the first limit names by key are the answer's nodes.
        named := ARRAY(SELECT c.node_key FROM @schema@_internal.graph_name_candidates(reader.tenant,
                           pattern, CASE WHEN start IS NULL AND wanted_kind IS NULL
                                              AND wanted_ns IS NULL THEN "limit" END) AS c);
    END IF;
    -- The nodes the seeds reach, else those the name matches, else every node: each branch
    -- gated by a one-time filter and found by its own index (a generic plan then never
    -- joins a set of ids to the tenant's whole table), filtered, ordered and limited;
    -- then the evidence of those alone, in one query.
    RETURN QUERY
    WITH hits AS MATERIALIZED (
        SELECT p.* FROM (
            SELECT n.node_id, n.node_key, n.kind, n.kind_key, n.name, n.aliases, n.namespace,
                   u.distance, n.created_by, n.created_at, n.updated_at
              FROM @schema@_internal.graph_nodes AS n
              JOIN ROWS FROM (pg_catalog.unnest(reached), pg_catalog.unnest(hops)) AS u (id, distance)
                ON u.id = n.node_id
             WHERE start IS NOT NULL AND n.tenant = reader.tenant AND n.node_id = ANY (reached)
            UNION ALL
            SELECT n.node_id, n.node_key, n.kind, n.kind_key, n.name, n.aliases, n.namespace,
                   NULL::integer, n.created_by, n.created_at, n.updated_at
              FROM @schema@_internal.graph_nodes AS n
             WHERE start IS NULL AND named IS NOT NULL
               AND n.tenant = reader.tenant AND n.node_key = ANY (named)
            UNION ALL
            SELECT n.node_id, n.node_key, n.kind, n.kind_key, n.name, n.aliases, n.namespace,
                   NULL::integer, n.created_by, n.created_at, n.updated_at
              FROM @schema@_internal.graph_nodes AS n
             WHERE start IS NULL AND named IS NULL AND n.tenant = reader.tenant) AS p
         WHERE (wanted_kind IS NULL OR p.kind_key = wanted_kind)
           AND @schema@_internal.namespace_matches(p.namespace, wanted_ns)
           AND (pattern IS NULL OR p.node_key = ANY (named))
         ORDER BY p.distance NULLS FIRST, p.node_key
         LIMIT "limit"
    )
    SELECT h.node_key, h.kind, h.name, h.aliases, h.namespace, h.distance,
           coalesce(ev.evidence, '{}'), coalesce(ev.stale_evidence, '{}'), h.created_by,
           h.created_at, h.updated_at
      FROM hits AS h
      LEFT JOIN @schema@_internal.graph_evidence_seen(reader.tenant,
                    ARRAY(SELECT x.node_id FROM hits AS x), NULL, reader.kind,
                    reader.with_shared, reader.every_session, reader.sessions) AS ev
        ON ev.node_id = h.node_id
     ORDER BY h.distance NULLS FIRST, h.node_key;
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_search_nodes(text, text, text, text [], integer, integer) IS
'Nodes by kind (normalised), name_like (a literal, normalised substring of the name or an '
'alias), namespace (itself and below; default: none) and seeds (node keys, fact scope keys '
'the caller may read, claim:<id>, expanded depth 1..5 edges either way, distance 0 for the '
'seeds themselves), at most limit (1..500, default 50). Evidence as the caller may see it. '
'22023 for depth or limit out of range.';
