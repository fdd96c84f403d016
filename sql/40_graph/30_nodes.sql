-- Nodes: resolve before create, union aliases and evidence, delete.
--
-- Lock order, which every graph writer keeps so none deadlocks another: node rows first
-- (in node_id order when several), then edges, then evidence. A merge also takes the
-- tenant's merge lock before any row.

CREATE OR REPLACE FUNCTION @schema@_internal.graph_writer(
    OUT tenant text, OUT kind text, OUT agent text, OUT session text, OUT with_shared boolean,
    OUT every_session boolean, OUT sessions text []
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    access record;
BEGIN
    -- Every graph write: the checked caller (the tuner writes nothing), who it is, and
    -- which facts it may cite as evidence (what read_facts shows it).
    kind := @schema@_internal.require_writer('writes');
    tenant := @schema@_internal.context_tenant();
    agent := @schema@_internal.context_agent();
    session := @schema@_internal.context_session();
    access := @schema@_internal.reader_visibility('accessible');
    with_shared := access.with_shared;
    every_session := access.every_session;
    sessions := access.sessions;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_writer() IS
'The caller of a graph write: tenant, kind (42501 for the tuner), agent, session and the '
'fact visibility its evidence is checked against.';

CREATE OR REPLACE FUNCTION @schema@_internal.add_node_evidence(
    tenant text, node_id bigint, evidence text [], kind text, agent text, with_shared boolean,
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
    INSERT INTO @schema@_internal.graph_node_evidence AS e (
        tenant, node_id, source, claim_subject, claim_predicate, added_by, added_kind)
    SELECT DISTINCT ON (s.source) add_node_evidence.tenant, add_node_evidence.node_id, s.source,
           s.claim_subject, s.claim_predicate, agent, kind
      FROM @schema@_internal.graph_sources(tenant, evidence, kind, with_shared, every_session,
                                           sessions) AS s
    ON CONFLICT ON CONSTRAINT graph_node_evidence_pkey DO NOTHING;
    GET DIAGNOSTICS added = ROW_COUNT;
    RETURN added;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.add_node_evidence(
    text, bigint, text [], text, text, boolean, boolean, text []) IS
'Anchor a node to evidence it does not hold yet (graph_sources checks each item); returns '
'how many were new.';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_node_name(tenant text, key text)
RETURNS text
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    target text;
BEGIN
    -- The node a name resolves to, or NULL after claiming the name for a new node of that
    -- key: of two writers of one new name, one claims it and the other (which waits for
    -- it to commit) resolves to its node.
    SELECT nm.node_key INTO target FROM @schema@_internal.graph_node_names AS nm
     WHERE nm.tenant = claim_node_name.tenant AND nm.name_key = key;
    IF FOUND THEN
        RETURN target;
    END IF;
    INSERT INTO @schema@_internal.graph_node_names AS nm (tenant, name_key, node_key)
    VALUES (claim_node_name.tenant, key, key)
    ON CONFLICT ON CONSTRAINT graph_node_names_pkey DO NOTHING;
    IF FOUND THEN
        RETURN NULL;
    END IF;
    SELECT nm.node_key INTO target FROM @schema@_internal.graph_node_names AS nm
     WHERE nm.tenant = claim_node_name.tenant AND nm.name_key = key;
    RETURN target;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_node_name(text, text) IS
'Resolve a name key to its node''s key, or claim it (NULL) for a new node keyed by it; '
'INSERT ... ON CONFLICT, so concurrent writers of one name make one node.';

CREATE OR REPLACE FUNCTION @schema@.graph_upsert_node(
    kind text, name text, namespace text DEFAULT NULL, aliases text [] DEFAULT NULL,
    evidence text [] DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    caller record := @schema@_internal.graph_writer();
    key text := @schema@_internal.check_graph_name(kind, name);
    wanted_ns text := @schema@_internal.graph_namespace(namespace);
    node @schema@_internal.graph_nodes;
    target text;
    created boolean := false;
    added integer;
BEGIN
    aliases := @schema@_internal.check_aliases(aliases);
    FOR attempt IN 1..5 LOOP
        target := @schema@_internal.claim_node_name(caller.tenant, key);
        IF target IS NULL THEN
            INSERT INTO @schema@_internal.graph_nodes AS n (
                tenant, node_key, kind_key, kind, name, aliases, namespace, created_by,
                created_kind, created_session)
            VALUES (caller.tenant, key, @schema@_internal.graph_kind_key(kind), pg_catalog.btrim(kind),
                    pg_catalog.btrim(name), @schema@_internal.merge_aliases(kind, name, '{}', aliases),
                    @schema@_internal.stored_namespace(wanted_ns), caller.agent, caller.kind,
                    caller.session)
            RETURNING n.* INTO node;
            created := true;
            EXIT;
        END IF;
        -- An existing node (its own name, an alias, or a key merged into it): one UPDATE
        -- locks it (as FOR NO KEY UPDATE would) and unions what this call adds, on the row
        -- as it is once locked. Gone meanwhile (merged or deleted): resolve again.
        UPDATE @schema@_internal.graph_nodes AS n
           SET aliases = @schema@_internal.merge_aliases(n.kind, n.name, n.aliases,
                             CASE WHEN target = key THEN aliases ELSE name || aliases END),
               namespace = CASE WHEN wanted_ns IS NULL THEN n.namespace
                                ELSE @schema@_internal.stored_namespace(wanted_ns) END,
               updated_at = pg_catalog.clock_timestamp()
         WHERE n.tenant = caller.tenant AND n.node_key = target
        RETURNING n.* INTO node;
        IF FOUND THEN
            EXIT;
        END IF;
    END LOOP;
    IF node.node_id IS NULL THEN
        RAISE EXCEPTION 'node % kept changing while it was written', @schema@_internal.shown(key)
            USING ERRCODE = '40001', HINT = 'retry the call';
    END IF;
    -- Every alias resolves to the node from now on, unless another node answers to it.
    INSERT INTO @schema@_internal.graph_node_names AS nm (tenant, name_key, node_key)
    SELECT DISTINCT caller.tenant, @schema@_internal.node_key_of(node.kind, a), node.node_key
      FROM pg_catalog.unnest(node.aliases) AS a
    ON CONFLICT ON CONSTRAINT graph_node_names_pkey DO NOTHING;
    added := @schema@_internal.add_node_evidence(caller.tenant, node.node_id, evidence, caller.kind,
        caller.agent, caller.with_shared, caller.every_session, caller.sessions);
    RETURN pg_catalog.jsonb_build_object(
        'node_key', node.node_key, 'kind', node.kind, 'name', node.name,
        'namespace', node.namespace, 'aliases', pg_catalog.to_jsonb(node.aliases),
        'created', created, 'evidence_added', added);
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_upsert_node(text, text, text, text [], text []) IS
'Writers: resolve (kind, name) to a node (its key node_key_of(kind, name), an alias or a '
'key merged into it) or create it, then union aliases and evidence (fact scope keys the '
'caller may read, claim:<id>); a given namespace replaces the stored one (default: none). '
'Kind and name of an existing node never change. Returns {node_key, kind, name, namespace, '
'aliases, created, evidence_added}. Errors: 22023 bad input, 42501 unreadable evidence or '
'the tuner, P0002 unknown claim.';

CREATE OR REPLACE FUNCTION @schema@.graph_delete_node(node_key text, namespace text DEFAULT NULL)
RETURNS jsonb
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
    PERFORM @schema@_internal.check_node_key(node_key, 'node_key');
    -- Its edges, evidence and names go with it; facts and claims are never touched.
    DELETE FROM @schema@_internal.graph_nodes AS n
     WHERE n.tenant = caller.tenant AND n.node_key = node_key
       AND @schema@_internal.namespace_matches(n.namespace, wanted_ns);
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN pg_catalog.jsonb_build_object('node_key', node_key, 'deleted', removed > 0);
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_delete_node(text, text) IS
'Writers: delete the node with exactly this key (in namespace, when given) with its edges, '
'evidence and names; facts and claims are untouched. Returns {node_key, deleted}.';
