-- Layer: 30_retrieval
--
-- The GIN indexes behind search's text candidates (facts_search_idx, claims_search_doc_idx)
-- key the tenant with collation "C", and the candidate queries compare the tenant under that
-- collation (issue 27, search latency). No other index has a tenant column of collation "C",
-- so the planner has one way to a tenant's matching rows: this index, the tenant an index
-- condition (migration 0030's rule). That lets the candidate queries keep one plan a session
-- instead of planning every call (0.3 to 0.5 ms each, most of a search over a small
-- tenant): a plan kept with a plain `tenant = $1` was costed for an average tenant, and on
-- an install of many small tenants read a large tenant's every row through a tenant B-tree.
-- Equality under "C" is equality under any deterministic collation (a database's default
-- always is), so the indexes find the same rows.

SET LOCAL ROLE @schema@_owner;

CREATE INDEX facts_search_c_idx ON @schema@_internal.facts
    USING gin (tenant COLLATE "C", search_doc) WHERE deleted_at IS NULL;
DROP INDEX @schema@_internal.facts_search_idx;
ALTER INDEX @schema@_internal.facts_search_c_idx RENAME TO facts_search_idx;

CREATE INDEX claims_search_doc_c_idx ON @schema@_internal.claims
    USING gin (tenant COLLATE "C", search_doc);
DROP INDEX @schema@_internal.claims_search_doc_idx;
ALTER INDEX @schema@_internal.claims_search_doc_c_idx RENAME TO claims_search_doc_idx;
