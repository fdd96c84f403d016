-- The GIN indexes behind search, search_claims and find_keys now lead with the tenant, so
-- the tenant is an index condition and another tenant's rows are never fetched. Before,
-- a word rare in one tenant and common in another was a timing channel: the planner
-- (whose statistics cover every tenant) either scanned the word's posting list and
-- fetched the other tenant's rows from the heap before the tenant filter, or, knowing the
-- word common, read the caller's whole tenant through a tenant B-tree instead. Measured
-- with 200,000 facts holding the word in another tenant (docs/security.md): a 30,010-fact
-- tenant's search for it took 19.1 ms against 1.8 ms for a word only it holds, find_keys
-- 32 ms against 0.5 ms; with these indexes 2.3 against 2.0 ms and 0.7 against 0.4 ms,
-- both fetching only the caller's rows. btree_gin gives text its GIN operator class (the
-- tenant condition is `=` on text, leakproof, so it is an index condition under row level
-- security too; the searcher bypasses it anyway). The names stay, so the plans read as
-- before.
CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;

SET LOCAL ROLE @schema@_owner;

CREATE INDEX facts_tenant_search_idx ON @schema@_internal.facts USING gin (tenant, search_doc)
    WHERE deleted_at IS NULL;
DROP INDEX @schema@_internal.facts_search_idx;
ALTER INDEX @schema@_internal.facts_tenant_search_idx RENAME TO facts_search_idx;

CREATE INDEX facts_tenant_key_trgm_idx ON @schema@_internal.facts
    USING gin (tenant, key public.gin_trgm_ops) WHERE deleted_at IS NULL;
DROP INDEX @schema@_internal.facts_key_trgm_idx;
ALTER INDEX @schema@_internal.facts_tenant_key_trgm_idx RENAME TO facts_key_trgm_idx;

CREATE INDEX claims_tenant_search_doc_idx ON @schema@_internal.claims USING gin (tenant, search_doc);
DROP INDEX @schema@_internal.claims_search_doc_idx;
ALTER INDEX @schema@_internal.claims_tenant_search_doc_idx RENAME TO claims_search_doc_idx;
