-- Merging a duplicate node into its survivor, and removing evidence (the crawler's
-- reconciliation of a deleted fact).

-- Inlinable like lock_key (tests/lint_sql.py lists it).
CREATE OR REPLACE FUNCTION @schema@_internal.graph_merge_lock_key(tenant text)
RETURNS bigint
LANGUAGE sql
VOLATILE
SECURITY INVOKER
AS $fn$
    SELECT @schema@_internal.lock_key(pg_catalog.concat_ws(':', '@schema@:graph-merges', tenant))
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_merge_lock_key(text) IS
'The advisory lock a merge of a tenant''s nodes holds until it ends: merges of one tenant '
'run one at a time. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.merge_edge(
    tenant text, edge @schema@_internal.graph_edges, duplicate bigint, survivor bigint
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    new_from bigint := CASE WHEN edge.from_id = duplicate THEN survivor ELSE edge.from_id END;
    new_to bigint := CASE WHEN edge.to_id = duplicate THEN survivor ELSE edge.to_id END;
    twin @schema@_internal.graph_edges;
    novel boolean;
BEGIN
    IF new_from = new_to THEN
        -- An edge between the two becomes none; its evidence still anchors the survivor.
        INSERT INTO @schema@_internal.graph_node_evidence AS e (
            tenant, node_id, source, claim_subject, claim_predicate, added_by, added_kind, added_at)
        SELECT x.tenant, survivor, x.source, x.claim_subject, x.claim_predicate, x.added_by,
               x.added_kind, x.added_at
          FROM @schema@_internal.graph_edge_evidence AS x
         WHERE x.tenant = merge_edge.tenant AND x.edge_id = edge.edge_id
        ON CONFLICT ON CONSTRAINT graph_node_evidence_pkey DO NOTHING;
        DELETE FROM @schema@_internal.graph_edges AS e
         WHERE e.tenant = merge_edge.tenant AND e.edge_id = edge.edge_id;
        RETURN;
    END IF;
    SELECT e.* INTO twin FROM @schema@_internal.graph_edges AS e
     WHERE e.tenant = merge_edge.tenant AND e.from_id = new_from
       AND e.predicate_key = edge.predicate_key AND e.to_id = new_to
       FOR UPDATE;
    IF NOT FOUND THEN
        -- Repointed: the same row, so its evidence, namespace and asserters stay.
        UPDATE @schema@_internal.graph_edges AS e SET from_id = new_from, to_id = new_to
         WHERE e.tenant = merge_edge.tenant AND e.edge_id = edge.edge_id;
        RETURN;
    END IF;
    -- The survivor already has this edge: a duplicate whose evidence is all known is the
    -- same observation twice (dropped); otherwise the two combine.
    novel := NOT EXISTS (SELECT 1 FROM @schema@_internal.graph_edge_evidence AS x
                          WHERE x.tenant = merge_edge.tenant AND x.edge_id = edge.edge_id)
          OR EXISTS (SELECT 1 FROM @schema@_internal.graph_edge_evidence AS x
                      WHERE x.tenant = merge_edge.tenant AND x.edge_id = edge.edge_id
                        AND NOT EXISTS (SELECT 1 FROM @schema@_internal.graph_edge_evidence AS y
                                         WHERE y.tenant = x.tenant AND y.edge_id = twin.edge_id
                                           AND y.source = x.source));
    INSERT INTO @schema@_internal.graph_edge_evidence AS e (
        tenant, edge_id, source, claim_subject, claim_predicate, added_by, added_kind, added_at)
    SELECT x.tenant, twin.edge_id, x.source, x.claim_subject, x.claim_predicate, x.added_by,
           x.added_kind, x.added_at
      FROM @schema@_internal.graph_edge_evidence AS x
     WHERE x.tenant = merge_edge.tenant AND x.edge_id = edge.edge_id
    ON CONFLICT ON CONSTRAINT graph_edge_evidence_pkey DO NOTHING;
    UPDATE @schema@_internal.graph_edges AS e
       SET confidence = CASE WHEN novel THEN @schema@_internal.noisy_or(e.confidence, edge.confidence)
                             ELSE e.confidence END,
           observations = e.observations + CASE WHEN novel THEN edge.observations ELSE 0 END,
           namespace = coalesce(e.namespace, edge.namespace),
           asserted_by = e.asserted_by || ARRAY(SELECT a FROM pg_catalog.unnest(edge.asserted_by) AS a
                                                 WHERE NOT a = ANY (e.asserted_by)),
           first_seen = LEAST(e.first_seen, edge.first_seen),
           last_seen = GREATEST(e.last_seen, edge.last_seen)
     WHERE e.tenant = merge_edge.tenant AND e.edge_id = twin.edge_id;
    DELETE FROM @schema@_internal.graph_edges AS e
     WHERE e.tenant = merge_edge.tenant AND e.edge_id = edge.edge_id;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.merge_edge(
    text, @schema@_internal.graph_edges, bigint, bigint) IS
