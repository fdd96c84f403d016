-- Evidence: removing a source (a crawler reconciling a deleted fact or claim), and how a
-- reader sees evidence, filtered by the one fact-visibility rule.

CREATE OR REPLACE FUNCTION @schema@_internal.removal_source(
    tenant text, ref text, kind text, with_shared boolean, every_session boolean, sessions text []
) RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.starts_with(ref, 'claim:') THEN
        -- An unknown claim id strips nothing (no source has that name).
        RETURN coalesce((@schema@_internal.claim_source(tenant, ref)).source, ref);
    END IF;
    IF ref IS NULL OR NOT @schema@_internal.scope_key_ok(ref) THEN
        RAISE EXCEPTION 'scope_key % is neither a fact scope key nor a claim', @schema@_internal.shown(ref)
            USING ERRCODE = '22023', HINT = 'shared:<key>, session:<session id>:<key> or claim:<claim id>';
    END IF;
    IF NOT @schema@_internal.fact_source_readable(ref, kind, with_shared, every_session, sessions) THEN
        RAISE EXCEPTION 'scope_key % names a fact you may not read', @schema@_internal.shown(ref)
            USING ERRCODE = '42501';
    END IF;
    RETURN ref;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.removal_source(text, text, text, boolean, boolean, text []) IS
'The evidence source graph_remove_evidence strips: a readable fact scope key (42501 '
'otherwise, from the key alone), or claim:<id> as its assertion.';

