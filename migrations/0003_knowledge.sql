-- Knowledge (seeds 001, 002): entities, predicates, episodes and bi-temporal claims.
--
-- A claim row is never edited: only the end of its system time, the reason it ended and
-- its successor are written after the insert. valid is when the claim was true in the
-- world; system_time is when this database believed it, set by the write path.

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.entities (
    tenant text NOT NULL,
    entity_id bigint GENERATED ALWAYS AS IDENTITY,
    kind text NOT NULL,
    name text NOT NULL,
    aliases text [] NOT NULL DEFAULT '{}',
    external_ref text,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT entities_pkey PRIMARY KEY (tenant, entity_id),
    -- The same external reference never makes a second entity.
    CONSTRAINT entities_external_ref_key UNIQUE (tenant, external_ref),
    CONSTRAINT entities_shape CHECK (
        pg_catalog.length(kind) BETWEEN 1 AND 100 AND pg_catalog.length(name) BETWEEN 1 AND 500
    )
);
CREATE INDEX entities_name_idx ON @schema@_internal.entities (tenant, kind, pg_catalog.lower(name));
COMMENT ON TABLE @schema@_internal.entities IS 'Things claims are about (people, services, ...)';

CREATE TABLE @schema@_internal.predicates (
    tenant text NOT NULL,
    name text NOT NULL,
    cardinality text NOT NULL,
    description text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT predicates_pkey PRIMARY KEY (tenant, name),
    CONSTRAINT predicates_cardinality_check CHECK (cardinality IN ('one', 'many', 'event')),
    CONSTRAINT predicates_name_shape CHECK (name ~ '^[a-z][a-z0-9_]{0,99}$')
);
COMMENT ON TABLE @schema@_internal.predicates IS
'What can be claimed: one (one value at a time), many (values coexist), event (a point in time)';

CREATE TABLE @schema@_internal.episodes (
    tenant text NOT NULL,
    episode_id bigint GENERATED ALWAYS AS IDENTITY,
    source_kind text NOT NULL,
    source_ref text NOT NULL,
    content_hash text NOT NULL,
    occurred_at timestamptz,
    trust text NOT NULL,
    extractor text,
    recorded_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT episodes_pkey PRIMARY KEY (tenant, episode_id),
    -- The same (source kind, ref, content hash) is the same episode: ingesting it again
    -- is a no-op.
    CONSTRAINT episodes_source_key UNIQUE (tenant, source_kind, source_ref, content_hash),
    CONSTRAINT episodes_trust_check CHECK (trust IN ('operator', 'owner', 'agent', 'third_party'))
);
COMMENT ON TABLE @schema@_internal.episodes IS
'Where claims come from: one version (content hash) of one source, with its trust';

