-- Layer: 30_retrieval
--
-- search ranks the rows about the entities a question names first (named_entities,
-- sql/30_retrieval/30_candidates.sql): an entity is named by its name (entities_name_idx
-- finds it by lower(name)) or by one of its aliases as written. This index finds an
-- alias among the question's words without reading every entity of the tenant.
SET LOCAL ROLE @schema@_owner;

CREATE INDEX entities_aliases_idx ON @schema@_internal.entities USING gin (aliases);
