-- Layer: 40_graph
--
-- The knowledge graph's truth: nodes, the names that resolve to them, edges, and the
-- evidence that anchors both to facts (by scope key) and to knowledge claims (by their
-- assertion, which outlives the claim rows a purge replay rewrites). Ordinary tables with
-- tenant-first keys and forced row level security, like every other layer; an Apache AGE
-- projection per tenant is built from them later and checked against them.
--
-- Rules live in named functions (sql/40_graph/10_rules.sql): node_key_of, predicate_key_of,
-- noisy_or, namespace_matches. Nothing here stores a fact value: structure and keys only.

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.graph_nodes (
    tenant text NOT NULL,
    node_id bigint GENERATED ALWAYS AS IDENTITY,
    -- node_key_of(kind, name): the normalised kind, ':', the normalised name.
    node_key text NOT NULL,
    -- The normalised kind (the part of node_key before ':'), for the kind filter.
    kind_key text NOT NULL,
    kind text NOT NULL,
    name text NOT NULL,
    aliases text [] NOT NULL DEFAULT '{}',
    -- NULL is the default namespace.
    namespace text,
    created_by text,
    created_kind text NOT NULL,
    created_session text,
    merged_note text,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    updated_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT graph_nodes_pkey PRIMARY KEY (tenant, node_id),
    CONSTRAINT graph_nodes_key_key UNIQUE (tenant, node_key),
    CONSTRAINT graph_nodes_shape CHECK (
        pg_catalog.octet_length(node_key) BETWEEN 3 AND 1024
        AND pg_catalog.length(kind) BETWEEN 1 AND 100
        AND pg_catalog.length(name) BETWEEN 1 AND 500
        AND pg_catalog.cardinality(aliases) <= 64
    ),
    CONSTRAINT graph_nodes_namespace_shape CHECK (
        namespace IS NULL OR pg_catalog.length(namespace) BETWEEN 1 AND 256
    )
);
CREATE INDEX graph_nodes_kind_idx ON @schema@_internal.graph_nodes (tenant, kind_key);
CREATE INDEX graph_nodes_namespace_idx ON @schema@_internal.graph_nodes (tenant, namespace);
COMMENT ON TABLE @schema@_internal.graph_nodes IS
'Graph nodes (kind, name, aliases, namespace): ids and structure, never fact values';

