SET LOCAL ROLE @schema@_owner;

-- A fact is unique by its scope and key: (tenant, session, key) for a session fact,
-- (tenant, key) for a shared one. The scope key ('shared:<key>', 'session:<id>:<key>')
-- spells the same thing, and three indexes held it: the unique scope-key constraint and
-- one partial index per scope for reads. One unique index over (tenant, the scoping
-- session or '' when shared, key) now enforces uniqueness (session ids hold no ':', so it
-- is the same rule), is the upsert's arbiter, and serves reads of either scope by key
-- range and lookups by scope key (split into its parts). Tombstones are in it, as they
-- were in the constraint: a write over a deleted fact revives its row. After a load of
-- 110,000 facts this is about a tenth of the table and its indexes less, and one index
-- less for every write to maintain.
CREATE UNIQUE INDEX facts_scope_idx ON @schema@_internal.facts (
    tenant, (CASE WHEN shared THEN ''::text ELSE session_id END), key text_pattern_ops);
ALTER TABLE @schema@_internal.facts DROP CONSTRAINT facts_scope_key_key;
DROP INDEX @schema@_internal.facts_session_key_idx;
DROP INDEX @schema@_internal.facts_shared_key_idx;
