-- Layer: 60_governance
--
-- Human review of working-memory facts (issue 25): a tenant names key prefixes whose facts
-- a task agent (kinds agent and crawler) may not write straight into memory. Such a write
-- is held as a fact candidate, never entering facts until a reviewer approves it (then it
-- is written through the memory write path); a rejection leaves memory as it was. The
-- governance layer takes the write out with a trigger on facts of its own, as it refuses
-- redaction placeholders, so every write path is covered and none names this layer.

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.review_key_prefixes (
    tenant text NOT NULL,
    prefix text NOT NULL,
    set_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT review_key_prefixes_pkey PRIMARY KEY (tenant, prefix),
    CONSTRAINT review_key_prefixes_shape CHECK (pg_catalog.length(prefix) BETWEEN 1 AND 200)
);
COMMENT ON TABLE @schema@_internal.review_key_prefixes IS
'Per tenant, the fact key prefixes under which a task agent''s writes wait for review';

-- A fact write held for review: what the write would have stored, who wrote it, and its
-- decision.
CREATE TABLE @schema@_internal.review_fact_candidates (
    tenant text NOT NULL,
    candidate_id bigint GENERATED ALWAYS AS IDENTITY,
    scope_key text NOT NULL,
    key text NOT NULL,
    shared boolean NOT NULL,
    session_id text,
    agent_id text,
    writer_kind text NOT NULL,
    value jsonb NOT NULL,
    tags text [] NOT NULL,
    expires_at timestamptz,
    held_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    status text NOT NULL DEFAULT 'pending',
    decided_at timestamptz,
    decided_by text,
    decision_note text,
    CONSTRAINT review_fact_candidates_pkey PRIMARY KEY (tenant, candidate_id),
    CONSTRAINT review_fact_candidates_status_check
        CHECK (status IN ('pending', 'approved', 'rejected')),
    CONSTRAINT review_fact_candidates_decided_shape
        CHECK ((status = 'pending') = (decided_at IS NULL))
);
CREATE INDEX review_fact_candidates_pending_idx
    ON @schema@_internal.review_fact_candidates (tenant, candidate_id) WHERE status = 'pending';
COMMENT ON TABLE @schema@_internal.review_fact_candidates IS
'Fact writes held for human review (never in facts until approved), with their decisions';

-- Every row is its tenant's (the policies: sql/60_governance/90_policies.sql).
ALTER TABLE @schema@_internal.review_key_prefixes ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.review_key_prefixes FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.review_fact_candidates ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.review_fact_candidates FORCE ROW LEVEL SECURITY;
