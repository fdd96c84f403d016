-- Edges: one per (from, predicate key, to), reinforced by noisy-OR once per new evidence.

-- The endpoints' node keys came with the edge's answer (no second lookup): the old
-- signature goes.
DROP FUNCTION IF EXISTS @schema@_internal.lock_endpoints(text, text, text);
CREATE OR REPLACE FUNCTION @schema@_internal.lock_edge_ends(
    tenant text, from_key text, to_key text, OUT from_id bigint, OUT to_id bigint,
    OUT from_node text, OUT to_node text
)
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    found_rows integer;
BEGIN
    -- Both endpoints through their names (a key merged away reaches its survivor), held
    -- FOR KEY SHARE in node_id order, before the edge: a merge or delete of either waits,
    -- or has finished and the names are read again.
    FOR attempt IN 1..5 LOOP
        WITH wanted AS (
            SELECT nm.name_key, n.node_id, n.node_key
              FROM @schema@_internal.graph_node_names AS nm
              JOIN @schema@_internal.graph_nodes AS n
                ON n.tenant = nm.tenant AND n.node_key = nm.node_key
             WHERE nm.tenant = lock_edge_ends.tenant AND nm.name_key IN (from_key, to_key)
             ORDER BY n.node_id
               FOR KEY SHARE OF n
        )
        SELECT pg_catalog.max(w.node_id) FILTER (WHERE w.name_key = from_key),
               pg_catalog.max(w.node_id) FILTER (WHERE w.name_key = to_key),
               pg_catalog.max(w.node_key) FILTER (WHERE w.name_key = from_key),
               pg_catalog.max(w.node_key) FILTER (WHERE w.name_key = to_key), pg_catalog.count(*)
          INTO from_id, to_id, from_node, to_node, found_rows FROM wanted AS w;
        IF from_id IS NOT NULL AND to_id IS NOT NULL THEN
            RETURN;
        END IF;
    END LOOP;
    RAISE EXCEPTION 'edge endpoint not found: %',
        @schema@_internal.shown(CASE WHEN from_id IS NULL THEN from_key ELSE to_key END)
        USING ERRCODE = 'P0002', HINT = 'create both nodes with graph_upsert_node first';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.lock_edge_ends(text, text, text) IS
'The node ids and keys of an edge''s endpoints, resolved through node names and locked FOR '
'KEY SHARE in id order; P0002 for an unknown one.';

CREATE OR REPLACE FUNCTION @schema@_internal.add_edge_evidence(
    tenant text, edge_id bigint, evidence text [], kind text, agent text, with_shared boolean,
    every_session boolean, sessions text []
) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    added integer;
BEGIN
    INSERT INTO @schema@_internal.graph_edge_evidence AS e (
        tenant, edge_id, source, claim_subject, claim_predicate, added_by, added_kind)
    SELECT DISTINCT ON (s.source) add_edge_evidence.tenant, add_edge_evidence.edge_id, s.source,
           s.claim_subject, s.claim_predicate, agent, kind
      FROM @schema@_internal.graph_sources(tenant, evidence, kind, with_shared, every_session,
                                           sessions) AS s
    ON CONFLICT ON CONSTRAINT graph_edge_evidence_pkey DO NOTHING;
    GET DIAGNOSTICS added = ROW_COUNT;
    RETURN added;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.add_edge_evidence(
    text, bigint, text [], text, text, boolean, boolean, text []) IS
'Add to an edge the evidence it does not hold yet (graph_sources checks each item); returns '
'how many were new.';

-- The endpoints' keys are known to its callers: the old signature (which read them again)
-- goes.
DROP FUNCTION IF EXISTS @schema@_internal.edge_result(text, @schema@_internal.graph_edges, text);
-- STABLE as jsonb_build_object is: an immutable function calling it is never inlined.
CREATE OR REPLACE FUNCTION @schema@_internal.edge_answer(
    edge @schema@_internal.graph_edges, from_node text, to_node text, outcome text
) RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'from_key', from_node, 'to_key', to_node, 'predicate', edge.predicate,
        'predicate_key', edge.predicate_key, 'namespace', edge.namespace,
        'confidence', edge.confidence, 'observations', edge.observations,
        'outcome', outcome, 'reinforced', outcome = 'reinforced')
$fn$;

COMMENT ON FUNCTION @schema@_internal.edge_answer(
    @schema@_internal.graph_edges, text, text, text) IS