'Move one edge of a duplicate node to its survivor: repointed; or, when the survivor has '
'the same edge, combined (noisy-OR, observations summed, evidence, namespace and asserters '
'kept) unless all its evidence is known; an edge between the two becomes node evidence.';

CREATE OR REPLACE FUNCTION @schema@.graph_merge_nodes(
    from_key text, into_key text, reason text DEFAULT NULL, namespace text DEFAULT NULL
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
    duplicate @schema@_internal.graph_nodes;
    survivor @schema@_internal.graph_nodes;
    edge @schema@_internal.graph_edges;
    moved integer := 0;
BEGIN
    PERFORM @schema@_internal.check_node_key(from_key, 'from_key'),
            @schema@_internal.check_node_key(into_key, 'into_key'),
            @schema@_internal.check_text(reason, 'reason', 1000);
    PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.graph_merge_lock_key(caller.tenant));
    -- The duplicate by its exact key, the survivor through its names; both rows locked in
    -- id order before any edge.
    PERFORM 1 FROM @schema@_internal.graph_nodes AS n
     WHERE n.tenant = caller.tenant
       AND (n.node_key = from_key
            OR n.node_key = (SELECT nm.node_key FROM @schema@_internal.graph_node_names AS nm
                              WHERE nm.tenant = caller.tenant AND nm.name_key = into_key))
     ORDER BY n.node_id FOR UPDATE;
    SELECT n.* INTO duplicate FROM @schema@_internal.graph_nodes AS n
     WHERE n.tenant = caller.tenant AND n.node_key = from_key
       AND @schema@_internal.namespace_matches(n.namespace, wanted_ns);
    SELECT n.* INTO survivor FROM @schema@_internal.graph_nodes AS n
      JOIN @schema@_internal.graph_node_names AS nm ON nm.tenant = n.tenant AND nm.node_key = n.node_key
     WHERE n.tenant = caller.tenant AND nm.name_key = into_key
       AND @schema@_internal.namespace_matches(n.namespace, wanted_ns);
    IF survivor.node_id IS NULL THEN
        RAISE EXCEPTION 'merge target not found: %', @schema@_internal.shown(into_key)
            USING ERRCODE = 'P0002';
    END IF;
    IF duplicate.node_id IS NULL OR duplicate.node_id = survivor.node_id THEN
        RETURN pg_catalog.jsonb_build_object('from_key', from_key, 'into_key', survivor.node_key,
                                             'merged', false, 'edges_moved', 0);
    END IF;
    UPDATE @schema@_internal.graph_nodes AS n
       SET aliases = @schema@_internal.merge_aliases(n.kind, n.name, n.aliases,
                         duplicate.name || duplicate.aliases),
           namespace = coalesce(n.namespace, duplicate.namespace),
           merged_note = coalesce(reason, n.merged_note), updated_at = pg_catalog.clock_timestamp()
     WHERE n.tenant = caller.tenant AND n.node_id = survivor.node_id;
    -- Every name of the duplicate, its own key included, now resolves to the survivor.
    UPDATE @schema@_internal.graph_node_names AS nm SET node_key = survivor.node_key
     WHERE nm.tenant = caller.tenant AND nm.node_key = duplicate.node_key;
    INSERT INTO @schema@_internal.graph_node_evidence AS e (
        tenant, node_id, source, claim_subject, claim_predicate, added_by, added_kind, added_at)
    SELECT x.tenant, survivor.node_id, x.source, x.claim_subject, x.claim_predicate, x.added_by,
           x.added_kind, x.added_at
      FROM @schema@_internal.graph_node_evidence AS x
     WHERE x.tenant = caller.tenant AND x.node_id = duplicate.node_id
    ON CONFLICT ON CONSTRAINT graph_node_evidence_pkey DO NOTHING;
    FOR edge IN
        SELECT e.* FROM @schema@_internal.graph_edges AS e
         WHERE e.tenant = caller.tenant AND (e.from_id = duplicate.node_id OR e.to_id = duplicate.node_id)
         ORDER BY e.edge_id FOR UPDATE
    LOOP
        PERFORM @schema@_internal.merge_edge(caller.tenant, edge, duplicate.node_id, survivor.node_id);
        moved := moved + 1;
    END LOOP;
    DELETE FROM @schema@_internal.graph_nodes AS n
     WHERE n.tenant = caller.tenant AND n.node_id = duplicate.node_id;
    RETURN pg_catalog.jsonb_build_object('from_key', from_key, 'into_key', survivor.node_key,
                                         'merged', true, 'edges_moved', moved);
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_merge_nodes(text, text, text, text) IS
'Writers: merge the node from_key (exact key) into into_key (through its names): aliases '
'and names united, edges repointed or combined by noisy-OR, evidence, namespaces and '
'asserters kept, the duplicate deleted. Both must be in namespace when given. A missing '
'duplicate is {merged: false}; a missing survivor P0002. Returns {from_key, into_key, '
'merged, edges_moved}.';