-- Every name a node answers to: its own key, each alias's key, and the keys of nodes
-- merged into it. One row per key and tenant, so resolving a name and creating a node for
-- it are one INSERT ... ON CONFLICT: two writers of one new name create one node.
CREATE TABLE @schema@_internal.graph_node_names (
    tenant text NOT NULL,
    -- node_key_of(kind, name or alias).
    name_key text NOT NULL,
    node_key text NOT NULL,
    CONSTRAINT graph_node_names_pkey PRIMARY KEY (tenant, name_key),
    -- Deferred: a new node's name is claimed first, its node row inserted after.
    CONSTRAINT graph_node_names_node_fkey FOREIGN KEY (tenant, node_key)
        REFERENCES @schema@_internal.graph_nodes (tenant, node_key)
        ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX graph_node_names_node_idx ON @schema@_internal.graph_node_names (tenant, node_key);
COMMENT ON TABLE @schema@_internal.graph_node_names IS
'The names (own, aliases, merged-away keys) each graph node resolves from, unique per tenant';

CREATE TABLE @schema@_internal.graph_edges (
    tenant text NOT NULL,
    edge_id bigint GENERATED ALWAYS AS IDENTITY,
    from_id bigint NOT NULL,
    -- predicate_key_of(predicate); the predicate as first asserted is kept for display.
    predicate_key text NOT NULL,
    to_id bigint NOT NULL,
    predicate text NOT NULL,
    confidence double precision NOT NULL,
    observations integer NOT NULL DEFAULT 1,
    namespace text,
    -- The agent ids that asserted it (creation and every reinforcement), first seen first.
    asserted_by text [] NOT NULL DEFAULT '{}',
    created_kind text NOT NULL,
    first_seen timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    last_seen timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT graph_edges_pkey PRIMARY KEY (tenant, edge_id),
    -- Re-asserting (from, predicate key, to) reinforces the one edge, never a second.
    CONSTRAINT graph_edges_triple_key UNIQUE (tenant, from_id, predicate_key, to_id),
    CONSTRAINT graph_edges_from_fkey FOREIGN KEY (tenant, from_id)
        REFERENCES @schema@_internal.graph_nodes (tenant, node_id) ON DELETE CASCADE,
    CONSTRAINT graph_edges_to_fkey FOREIGN KEY (tenant, to_id)
        REFERENCES @schema@_internal.graph_nodes (tenant, node_id) ON DELETE CASCADE,
    CONSTRAINT graph_edges_not_self CHECK (from_id <> to_id),
    CONSTRAINT graph_edges_confidence_range CHECK (confidence >= 0 AND confidence <= 1),
    CONSTRAINT graph_edges_observations_positive CHECK (observations >= 1),
    CONSTRAINT graph_edges_shape CHECK (
        pg_catalog.octet_length(predicate_key) BETWEEN 1 AND 400
        AND pg_catalog.length(predicate) BETWEEN 1 AND 200
        AND (namespace IS NULL OR pg_catalog.length(namespace) BETWEEN 1 AND 256)
    )
);
CREATE INDEX graph_edges_to_idx ON @schema@_internal.graph_edges (tenant, to_id);
CREATE INDEX graph_edges_predicate_idx ON @schema@_internal.graph_edges (tenant, predicate_key);
COMMENT ON TABLE @schema@_internal.graph_edges IS
'Graph edges, unique per (from, predicate key, to): confidence combined by noisy-OR, '
'observations counted once per new evidence';

-- Evidence: what anchors a node or an edge. source is a fact's scope key (shared:<key>,
-- session:<id>:<key>) or 'claim:' followed by a claim's assertion (assertion_of in
-- sql/20_knowledge): a purge replay gives a slot's rows new ids, never a new assertion.
-- A claim's subject and predicate are kept beside it: claims are found through their slot.
CREATE TABLE @schema@_internal.graph_node_evidence (
    tenant text NOT NULL,
    node_id bigint NOT NULL,
    source text NOT NULL,
    claim_subject bigint,
    claim_predicate text,
    added_by text,
    added_kind text NOT NULL,
    added_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT graph_node_evidence_pkey PRIMARY KEY (tenant, node_id, source),
    CONSTRAINT graph_node_evidence_node_fkey FOREIGN KEY (tenant, node_id)
        REFERENCES @schema@_internal.graph_nodes (tenant, node_id) ON DELETE CASCADE,
    CONSTRAINT graph_node_evidence_claim_shape CHECK (
        pg_catalog.starts_with(source, 'claim:')
        = (claim_subject IS NOT NULL AND claim_predicate IS NOT NULL)
    )
);
CREATE INDEX graph_node_evidence_source_idx
    ON @schema@_internal.graph_node_evidence (tenant, source);
COMMENT ON TABLE @schema@_internal.graph_node_evidence IS
'The facts (scope keys) and claims (assertions) that anchor each graph node';

CREATE TABLE @schema@_internal.graph_edge_evidence (
    tenant text NOT NULL,
    edge_id bigint NOT NULL,
    source text NOT NULL,
    claim_subject bigint,
    claim_predicate text,
    added_by text,
    added_kind text NOT NULL,
    added_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT graph_edge_evidence_pkey PRIMARY KEY (tenant, edge_id, source),
    CONSTRAINT graph_edge_evidence_edge_fkey FOREIGN KEY (tenant, edge_id)
        REFERENCES @schema@_internal.graph_edges (tenant, edge_id) ON DELETE CASCADE,
    CONSTRAINT graph_edge_evidence_claim_shape CHECK (
        pg_catalog.starts_with(source, 'claim:')
        = (claim_subject IS NOT NULL AND claim_predicate IS NOT NULL)
    )
);
CREATE INDEX graph_edge_evidence_source_idx
    ON @schema@_internal.graph_edge_evidence (tenant, source);
COMMENT ON TABLE @schema@_internal.graph_edge_evidence IS
'The facts (scope keys) and claims (assertions) that support each graph edge';

ALTER TABLE @schema@_internal.graph_nodes ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_nodes FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_node_names ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_node_names FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_edges ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_edges FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_node_evidence ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_node_evidence FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_edge_evidence ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_edge_evidence FORCE ROW LEVEL SECURITY;
