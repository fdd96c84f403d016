-- graph_stats: the graph in numbers with the crawl backlog, computed in one function so
-- the kinds that may not read the crawl queue (the tuner) still get it.

CREATE OR REPLACE FUNCTION @schema@.graph_stats(namespace text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    kind text := @schema@_internal.require_kind(ARRAY['facts_manager', 'tuner', 'operator'], 'graph_stats');
    tenant text := @schema@_internal.context_tenant();
    wanted_ns text := @schema@_internal.graph_namespace(namespace);
    prefix text := NULLIF(wanted_ns, 'default');
    result jsonb;
BEGIN
    SELECT pg_catalog.jsonb_build_object(
        'namespace', wanted_ns,
        'node_count', (SELECT pg_catalog.count(*) FROM @schema@_internal.graph_nodes AS n
                        WHERE n.tenant = tenant
                          AND @schema@_internal.namespace_matches(n.namespace, wanted_ns)),
        'edge_count', (SELECT pg_catalog.count(*) FROM @schema@_internal.graph_edges AS e
                         JOIN @schema@_internal.graph_nodes AS f ON f.tenant = e.tenant AND f.node_id = e.from_id
                         JOIN @schema@_internal.graph_nodes AS t ON t.tenant = e.tenant AND t.node_id = e.to_id
                        WHERE e.tenant = tenant
                          AND (@schema@_internal.namespace_matches(e.namespace, wanted_ns)
                               OR @schema@_internal.namespace_matches(f.namespace, wanted_ns)
                               OR @schema@_internal.namespace_matches(t.namespace, wanted_ns))),
        -- The facts under the namespace as a key path (itself and below, never a sibling
        -- that only shares its characters), tombstones included: what a crawler still owes.
        'uncrawled_facts', q.uncrawled, 'last_crawled_at', q.last_crawled)
      INTO result
      FROM (SELECT pg_catalog.count(*) FILTER (WHERE f.last_crawled_at IS NULL) AS uncrawled,
                   pg_catalog.max(f.last_crawled_at) AS last_crawled
              FROM @schema@_internal.facts AS f
             WHERE f.tenant = tenant AND @schema@_internal.readable_by(f.key, kind)
               AND (prefix IS NULL OR f.key = prefix OR pg_catalog.starts_with(f.key, prefix || '/'))) AS q;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_stats(text) IS
'Facts manager, tuner, operator: node and edge counts in namespace (itself and below; an '
'edge through itself or either end; default: no namespace; omitted: all), and the crawl '
'backlog under it as a key path: uncrawled_facts (tombstones included) and last_crawled_at. '
'Returns {namespace, node_count, edge_count, uncrawled_facts, last_crawled_at}.';
