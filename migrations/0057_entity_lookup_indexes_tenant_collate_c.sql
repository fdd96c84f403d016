-- Layer: 30_retrieval
--
-- The entities a question names (named_entities, on every search) are looked up by name
-- through an index of the lower-cased name and the tenant under collation "C", and the
-- lookup compares the tenant so (as the text candidates do, migration 0056). It keeps one
-- plan a session (planning it per call was 0.3 ms of every search), and no index keyed by the
-- tenant alone can take that plan: costed for an average tenant, a plan by `tenant = $1`
-- read a large tenant's every entity through the primary key. The tenant is an index
-- condition, so another tenant's entity of the same name is never fetched.

SET LOCAL ROLE @schema@_owner;

CREATE INDEX entities_names_idx ON @schema@_internal.entities
    (pg_catalog.lower(name), tenant COLLATE "C");
