-- Human review, the decisions: a reviewer (or an operator) approves a candidate, which
-- writes its claim through the knowledge write path as of the decision, or rejects it,
-- which keeps its assertion out of every later write until an operator lifts the
-- rejection. The candidate's row stays, with its decision; each decision appends an audit
-- row naming who made it (append_audit: the login, session, agent and kind).

CREATE OR REPLACE FUNCTION @schema@_internal.pending_candidate(
    tenant text, candidate_id bigint, note text
) RETURNS @schema@_internal.review_candidates
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- The candidate a decision is about, locked; refused unless it is still pending.
#variable_conflict use_variable
DECLARE
    locked @schema@_internal.review_candidates;
    assertion text;
BEGIN
    PERFORM @schema@_internal.check_text(note, 'note', 2000);
    IF candidate_id IS NULL THEN
        RAISE EXCEPTION 'candidate_id is required' USING ERRCODE = '22023';
    END IF;
    -- Decisions about one assertion take turns, before any candidate row is locked: a
    -- rejection also rejects the assertion's other pending candidates, and an approval
    -- must not miss a rejection being made.
    SELECT rc.assertion INTO assertion FROM @schema@_internal.review_candidates AS rc
     WHERE rc.tenant = tenant AND rc.candidate_id = candidate_id;
    IF FOUND THEN
        PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.lock_key(
            pg_catalog.concat_ws(':', '@schema@:review', tenant, assertion)));
    END IF;
    SELECT rc.* INTO locked FROM @schema@_internal.review_candidates AS rc
     WHERE rc.tenant = tenant AND rc.candidate_id = candidate_id
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no review candidate %', candidate_id USING ERRCODE = 'P0002',
            HINT = 'review_queue() lists the pending ones';
    END IF;
    IF locked.status <> 'pending' THEN
        RAISE EXCEPTION 'review candidate % is already %', candidate_id, locked.status
            USING ERRCODE = '55000', DETAIL = pg_catalog.format('decided at %s', locked.decided_at),
                  HINT = 'a decision is final; review_candidate() shows it';
    END IF;
    RETURN locked;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.pending_candidate(text, bigint, text) IS
'The pending review candidate a decision is about, locked FOR UPDATE after its assertion''s '
'review lock: P0002 when there is none, 55000 when it is decided already, 22023 for a note '
'over 2000 characters.';

CREATE OR REPLACE FUNCTION @schema@_internal.reviewer_name()
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The agent id the context gives, else the login: who decided, as the candidate keeps it.
    RETURN coalesce(@schema@_internal.context_setting('pgfacts.agent_id'), SESSION_USER::text);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.reviewer_name() IS
'Who makes a review decision: the caller context''s agent_id, else the login.';

CREATE OR REPLACE FUNCTION @schema@.approve_claim(candidate_id bigint, note text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    candidate @schema@_internal.review_candidates;
    approval @schema@_internal.episodes;
    written jsonb;
    decided_at timestamptz := pg_catalog.clock_timestamp();
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['reviewer', 'operator'], 'approve_claim');
    PERFORM @schema@_internal.require_read_committed('approve_claim');
    candidate := @schema@_internal.pending_candidate(tenant, candidate_id, note);
    IF EXISTS (SELECT 1 FROM @schema@_internal.review_rejections AS r
                WHERE r.tenant = tenant AND r.assertion = candidate.assertion
                  AND r.lifted_at IS NULL) THEN
        RAISE EXCEPTION 'review candidate %''s assertion was rejected', candidate_id
            USING ERRCODE = '55000', HINT = 'an operator lifts a rejection: lift_rejection()';
    END IF;
    -- The approval is a version of the candidate's source (so purge_source removes it and
    -- a newer version retires it, as for the source's other claims), with its trust, and
    -- takes that source's and the slot's locks as ingest does, in the same order.
    SELECT e.* INTO approval FROM @schema@_internal.episodes AS e
     WHERE e.tenant = tenant AND e.episode_id = candidate.episode_id;
    PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.lock_key(pg_catalog.concat_ws(
        ':', '@schema@:source', tenant, approval.source_kind, approval.source_ref)));
    PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.slot_lock_key(
        tenant, candidate.subject_id::text, candidate.predicate));
    approval.episode_id := pg_catalog.nextval('@schema@_internal.episodes_episode_id_seq'::regclass);
    approval.content_hash := 'review:candidate:' || candidate.candidate_id::text;
    approval.extractor := 'review';
    -- Marked approved by this transaction first: the review gate lets exactly this write by.
    UPDATE @schema@_internal.review_candidates AS rc
       SET status = 'approved', decided_at = decided_at, decided_by = @schema@_internal.reviewer_name(),
           decision_note = note, decision_xid = pg_catalog.pg_current_xact_id()
     WHERE rc.tenant = tenant AND rc.candidate_id = candidate.candidate_id;
    written := @schema@_internal.write_claims(tenant, approval,
        pg_catalog.jsonb_build_array(candidate.claim), @schema@_internal.confidence_floor(tenant),
        NULL, false);
    UPDATE @schema@_internal.review_candidates AS rc
       SET decision_outcome = (written -> 'outcomes' -> 0) - 'index'
     WHERE rc.tenant = tenant AND rc.candidate_id = candidate.candidate_id;
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(tenant, decided_at, 'review_approve',
        'candidate:' || candidate.candidate_id::text,
        pg_catalog.jsonb_build_object('status', 'pending', 'assertion', candidate.assertion,
            'episode_id', candidate.episode_id, 'held_because', candidate.held_because),
        pg_catalog.jsonb_build_object('status', 'approved', 'episode_id', approval.episode_id,
            'outcome', (written -> 'outcomes' -> 0) - 'index',
            'note_sha256', @schema@_internal.audit_digest(note))
    )::@schema@_internal.audit_entry], true);
    RETURN pg_catalog.jsonb_build_object('candidate_id', candidate.candidate_id,
        'status', 'approved', 'episode_id', approval.episode_id,
        'outcome', (written -> 'outcomes' -> 0) - 'index');
