-- Layer: 40_graph
--
-- Claim edges: a knowledge claim whose object is an entity is an edge between the nodes of
-- its two entities, entity:<subject id> -> entity:<object entity id>, read live from the
-- claims (sql/40_graph/72_claim_edges.sql); nothing is copied and the knowledge write path
-- has no hook. Walking them in both directions needs the claims by their object entity:
-- a partial index, so a claim with a value object (most claims) maintains nothing more.
-- object_entity_id never changes, so the index keeps a retirement an in-place update.
--
-- entity:<id> is such a node's key, so the kind 'entity' now keys as 'entity_' (as shared,
-- session and claim do, graph_kind_key): the stored nodes of that kind, and every name
-- keyed under it, are rekeyed here. No stored key starts with 'entity_:' before (a kind
-- normalises without a trailing '_'), so the new keys collide with none. Row level
-- security is lifted for this transaction only: the rekey spans every tenant.
SET LOCAL ROLE @schema@_owner;

CREATE INDEX claims_object_entity_idx ON @schema@_internal.claims (tenant, object_entity_id)
    WHERE object_entity_id IS NOT NULL;

ALTER TABLE @schema@_internal.graph_nodes NO FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_node_names NO FORCE ROW LEVEL SECURITY;
-- The names' foreign key to the nodes is deferred: both sides move in this transaction.
UPDATE @schema@_internal.graph_node_names
   SET name_key = CASE WHEN pg_catalog.starts_with(name_key, 'entity:')
                       THEN 'entity_' || pg_catalog.substr(name_key, 7) ELSE name_key END,
       node_key = CASE WHEN pg_catalog.starts_with(node_key, 'entity:')
                       THEN 'entity_' || pg_catalog.substr(node_key, 7) ELSE node_key END
 WHERE pg_catalog.starts_with(name_key, 'entity:') OR pg_catalog.starts_with(node_key, 'entity:');
UPDATE @schema@_internal.graph_nodes
   SET node_key = 'entity_' || pg_catalog.substr(node_key, 7), kind_key = 'entity_'
 WHERE kind_key = 'entity';
-- Checked now, not at commit: a table with pending trigger events cannot be altered.
SET CONSTRAINTS @schema@_internal.graph_node_names_node_fkey IMMEDIATE;
ALTER TABLE @schema@_internal.graph_nodes FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.graph_node_names FORCE ROW LEVEL SECURITY;