CREATE OR REPLACE FUNCTION @schema@.graph_remove_evidence(scope_key text, namespace text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    kind text := @schema@_internal.require_kind(ARRAY['facts_manager', 'crawler'], 'graph_remove_evidence');
    caller record := @schema@_internal.graph_writer();
    wanted_ns text := @schema@_internal.graph_namespace(namespace);
    source text := @schema@_internal.removal_source(caller.tenant, scope_key, kind,
                       caller.with_shared, caller.every_session, caller.sessions);
    nodes bigint [];
    edges bigint [];
    counts integer [] := ARRAY[0, 0, 0, 0];
    n integer;
BEGIN
    -- The nodes it touches (anchored by it, or ends of an edge it supports), locked in id
    -- order before any edge, as every graph writer does.
    SELECT pg_catalog.array_agg(DISTINCT x.node_id) INTO nodes FROM (
        SELECT v.node_id FROM @schema@_internal.graph_node_evidence AS v
         WHERE v.tenant = caller.tenant AND v.source = source
        UNION ALL
        SELECT u.node_id FROM @schema@_internal.graph_edge_evidence AS v
          JOIN @schema@_internal.graph_edges AS e ON e.tenant = v.tenant AND e.edge_id = v.edge_id
         CROSS JOIN LATERAL (VALUES (e.from_id), (e.to_id)) AS u (node_id)
         WHERE v.tenant = caller.tenant AND v.source = source) AS x;
    PERFORM 1 FROM @schema@_internal.graph_nodes AS g
     WHERE g.tenant = caller.tenant AND g.node_id = ANY (nodes) ORDER BY g.node_id FOR UPDATE;
    DELETE FROM @schema@_internal.graph_node_evidence AS v
     USING @schema@_internal.graph_nodes AS g
     WHERE v.tenant = caller.tenant AND v.source = source
       AND g.tenant = v.tenant AND g.node_id = v.node_id
       AND @schema@_internal.namespace_matches(g.namespace, wanted_ns);
    GET DIAGNOSTICS n = ROW_COUNT;
    counts[1] := n;
    WITH stripped AS (
        DELETE FROM @schema@_internal.graph_edge_evidence AS v
         USING @schema@_internal.graph_edges AS e, @schema@_internal.graph_nodes AS f,
               @schema@_internal.graph_nodes AS t
         WHERE v.tenant = caller.tenant AND v.source = source
           AND e.tenant = v.tenant AND e.edge_id = v.edge_id
           AND f.tenant = e.tenant AND f.node_id = e.from_id
           AND t.tenant = e.tenant AND t.node_id = e.to_id
           AND (@schema@_internal.namespace_matches(e.namespace, wanted_ns)
                OR @schema@_internal.namespace_matches(f.namespace, wanted_ns)
                OR @schema@_internal.namespace_matches(t.namespace, wanted_ns))
        RETURNING v.edge_id
    )
    SELECT pg_catalog.array_agg(s.edge_id), pg_catalog.count(*) INTO edges, n FROM stripped AS s;
    counts[2] := n;
    -- An edge left with no evidence goes; one another source still supports stays, with its
    -- confidence and observations as they were (they record what was observed).
    DELETE FROM @schema@_internal.graph_edges AS e
     WHERE e.tenant = caller.tenant AND e.edge_id = ANY (edges)
       AND NOT EXISTS (SELECT 1 FROM @schema@_internal.graph_edge_evidence AS v
                        WHERE v.tenant = e.tenant AND v.edge_id = e.edge_id);
    GET DIAGNOSTICS n = ROW_COUNT;
    counts[3] := n;
    -- A node it touched that is left with no evidence and no edge goes.
    DELETE FROM @schema@_internal.graph_nodes AS g
     WHERE g.tenant = caller.tenant AND g.node_id = ANY (nodes)
       AND NOT EXISTS (SELECT 1 FROM @schema@_internal.graph_node_evidence AS v
                        WHERE v.tenant = g.tenant AND v.node_id = g.node_id)
       AND NOT EXISTS (SELECT 1 FROM @schema@_internal.graph_edges AS e
                        WHERE e.tenant = g.tenant AND e.from_id = g.node_id)
       AND NOT EXISTS (SELECT 1 FROM @schema@_internal.graph_edges AS e
                        WHERE e.tenant = g.tenant AND e.to_id = g.node_id);
    GET DIAGNOSTICS n = ROW_COUNT;
    counts[4] := n;
    RETURN pg_catalog.jsonb_build_object('scope_key', scope_key, 'node_evidence_removed', counts[1],
        'edge_evidence_removed', counts[2], 'edges_deleted', counts[3], 'nodes_deleted', counts[4]);
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_remove_evidence(text, text) IS
'Facts manager and crawler: strip one source (a fact scope key the caller may read, or '
'claim:<id>) from nodes and edges (in namespace, when given; an edge through itself or '
'either end), delete edges left with no evidence and touched nodes left with no evidence '
'and no edge. Confidence and observations of surviving edges are kept. Returns '
'{scope_key, node_evidence_removed, edge_evidence_removed, edges_deleted, nodes_deleted}.';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_label(
    tenant text, source text, subject bigint, predicate text, OUT label text, OUT stale boolean
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A claim source as a reader sees it: claim:<id> of the newest row of its assertion
    -- believed now (found through its slot), stale when none is; assertion:<hash> when no
    -- row of it is left (a purge removed its only source). An expired row is not believed.
    SELECT 'claim:' || c.claim_id, NOT x.believed
      INTO label, stale
      FROM @schema@_internal.claims AS c
     CROSS JOIN LATERAL (SELECT pg_catalog.upper_inf(c.system_time)
                                AND NOT pg_catalog.upper_inc(c.system_time)
                                AND @schema@_internal.claim_unexpired(c.expires_at, NULL)
                                AS believed) AS x
     WHERE c.tenant = claim_label.tenant AND c.subject_id = claim_label.subject
       AND c.predicate = claim_label.predicate
       AND c.assertion = pg_catalog.substr(source, 7)
     ORDER BY x.believed DESC, c.claim_id DESC
     LIMIT 1;
    IF NOT FOUND THEN
        label := 'assertion:' || pg_catalog.substr(source, 7);
        stale := true;
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_label(text, text, bigint, text) IS
'How a reader sees a claim source: claim:<id> of its newest believed row (stale when no row '
'of the assertion is believed now), or assertion:<hash> when no row is left.';

-- Replaced by graph_evidence_seen, which resolves the evidence of many nodes and edges in
-- one query instead of a function call (and a fact probe planned on its own) per row.
DROP FUNCTION IF EXISTS @schema@_internal.evidence_seen(
    text, text [], bigint [], text [], text, boolean, boolean, text []);

CREATE OR REPLACE FUNCTION @schema@_internal.graph_evidence_seen(
    tenant text, node_ids bigint [], edge_ids bigint [], kind text, with_shared boolean,
    every_session boolean, sessions text []
) RETURNS TABLE (node_id bigint, edge_id bigint, evidence text [], stale_evidence text [])
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
BEGIN
    -- The evidence a reader may see, in the one fact-visibility rule (decided from each
    -- scope key, before any lookup; claims are the tenant's); stale: a fact deleted (or
    -- purged) since, a claim no longer believed. Topology is shared; evidence is not. The
    -- sources come with the scope and key of the fact they name as plain values, so that
    -- under row level security they probe the facts' scope index (an expression of the
    -- source is not leakproof, and a lookup by it scanned the tenant's facts).
    RETURN QUERY
    WITH seen AS MATERIALIZED (
        SELECT v.node_id, v.edge_id, v.source, v.claim_subject, v.claim_predicate,
               pg_catalog.starts_with(v.source, 'claim:') AS claim,
               @schema@_internal.scope_key_scope(v.source) AS scope,
               @schema@_internal.scope_key_key(v.source) AS key
          FROM (SELECT x.node_id, NULL::bigint AS edge_id, x.source, x.claim_subject,
                       x.claim_predicate
                  FROM @schema@_internal.graph_node_evidence AS x
                 WHERE x.tenant = graph_evidence_seen.tenant
                   AND x.node_id = ANY (graph_evidence_seen.node_ids)
                UNION ALL
                SELECT NULL::bigint, x.edge_id, x.source, x.claim_subject, x.claim_predicate
                  FROM @schema@_internal.graph_edge_evidence AS x
                 WHERE x.tenant = graph_evidence_seen.tenant
                   AND x.edge_id = ANY (graph_evidence_seen.edge_ids)) AS v
         WHERE pg_catalog.starts_with(v.source, 'claim:')
            OR @schema@_internal.fact_source_readable(v.source, graph_evidence_seen.kind,
                   graph_evidence_seen.with_shared, graph_evidence_seen.every_session,
                   graph_evidence_seen.sessions)
    ),
    labelled AS (
        -- A probe per source (OFFSET 0 keeps it one), whatever plan is cached.
        SELECT s.node_id, s.edge_id, s.source AS label, f.fact_id IS NULL AS stale
          FROM seen AS s
          LEFT JOIN LATERAL (
              SELECT x.fact_id FROM @schema@_internal.facts AS x
               WHERE x.tenant = graph_evidence_seen.tenant
                 AND @schema@_internal.fact_scope(x.shared, x.session_id) = s.scope
                 AND x.key = s.key AND x.scope_key = s.source AND x.deleted_at IS NULL
                 -- (an expired fact's evidence is stale: the one rule, with its expiry)
                 AND @schema@_internal.fact_visible(x.shared, x.session_id, x.key, x.expires_at,
                         graph_evidence_seen.kind, graph_evidence_seen.with_shared,
                         graph_evidence_seen.every_session, graph_evidence_seen.sessions)
              OFFSET 0) AS f ON true
         WHERE NOT s.claim
        UNION ALL
        SELECT s.node_id, s.edge_id, l.label, l.stale
          FROM seen AS s
         CROSS JOIN LATERAL @schema@_internal.claim_label(graph_evidence_seen.tenant, s.source,
                                                         s.claim_subject, s.claim_predicate) AS l
         WHERE s.claim
    )
    SELECT l.node_id, l.edge_id, pg_catalog.array_agg(l.label ORDER BY l.label),
           coalesce(pg_catalog.array_agg(l.label ORDER BY l.label) FILTER (WHERE l.stale), '{}')
      FROM labelled AS l
     GROUP BY l.node_id, l.edge_id;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_evidence_seen(
    text, bigint [], bigint [], text, boolean, boolean, text []) IS
'The evidence of nodes (node_ids) and edges (edge_ids) as a reader sees it, a row per node '
'or edge with any: the scope keys it may read (the one fact-visibility rule) and claims as '
'claim:<id>, sorted; stale_evidence those whose fact is deleted or whose claim is no '
'longer believed.';