END
$fn$;

COMMENT ON FUNCTION @schema@.approve_claim(bigint, text) IS
'Reviewer / operator: approve a pending review candidate: its claim is written through the '
'knowledge write path now (an episode of its source, content_hash review:candidate:<id>), '
'believed from this write''s commit instant on; the candidate keeps its row and the '
'decision. Returns {candidate_id, status, episode_id, outcome: what the write did to the '
'claim, as ingest reports it}. P0002 no such candidate, 55000 decided already or its '
'assertion rejected, 22023 a note over 2000 characters.';

CREATE OR REPLACE FUNCTION @schema@.reject_claim(candidate_id bigint, note text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    candidate @schema@_internal.review_candidates;
    decided_at timestamptz := pg_catalog.clock_timestamp();
    rejection bigint;
    also bigint [];
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['reviewer', 'operator'], 'reject_claim');
    candidate := @schema@_internal.pending_candidate(tenant, candidate_id, note);
    SELECT r.rejection_id INTO rejection FROM @schema@_internal.review_rejections AS r
     WHERE r.tenant = tenant AND r.assertion = candidate.assertion AND r.lifted_at IS NULL;
    IF rejection IS NULL THEN
        INSERT INTO @schema@_internal.review_rejections AS r (tenant, assertion, candidate_id, rejected_at)
        VALUES (tenant, candidate.assertion, candidate.candidate_id, decided_at)
        RETURNING r.rejection_id INTO rejection;
    END IF;
    -- The other candidates of the same assertion waiting for review go with it.
    WITH decided AS (
        UPDATE @schema@_internal.review_candidates AS rc
           SET status = 'rejected', decided_at = decided_at,
               decided_by = @schema@_internal.reviewer_name(), decision_note = note
         WHERE rc.tenant = tenant AND rc.status = 'pending'
           AND (rc.candidate_id = candidate.candidate_id OR rc.assertion = candidate.assertion)
        RETURNING rc.candidate_id
    )
    SELECT pg_catalog.array_agg(d.candidate_id ORDER BY d.candidate_id) FILTER (
               WHERE d.candidate_id <> candidate.candidate_id)
      INTO also FROM decided AS d;
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(tenant, decided_at, 'review_reject',
        'candidate:' || candidate.candidate_id::text,
        pg_catalog.jsonb_build_object('status', 'pending', 'assertion', candidate.assertion,
            'episode_id', candidate.episode_id, 'held_because', candidate.held_because),
        pg_catalog.jsonb_build_object('status', 'rejected', 'rejection_id', rejection,
            'also_rejected', coalesce(also, '{}'),
            'note_sha256', @schema@_internal.audit_digest(note))
    )::@schema@_internal.audit_entry], true);
    RETURN pg_catalog.jsonb_build_object('candidate_id', candidate.candidate_id,
        'status', 'rejected', 'rejection_id', rejection,
        'also_rejected', pg_catalog.to_jsonb(coalesce(also, '{}')));
END
$fn$;

COMMENT ON FUNCTION @schema@.reject_claim(bigint, text) IS
'Reviewer / operator: reject a pending review candidate: its assertion (subject, predicate, '
'object) becomes a negative memory that no later ingest, extraction or approval writes '
'until an operator lifts it (lift_rejection); the other pending candidates of the same '
'assertion are rejected with it. Claims already believed are left as they are (retract '
'them). Returns {candidate_id, status, rejection_id, also_rejected}. P0002 no such '
'candidate, 55000 decided already, 22023 a note over 2000 characters.';

CREATE OR REPLACE FUNCTION @schema@.lift_rejection(rejection_id bigint)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    lifted @schema@_internal.review_rejections;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'lift_rejection');
    IF rejection_id IS NULL THEN
        RAISE EXCEPTION 'rejection_id is required' USING ERRCODE = '22023';
    END IF;
    UPDATE @schema@_internal.review_rejections AS r SET lifted_at = pg_catalog.clock_timestamp()
     WHERE r.tenant = tenant AND r.rejection_id = rejection_id AND r.lifted_at IS NULL
    RETURNING r.* INTO lifted;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM @schema@_internal.review_rejections AS r
                    WHERE r.tenant = tenant AND r.rejection_id = rejection_id) THEN
            RAISE EXCEPTION 'rejection % is lifted already', rejection_id USING ERRCODE = '55000';
        END IF;
        RAISE EXCEPTION 'no rejection %', rejection_id USING ERRCODE = 'P0002',
            HINT = 'review_candidate() shows a rejected candidate''s rejection_id';
    END IF;
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(tenant, lifted.lifted_at, 'review_lift',
        'rejection:' || lifted.rejection_id::text,
        pg_catalog.jsonb_build_object('assertion', lifted.assertion, 'lifted', false,
            'candidate_id', lifted.candidate_id),
        pg_catalog.jsonb_build_object('assertion', lifted.assertion, 'lifted', true)
    )::@schema@_internal.audit_entry], true);
    RETURN pg_catalog.jsonb_build_object('rejection_id', lifted.rejection_id,
        'candidate_id', lifted.candidate_id, 'lifted_at', lifted.lifted_at);
END
$fn$;

COMMENT ON FUNCTION @schema@.lift_rejection(bigint) IS
'Operator: lift a review rejection, so later writes may store its assertion again (a '
'candidate rejected stays rejected). Returns {rejection_id, candidate_id, lifted_at}. '
'P0002 no such rejection, 55000 lifted already.';
