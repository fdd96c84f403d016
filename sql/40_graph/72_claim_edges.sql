-- Claim edges: a knowledge claim whose object is an entity is an edge from the node of its
-- subject to the node of its object, read live from the claims (never copied, no hook in
-- the knowledge write path), so supersession, retraction, restore, a late arrival and a
-- purge replay show in the next read. An entity's node is entity:<entity id> (no stored
-- node has a key of that shape: graph_kind_key), shown with the entity's kind, name and
-- aliases; it exists exactly when the entity does. Which claims are edges is the one rule
-- of search and as_of: believed at known_at (default: now) and true at valid_at (default:
-- now), claim_in_view. Claims are the tenant's knowledge: every reader sees them.

-- Inlinable (no SET clause, every name qualified).
CREATE OR REPLACE FUNCTION @schema@_internal.entity_node_key(entity_id bigint)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT 'entity:' OPERATOR(pg_catalog.||) entity_id::text
$fn$;

COMMENT ON FUNCTION @schema@_internal.entity_node_key(bigint) IS
'The node key of a knowledge entity, an end of claim edges: entity:<entity id>. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.entity_of_node_key(node_key text)
RETURNS bigint
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- NULL for any other key (which then names no entity, as an unknown node key names no node).
    IF node_key ~ '^entity:[1-9][0-9]{0,17}$' THEN
        RETURN pg_catalog.substr(node_key, 8)::bigint;
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.entity_of_node_key(text) IS
'The entity id an entity node key (entity:<id>) names; NULL for any other text.';

CREATE OR REPLACE FUNCTION @schema@_internal.entity_seeds(tenant text, seeds text [])
RETURNS bigint []
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Seeds already checked by seed_nodes: entity:<id> of an entity of the tenant, and the
    -- two entities of a claim:<id> whose object is an entity.
    RETURN ARRAY(
        SELECT DISTINCT x.id FROM (
            SELECT e.entity_id AS id FROM @schema@_internal.entities AS e
             WHERE e.tenant = entity_seeds.tenant
               AND e.entity_id = ANY (ARRAY(SELECT @schema@_internal.entity_of_node_key(s)
                                              FROM pg_catalog.unnest(seeds) AS s))
            UNION ALL
            SELECT u.id FROM @schema@_internal.claims AS c
             CROSS JOIN LATERAL (VALUES (c.subject_id), (c.object_entity_id)) AS u (id)
             WHERE c.tenant = entity_seeds.tenant AND c.object_entity_id IS NOT NULL
               AND c.claim_id = ANY (ARRAY(SELECT pg_catalog.substr(s, 7)::bigint
                                             FROM pg_catalog.unnest(seeds) AS s
                                            WHERE s ~ '^claim:[0-9]{1,18}$'))) AS x
         ORDER BY x.id);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.entity_seeds(text, text []) IS
'The entities seeds start claim edges at: entity:<id> of the tenant''s entities, and the '
'subject and object of each claim:<id> whose object is an entity.';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_reach(
    tenant text, start bigint [], depth integer, valid_at timestamptz, known_at timestamptz
) RETURNS TABLE (entity_id bigint, distance integer)
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
    -- graph_reach over the claim edges in view: breadth first, both directions (by subject
    -- through the slot index, by object through claims_object_entity_idx).
    RETURN QUERY SELECT s, 0 FROM pg_catalog.unnest(seen) AS s;
    WHILE hop < depth AND pg_catalog.cardinality(frontier) > 0 LOOP
        hop := hop + 1;
        SELECT coalesce(pg_catalog.array_agg(DISTINCT x.id), '{}') INTO frontier FROM (
            SELECT c.object_entity_id AS id FROM @schema@_internal.claims AS c
             WHERE c.tenant = claim_reach.tenant AND c.subject_id = ANY (frontier)
               AND c.object_entity_id IS NOT NULL
               AND @schema@_internal.claim_in_view(c.system_time, c.valid, c.retired_reason,
                                                   c.expires_at, false, valid_at, known_at)
            UNION ALL
            SELECT c.subject_id FROM @schema@_internal.claims AS c
             WHERE c.tenant = claim_reach.tenant AND c.object_entity_id = ANY (frontier)
               AND @schema@_internal.claim_in_view(c.system_time, c.valid, c.retired_reason,
                                                   c.expires_at, false, valid_at, known_at)) AS x
         WHERE NOT x.id = ANY (seen);
        seen := seen || frontier;
        RETURN QUERY SELECT s, hop FROM pg_catalog.unnest(frontier) AS s;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_reach(text, bigint [], integer, timestamptz, timestamptz) IS
