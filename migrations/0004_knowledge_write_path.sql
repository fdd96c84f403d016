SET LOCAL ROLE @schema@_owner;

-- The knowledge write path decides a whole episode in memory and writes it with one
-- statement per kind of change (write_claims, in sql/20_knowledge/30_ingest.sql). The
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
