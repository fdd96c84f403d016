SET LOCAL ROLE @schema@_owner;

-- The knowledge write path decides a whole episode in memory and writes it with one
-- statement per kind of change (write_claims, in sql/20_knowledge/30_write_claims.sql). The
-- per-claim function it replaces goes, and so does an index no lookup uses: assertions are
-- found through their slot (subject and predicate are part of the assertion) or a claim id.
DROP FUNCTION IF EXISTS @schema@_internal.ingest_one_claim(
    text, bigint, integer, jsonb, real, timestamptz, timestamptz
);
DROP INDEX IF EXISTS @schema@_internal.claims_assertion_idx;

-- One claim of an episode as the write path reads it: typed, checked (problem, hint) and
-- looked up (cardinality, assertion, retracted), so a whole episode travels as one array.
CREATE TYPE @schema@_internal.claim_input AS (
    position integer,
    problem text,
    hint text,
    subject bigint,
    predicate text,
    cardinality text,
    object jsonb,
    object_entity bigint,
    text text,
    confidence real,
    valid_from timestamptz,
    valid_to timestamptz,
    locator jsonb,
    quote text,
    replaces bigint,
    assertion text,
    retracted boolean
);

-- Secondary keys lead with what they look up, never with the tenant. Every statement runs
-- under row level security, so each carries `tenant = ...`; a plan cached while a table was
-- nearly empty could otherwise take a tenant-led secondary index for a primary key lookup
-- (equal costs at that size) and keep scanning the whole tenant through it as the table
-- grows, until autovacuum's next analyze. Entity ids are identities, unique across tenants,
-- so a slot index needs no tenant at all. (The partial live-slot index goes: a slot's
-- versions are few, and the slot index finds them.)
DROP INDEX @schema@_internal.claims_live_slot_idx;
DROP INDEX @schema@_internal.claims_slot_idx;
CREATE INDEX claims_slot_idx ON @schema@_internal.claims (subject_id, predicate, claim_id);

DROP INDEX @schema@_internal.claim_sources_episode_idx;
CREATE INDEX claim_sources_episode_idx ON @schema@_internal.claim_sources (episode_id, tenant);

ALTER TABLE @schema@_internal.entities DROP CONSTRAINT entities_external_ref_key;
ALTER TABLE @schema@_internal.entities
    ADD CONSTRAINT entities_external_ref_key UNIQUE (external_ref, tenant);
DROP INDEX @schema@_internal.entities_name_idx;
CREATE INDEX entities_name_idx ON @schema@_internal.entities (pg_catalog.lower(name), kind, tenant);

ALTER TABLE @schema@_internal.episodes DROP CONSTRAINT episodes_source_key;
ALTER TABLE @schema@_internal.episodes
    ADD CONSTRAINT episodes_source_key UNIQUE (source_ref, source_kind, content_hash, tenant);

-- Each source line keeps the text and confidence its own source gave, so a purge rebuilds a
-- claim that survives through another source from that source's words, never from the
-- purged one's. (Lines written before this migration have neither; a replay falls back to
-- the claim row for them.)
ALTER TABLE @schema@_internal.claim_sources ADD COLUMN text text, ADD COLUMN confidence real;