'What graph_upsert_edge answers for an edge with endpoints from_node and to_node: their keys, '
'its predicate, namespace, confidence, observations and the outcome (created, reinforced, '
'unchanged). (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.known_replay(
    tenant text, from_key text, to_key text, predicate_key text, evidence text [], kind text,
    with_shared boolean, every_session boolean, sessions text []
) RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    from_end bigint;
    from_node text;
    to_end bigint;
    to_node text;
    result jsonb;
BEGIN
    -- A replay: the triple is stored and holds every source of evidence (each checked by
    -- graph_sources, as a write checks it). One snapshot shows it, so the answer is the
    -- one a locked replay gives, and nothing is locked or written (no transaction id, no
    -- WAL to flush at commit). NULL otherwise: the caller writes, locking first.
    --
    -- The ends are resolved one by one, then the edge by its triple key: one query joining
    -- the five rows got a generic plan that reached the edge from the to-node's side, a
    -- walk of every edge into it (4 to 8 ms into a node with 350 edges).
    SELECT n.node_id, n.node_key INTO from_end, from_node
      FROM @schema@_internal.graph_node_names AS nm
      JOIN @schema@_internal.graph_nodes AS n ON n.tenant = nm.tenant AND n.node_key = nm.node_key
     WHERE nm.tenant = known_replay.tenant AND nm.name_key = known_replay.from_key;
    SELECT n.node_id, n.node_key INTO to_end, to_node
      FROM @schema@_internal.graph_node_names AS nm
      JOIN @schema@_internal.graph_nodes AS n ON n.tenant = nm.tenant AND n.node_key = nm.node_key
     WHERE nm.tenant = known_replay.tenant AND nm.name_key = known_replay.to_key;
    IF from_end IS NULL OR to_end IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT @schema@_internal.edge_answer(e, from_node, to_node, 'unchanged') INTO result
      FROM @schema@_internal.graph_edges AS e
     WHERE e.tenant = known_replay.tenant AND e.from_id = from_end
       AND e.predicate_key = known_replay.predicate_key AND e.to_id = to_end
       AND NOT EXISTS (
           SELECT 1 FROM @schema@_internal.graph_sources(known_replay.tenant,
                             known_replay.evidence, known_replay.kind, known_replay.with_shared,
                             known_replay.every_session, known_replay.sessions) AS s
            WHERE NOT EXISTS (SELECT 1 FROM @schema@_internal.graph_edge_evidence AS v
                               WHERE v.tenant = e.tenant AND v.edge_id = e.edge_id
                                 AND v.source = s.source));
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.known_replay(
    text, text, text, text, text [], text, boolean, boolean, text []) IS
'graph_upsert_edge''s answer to an assertion of a stored triple whose evidence it holds '
'already (unchanged), read without a lock; NULL when the call has something to write.';