CREATE TABLE @schema@_internal.claims (
    tenant text NOT NULL,
    claim_id bigint GENERATED ALWAYS AS IDENTITY,
    subject_id bigint NOT NULL,
    predicate text NOT NULL,
    -- Copied from the predicate (which never changes cardinality once used) so the
    -- exclusion constraint below can name it.
    cardinality text NOT NULL,
    object_value jsonb,
    object_entity_id bigint,
    text text,
    confidence real NOT NULL,
    -- The identity of what is asserted (subject, predicate, object), for corroboration and
    -- the negative memory of retracted assertions.
    assertion text NOT NULL,
    valid tstzrange NOT NULL,
    -- The valid range as the source asserted it, before a later known value cut it short;
    -- replaying a slot (purge_source, verify_slot) starts from this.
    asserted_valid tstzrange NOT NULL,
    system_time tstzrange NOT NULL,
    retired_reason text,
    superseded_by bigint,
    -- A row written again with a narrower valid range keeps pointing at the row it copies.
    copied_from bigint,
    search_vector tsvector GENERATED ALWAYS AS (
        pg_catalog.to_tsvector('simple'::regconfig,
            coalesce(text, '') || ' ' || coalesce(object_value #>> '{}', ''))
    ) STORED,
    CONSTRAINT claims_pkey PRIMARY KEY (tenant, claim_id),
    CONSTRAINT claims_subject_fkey FOREIGN KEY (tenant, subject_id)
        REFERENCES @schema@_internal.entities (tenant, entity_id),
    CONSTRAINT claims_object_entity_fkey FOREIGN KEY (tenant, object_entity_id)
        REFERENCES @schema@_internal.entities (tenant, entity_id),
    CONSTRAINT claims_predicate_fkey FOREIGN KEY (tenant, predicate)
        REFERENCES @schema@_internal.predicates (tenant, name),
    CONSTRAINT claims_object_present CHECK (object_value IS NOT NULL OR object_entity_id IS NOT NULL),
    CONSTRAINT claims_confidence_range CHECK (confidence >= 0 AND confidence <= 1),
    CONSTRAINT claims_valid_not_empty CHECK (NOT pg_catalog.isempty(valid)),
    CONSTRAINT claims_system_time_not_empty CHECK (NOT pg_catalog.isempty(system_time)),
    CONSTRAINT claims_retired_shape CHECK (
        (retired_reason IS NULL) = pg_catalog.upper_inf(system_time)
    ),
    CONSTRAINT claims_retired_reason_check CHECK (retired_reason IN (
        'superseded', 'narrowed', 'replaced', 'retracted', 'source_changed', 'outranked',
        'rewritten'
    )),
    -- One live value per single-valued slot at any valid instant, even for raw SQL.
    CONSTRAINT claims_one_live_value EXCLUDE USING gist (
        tenant WITH =, subject_id WITH =, predicate WITH =, valid WITH &&
    ) WHERE (cardinality = 'one' AND pg_catalog.upper_inf(system_time))
);
CREATE INDEX claims_live_slot_idx ON @schema@_internal.claims (tenant, subject_id, predicate)
    WHERE pg_catalog.upper_inf(system_time);
CREATE INDEX claims_slot_idx ON @schema@_internal.claims (tenant, subject_id, predicate, claim_id);
CREATE INDEX claims_assertion_idx ON @schema@_internal.claims (tenant, assertion);
CREATE INDEX claims_search_idx ON @schema@_internal.claims USING gin (search_vector);
COMMENT ON TABLE @schema@_internal.claims IS
'Bi-temporal claims: never edited, only retired (system time closed) with a reason';

CREATE TABLE @schema@_internal.claim_sources (
    tenant text NOT NULL,
    claim_id bigint NOT NULL,
    episode_id bigint NOT NULL,
    locator jsonb,
    quote text,
    -- What this source asserted (its own valid range) and when: each source line is one
    -- event of the slot's story, which purge_source and verify_slot replay.
    asserted_valid tstzrange NOT NULL,
    added_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT claim_sources_pkey PRIMARY KEY (tenant, claim_id, episode_id),
    CONSTRAINT claim_sources_claim_fkey FOREIGN KEY (tenant, claim_id)
        REFERENCES @schema@_internal.claims (tenant, claim_id) ON DELETE CASCADE,
    CONSTRAINT claim_sources_episode_fkey FOREIGN KEY (tenant, episode_id)
        REFERENCES @schema@_internal.episodes (tenant, episode_id) ON DELETE CASCADE
);
CREATE INDEX claim_sources_episode_idx ON @schema@_internal.claim_sources (tenant, episode_id);
COMMENT ON TABLE @schema@_internal.claim_sources IS
'The episodes (with locator and quote) that support each claim';

-- Negative memory: a retracted assertion is never written again by ingest until restored.
-- Keyed by the assertion, so it outlives the claim rows (a slot rewritten by purge_source
-- gets new rows; the memory of what was retracted stays).
CREATE TABLE @schema@_internal.retractions (
    tenant text NOT NULL,
    retraction_id bigint GENERATED ALWAYS AS IDENTITY,
    assertion text NOT NULL,
    claim_id bigint,
    retracted_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    restored_at timestamptz,
    CONSTRAINT retractions_pkey PRIMARY KEY (tenant, retraction_id)
);
CREATE UNIQUE INDEX retractions_active_key ON @schema@_internal.retractions (tenant, assertion)
    WHERE restored_at IS NULL;
CREATE INDEX retractions_claim_idx ON @schema@_internal.retractions (tenant, claim_id);
COMMENT ON TABLE @schema@_internal.retractions IS 'Retracted assertions (negative memory)';

CREATE TABLE @schema@_internal.override_requests (
    tenant text NOT NULL,
    idempotency_key text NOT NULL,
    request_hash text NOT NULL,
    result jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT override_requests_pkey PRIMARY KEY (tenant, idempotency_key)
);
COMMENT ON TABLE @schema@_internal.override_requests IS
'Operator overrides by idempotency key: a retry returns the first result';

CREATE TABLE @schema@_internal.purge_audit (
    tenant text NOT NULL,
    audit_id bigint GENERATED ALWAYS AS IDENTITY,
    source_kind text NOT NULL,
    source_ref_sha256 text NOT NULL,
    purged_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    counts jsonb NOT NULL,
    CONSTRAINT purge_audit_pkey PRIMARY KEY (tenant, audit_id)
);
COMMENT ON TABLE @schema@_internal.purge_audit IS
'One row per purge_source: what kind of source, a hash of its ref, counts; never content';

ALTER TABLE @schema@_internal.entities ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.entities FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.predicates ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.predicates FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.episodes ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.episodes FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.claims ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.claims FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.claim_sources ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.claim_sources FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.retractions ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.retractions FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.override_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.override_requests FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.purge_audit ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.purge_audit FORCE ROW LEVEL SECURITY;