'The entities within depth claim edges (either direction) of start, each at its shortest '
'distance (0 for start), over the claims believed at known_at and true at valid_at '
'(claim_in_view; both default now).';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_edge_key(predicate text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- A predicate of stop words alone (define_predicate allows 'to') keys as itself.
    SELECT coalesce(@schema@_internal.predicate_key_of(predicate), predicate)
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_edge_key(text) IS
'The predicate key of a claim edge: predicate_key_of its predicate (works_with: work), or '
'the predicate itself when that has no word. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_observations(tenant text, claim_id bigint)
RETURNS integer
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- A claim edge's observations: the sources of its claim row.
    SELECT pg_catalog.count(*)::integer FROM @schema@_internal.claim_sources AS s
     WHERE s.tenant OPERATOR(pg_catalog.=) claim_observations.tenant
       AND s.claim_id OPERATOR(pg_catalog.=) claim_observations.claim_id
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_observations(text, bigint) IS
'A claim edge''s observations: how many sources its claim row has.';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_edge_doc(
    tenant text, claim_id bigint, subject bigint, predicate text, object_entity bigint,
    confidence real, system_time tstzrange
) RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A stored edge's shape: its claim is its evidence (explain_claim resolves it), stale
    -- when no longer believed; observations are its sources; it has no namespace.
    RETURN pg_catalog.jsonb_build_object(
        'from_key', @schema@_internal.entity_node_key(subject),
        'to_key', @schema@_internal.entity_node_key(object_entity),
        'predicate', predicate, 'predicate_key', @schema@_internal.claim_edge_key(predicate),
        'confidence', confidence::numeric::double precision,
        'observations', @schema@_internal.claim_observations(tenant, claim_id),
        'namespace', NULL,
        'evidence', pg_catalog.jsonb_build_array('claim:' || claim_id),
        'stale_evidence', CASE WHEN pg_catalog.upper_inf(system_time) THEN '[]'::jsonb
                               ELSE pg_catalog.jsonb_build_array('claim:' || claim_id) END);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_edge_doc(
    text, bigint, bigint, text, bigint, real, tstzrange) IS
'A claim edge as graph_neighbourhood shows an edge: {from_key, to_key, predicate, '
'predicate_key, confidence (the claim''s), observations (its sources), namespace (none), '
'evidence [claim:<id>], stale_evidence (the claim when no longer believed)}.';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_edges_between(
    tenant text, entities bigint [], valid_at timestamptz, known_at timestamptz
) RETURNS TABLE (from_key text, predicate_key text, to_key text, claim_id bigint, edge jsonb)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The claim edges in view with both ends among entities: one per claim row.
    RETURN QUERY
    SELECT @schema@_internal.entity_node_key(c.subject_id), @schema@_internal.claim_edge_key(c.predicate),
           @schema@_internal.entity_node_key(c.object_entity_id), c.claim_id,
           @schema@_internal.claim_edge_doc(claim_edges_between.tenant, c.claim_id, c.subject_id, c.predicate,
                                            c.object_entity_id, c.confidence, c.system_time)
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = claim_edges_between.tenant AND c.subject_id = ANY (entities)
       AND c.object_entity_id = ANY (entities)
       AND @schema@_internal.claim_in_view(c.system_time, c.valid, c.retired_reason,
                                           c.expires_at, false, valid_at, known_at);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_edges_between(text, bigint [], timestamptz, timestamptz) IS
'The claim edges between entities (both ends among them), believed at known_at and true at '
'valid_at (claim_in_view), each with its sort keys and claim_edge_doc.';

CREATE OR REPLACE FUNCTION @schema@_internal.entity_node_doc(
    tenant text, entity_id bigint, distance integer
) RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A stored node's shape: the entity's kind, name and aliases, no namespace or evidence.
    RETURN (SELECT pg_catalog.jsonb_build_object(
                'node_key', @schema@_internal.entity_node_key(e.entity_id), 'kind', e.kind,
                'name', e.name, 'aliases', pg_catalog.to_jsonb(e.aliases), 'namespace', NULL,
                'distance', distance, 'evidence', '[]'::jsonb, 'stale_evidence', '[]'::jsonb)
              FROM @schema@_internal.entities AS e
             WHERE e.tenant = entity_node_doc.tenant AND e.entity_id = entity_node_doc.entity_id);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.entity_node_doc(text, bigint, integer) IS
'An entity''s node as graph_neighbourhood shows a node: {node_key (entity:<id>), kind, name, '
'aliases, namespace (none), distance, evidence [], stale_evidence []}.';

CREATE OR REPLACE FUNCTION @schema@_internal.current_claim_edges(
    tenant text, wanted_key text, from_key text, to_key text, min_confidence double precision,
    lim integer
) RETURNS TABLE (
    edge_from_key text, edge_predicate text, edge_predicate_key text, edge_to_key text,
    confidence double precision, observations integer, evidence text [],
    first_seen timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    from_entity bigint := @schema@_internal.entity_of_node_key(from_key);
    to_entity bigint := @schema@_internal.entity_of_node_key(to_key);
BEGIN
    -- graph_search_edges' claim edges: believed now and true now, the most confident lim.
    -- An end key that names no entity matches none; the predicate key is computed once
    -- per predicate of the tenant.
    IF (from_key IS NOT NULL AND from_entity IS NULL) OR (to_key IS NOT NULL AND to_entity IS NULL) THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT @schema@_internal.entity_node_key(c.subject_id), c.predicate, p.key,
           @schema@_internal.entity_node_key(c.object_entity_id),
           c.confidence::numeric::double precision,
           @schema@_internal.claim_observations(c.tenant, c.claim_id),
           ARRAY['claim:' || c.claim_id], pg_catalog.lower(c.system_time)
      FROM @schema@_internal.claims AS c
      JOIN (SELECT d.name, @schema@_internal.claim_edge_key(d.name) AS key
              FROM @schema@_internal.predicates AS d WHERE d.tenant = current_claim_edges.tenant) AS p
        ON p.name = c.predicate
     WHERE c.tenant = current_claim_edges.tenant AND c.object_entity_id IS NOT NULL
       AND (from_entity IS NULL OR c.subject_id = from_entity)
       AND (to_entity IS NULL OR c.object_entity_id = to_entity)
       AND (wanted_key IS NULL OR p.key = wanted_key)
       AND (min_confidence IS NULL OR c.confidence::numeric::double precision >= min_confidence)
       AND @schema@_internal.claim_in_view(c.system_time, c.valid, c.retired_reason,
                                           c.expires_at, false, NULL, NULL)
     -- graph_search_edges' order, so the lim kept are the ones it shows.
     ORDER BY 5 DESC, 1, 3, 4, c.claim_id
     LIMIT lim;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.current_claim_edges(
    text, text, text, text, double precision, integer) IS
'The claim edges believed now and true now, for graph_search_edges: by predicate key, exact '
'end keys (entity:<id>), min_confidence, the most confident lim first.';