CREATE OR REPLACE FUNCTION @schema@.graph_upsert_edge(
    from_key text, to_key text, predicate text, namespace text DEFAULT NULL,
    confidence double precision DEFAULT 1, evidence text [] DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    caller record := @schema@_internal.graph_writer();
    key text := @schema@_internal.check_predicate(predicate);
    wanted_ns text := @schema@_internal.graph_namespace(namespace);
    ends record;
    edge @schema@_internal.graph_edges;
    added integer;
    result jsonb;
BEGIN
    PERFORM @schema@_internal.check_node_key(from_key, 'from_key'),
            @schema@_internal.check_node_key(to_key, 'to_key'),
            @schema@_internal.check_confidence(confidence, 'confidence');
    IF pg_catalog.cardinality(evidence) > 0 THEN
        result := @schema@_internal.known_replay(caller.tenant, from_key, to_key, key, evidence,
            caller.kind, caller.with_shared, caller.every_session, caller.sessions);
        IF result IS NOT NULL THEN
            RETURN result;
        END IF;
    END IF;
    ends := @schema@_internal.lock_edge_ends(caller.tenant, from_key, to_key);
    IF ends.from_id = ends.to_id THEN
        RAISE EXCEPTION 'an edge from a node to itself is refused' USING ERRCODE = '22023',
            DETAIL = pg_catalog.format('%s and %s are one node', @schema@_internal.shown(from_key),
                                       @schema@_internal.shown(to_key));
    END IF;
    INSERT INTO @schema@_internal.graph_edges AS e (
        tenant, from_id, predicate_key, to_id, predicate, confidence, namespace, asserted_by,
        created_kind)
    VALUES (caller.tenant, ends.from_id, key, ends.to_id, pg_catalog.btrim(predicate), confidence,
            @schema@_internal.stored_namespace(wanted_ns),
            CASE WHEN caller.agent IS NULL THEN '{}'::text [] ELSE ARRAY[caller.agent] END, caller.kind)
    ON CONFLICT ON CONSTRAINT graph_edges_triple_key DO NOTHING
    RETURNING e.* INTO edge;
    IF FOUND THEN
        PERFORM @schema@_internal.add_edge_evidence(caller.tenant, edge.edge_id, evidence,
            caller.kind, caller.agent, caller.with_shared, caller.every_session, caller.sessions);
        RETURN @schema@_internal.edge_answer(edge, ends.from_node, ends.to_node, 'created');
    END IF;
    SELECT e.* INTO edge FROM @schema@_internal.graph_edges AS e
     WHERE e.tenant = caller.tenant AND e.from_id = ends.from_id AND e.predicate_key = key
       AND e.to_id = ends.to_id
       FOR UPDATE;
    added := @schema@_internal.add_edge_evidence(caller.tenant, edge.edge_id, evidence, caller.kind,
        caller.agent, caller.with_shared, caller.every_session, caller.sessions);
    -- A replay whose evidence is all known changes nothing, last_seen included.
    IF pg_catalog.cardinality(evidence) > 0 AND added = 0 THEN
        RETURN @schema@_internal.edge_answer(edge, ends.from_node, ends.to_node, 'unchanged');
    END IF;
    -- New evidence (once, however much), or none at all: one more observation.
    UPDATE @schema@_internal.graph_edges AS e
       SET confidence = @schema@_internal.noisy_or(e.confidence, confidence),
           observations = e.observations + 1,
           last_seen = pg_catalog.clock_timestamp(),
           namespace = CASE WHEN wanted_ns IS NULL THEN e.namespace
                            ELSE @schema@_internal.stored_namespace(wanted_ns) END,
           asserted_by = CASE WHEN caller.agent IS NULL OR caller.agent = ANY (e.asserted_by)
                              THEN e.asserted_by ELSE e.asserted_by || caller.agent END
     WHERE e.tenant = caller.tenant AND e.edge_id = edge.edge_id
    RETURNING e.* INTO edge;
    RETURN @schema@_internal.edge_answer(edge, ends.from_node, ends.to_node, 'reinforced');
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_upsert_edge(text, text, text, text, double precision, text []) IS
'Writers: assert (from_key, predicate, to_key) with confidence 0..1 (default 1) and '
'evidence. A new triple is created; a known one gains one observation and noisy-OR '
'confidence when the call brings new evidence or none, and stays byte-identical (last_seen '
'too) when all its evidence is known. Endpoints resolve through node names. Returns '
'{from_key, to_key, predicate, predicate_key, namespace, confidence, observations, outcome, '
'reinforced}. Errors: 22023 bad input or a self edge, P0002 unknown endpoint or claim, '
'42501 unreadable evidence or the tuner.';

CREATE OR REPLACE FUNCTION @schema@.graph_delete_edge(
    from_key text, to_key text, predicate_key text, namespace text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    caller record := @schema@_internal.graph_writer();
    wanted_ns text := @schema@_internal.graph_namespace(namespace);
    removed integer;
BEGIN
    PERFORM @schema@_internal.check_node_key(from_key, 'from_key'),
            @schema@_internal.check_node_key(to_key, 'to_key'),
            @schema@_internal.check_node_key(predicate_key, 'predicate_key');
    -- Exact node keys and predicate key; the edge, or either endpoint, in the namespace.
    DELETE FROM @schema@_internal.graph_edges AS e
     USING @schema@_internal.graph_nodes AS f, @schema@_internal.graph_nodes AS t
     WHERE f.tenant = caller.tenant AND f.node_key = from_key
       AND t.tenant = caller.tenant AND t.node_key = to_key
       AND e.tenant = caller.tenant AND e.from_id = f.node_id AND e.to_id = t.node_id
       AND e.predicate_key = predicate_key
       AND (@schema@_internal.namespace_matches(e.namespace, wanted_ns)
            OR @schema@_internal.namespace_matches(f.namespace, wanted_ns)
            OR @schema@_internal.namespace_matches(t.namespace, wanted_ns));
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN pg_catalog.jsonb_build_object('from_key', from_key, 'to_key', to_key,
                                         'predicate_key', predicate_key, 'deleted', removed > 0);
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_delete_edge(text, text, text, text) IS
'Writers: delete the edge (from_key, predicate_key, to_key), exact keys, when it or either '
'endpoint is in namespace (when given). Returns {from_key, to_key, predicate_key, deleted}.';
