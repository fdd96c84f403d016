-- Layer: 60_governance
--
-- Human review (issue 25): claims from sources below a tenant's review trust or confidence
-- are held as candidates, never entering the claims table until a reviewer approves them,
-- so every read of claims stays as it is. A rejection is a negative memory keyed by the
-- assertion, consulted by the knowledge write path; an operator lifts it.
--
-- The write path reaches the governance layer through claim_gates, a registry the
-- knowledge layer owns (tests/lint_layers.py OBJECT_LAYERS): knowledge calls every gate a
-- later layer registered, and names none of them.

-- The reviewer kind: reads what it reviews, writes only review decisions.
DO $roles$
BEGIN
    CREATE ROLE @schema@_reviewer NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;  -- another database of this cluster created it first
END
$roles$;

SET LOCAL ROLE @schema@_owner;

-- Knowledge's: the gates a non-replay write passes its checked claims through. The install's,
-- not a tenant's (no tenant column); emptied and refilled whenever the definitions apply.
CREATE TABLE @schema@_internal.claim_gates (
    layer text NOT NULL,
    handler regprocedure NOT NULL,
    CONSTRAINT claim_gates_pkey PRIMARY KEY (layer)
);
COMMENT ON TABLE @schema@_internal.claim_gates IS
'The claim gates later layers register (register_claim_gate): write_claims passes each '
'non-replay episode''s checked claims through them, in layer order';

-- A claim held for review: the claim as the write path checked it (its valid_from
-- resolved), the episode that said it, why it was held, and its decision.
CREATE TABLE @schema@_internal.review_candidates (
    tenant text NOT NULL,
    candidate_id bigint GENERATED ALWAYS AS IDENTITY,
    episode_id bigint NOT NULL,
    claim_index integer NOT NULL,
    claim jsonb NOT NULL,
    subject_id bigint NOT NULL,
    predicate text NOT NULL,
    assertion text NOT NULL,
    held_because text NOT NULL,
    held_at timestamptz NOT NULL,
    status text NOT NULL DEFAULT 'pending',
    decided_at timestamptz,
    decided_by text,
    decision_note text,
    -- The transaction that approved it: the write path lets exactly that write through.
    decision_xid xid8,
    -- What the approval's write did ({outcome, claim_id?, ...} as ingest reports a claim).
    decision_outcome jsonb,
    CONSTRAINT review_candidates_pkey PRIMARY KEY (tenant, candidate_id),
    -- The episode row is written by the same write_claims call, after its gates.
    CONSTRAINT review_candidates_episode_fkey FOREIGN KEY (tenant, episode_id)
        REFERENCES @schema@_internal.episodes (tenant, episode_id)
        ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT review_candidates_status_check CHECK (status IN ('pending', 'approved', 'rejected')),
    CONSTRAINT review_candidates_held_because_check CHECK (held_because IN ('trust', 'confidence')),
    CONSTRAINT review_candidates_decided_shape CHECK ((status = 'pending') = (decided_at IS NULL))
);
CREATE INDEX review_candidates_pending_idx ON @schema@_internal.review_candidates (tenant, candidate_id)
    WHERE status = 'pending';
CREATE INDEX review_candidates_episode_idx ON @schema@_internal.review_candidates (tenant, episode_id);
CREATE INDEX review_candidates_assertion_idx ON @schema@_internal.review_candidates (tenant, assertion)
    WHERE status = 'pending';
COMMENT ON TABLE @schema@_internal.review_candidates IS
'Claims held for human review (never in claims until approved), with their decisions';

-- Negative memory of review: a rejected assertion is never written again by a non-replay
-- write until an operator lifts the rejection.
CREATE TABLE @schema@_internal.review_rejections (
    tenant text NOT NULL,
    rejection_id bigint GENERATED ALWAYS AS IDENTITY,
    assertion text NOT NULL,
    candidate_id bigint NOT NULL,
    rejected_at timestamptz NOT NULL,
    lifted_at timestamptz,
    CONSTRAINT review_rejections_pkey PRIMARY KEY (tenant, rejection_id)
);
CREATE UNIQUE INDEX review_rejections_active_key ON @schema@_internal.review_rejections (tenant, assertion)
    WHERE lifted_at IS NULL;
COMMENT ON TABLE @schema@_internal.review_rejections IS
'Assertions a reviewer rejected (negative memory): the write path refuses them until lifted';

ALTER TABLE @schema@_internal.review_candidates ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.review_candidates FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.review_rejections ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.review_rejections FORCE ROW LEVEL SECURITY;
