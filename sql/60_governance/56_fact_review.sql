-- Human review of working-memory facts (migration 0052): under the key prefixes a tenant
-- names (set_review_key_prefixes), a task agent's write of new content (kinds agent and
-- crawler: a fact stored, changed or revived) is held as a fact candidate instead of
-- entering facts. The facts manager and the operator write as before; tombstones and crawl
-- marks pass. A trigger on facts takes the row out of the write (BEFORE, returning NULL),
-- so every write path is covered (store_fact, store_facts, bulk_store_facts, imports) and
-- the memory layer names none of this: its write reports the fact as held, not stored. A
-- reviewer approves (the fact is written through the memory write path, as the writer's
-- session and agent) or rejects (memory stays as it was); both are audited.

CREATE OR REPLACE FUNCTION @schema@_internal.review_prefix_of(tenant text, key text)
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- '<tenant> US <0|1>': whether the tenant names any prefix, as this transaction last
    -- read it (a write of many facts asks once; set_review_key_prefixes clears it).
    cached text := pg_catalog.current_setting('pgfacts.review_prefixes', true);
    named boolean;
    found text;
BEGIN
    IF pg_catalog.split_part(cached, pg_catalog.chr(31), 1) = tenant THEN
        named := pg_catalog.split_part(cached, pg_catalog.chr(31), 2) = '1';
    ELSE
        named := EXISTS (SELECT 1 FROM @schema@_internal.review_key_prefixes AS p
                          WHERE p.tenant = review_prefix_of.tenant);
        PERFORM pg_catalog.set_config('pgfacts.review_prefixes', tenant || pg_catalog.chr(31)
            || CASE WHEN named THEN '1' ELSE '0' END, true);
    END IF;
    IF NOT named THEN
        RETURN NULL;
    END IF;
    SELECT p.prefix INTO found FROM @schema@_internal.review_key_prefixes AS p
     WHERE p.tenant = review_prefix_of.tenant AND pg_catalog.starts_with(key, p.prefix)
     ORDER BY pg_catalog.length(p.prefix) DESC
     LIMIT 1;
    RETURN found;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.review_prefix_of(text, text) IS
'The longest review key prefix of the tenant a key falls under, NULL for none (whether the '
'tenant names any is read once a transaction).';

CREATE OR REPLACE FUNCTION @schema@_internal.hold_fact_for_review()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- New content only: a tombstone, a crawl mark or the value already stored passes (a
    -- store's INSERT fires this before its conflict is found, so the stored row is looked
    -- up). An approval writes as the reviewer or operator, whom the trigger's WHEN lets by.
    IF NEW.deleted_at IS NOT NULL
       OR @schema@_internal.review_prefix_of(NEW.tenant, NEW.key) IS NULL
       OR (TG_OP = 'UPDATE' AND OLD.deleted_at IS NULL AND OLD.value IS NOT DISTINCT FROM NEW.value
           AND OLD.tags IS NOT DISTINCT FROM NEW.tags)
       OR (TG_OP = 'INSERT' AND EXISTS (
               SELECT 1 FROM @schema@_internal.facts AS f
                WHERE f.tenant = NEW.tenant AND f.key = NEW.key
                  AND @schema@_internal.fact_scope(f.shared, f.session_id)
                      = @schema@_internal.fact_scope(NEW.shared, NEW.session_id)
                  AND f.deleted_at IS NULL AND f.value IS NOT DISTINCT FROM NEW.value
                  AND f.tags IS NOT DISTINCT FROM NEW.tags)) THEN
        RETURN NEW;
    END IF;
    INSERT INTO @schema@_internal.review_fact_candidates AS c (
        tenant, scope_key, key, shared, session_id, agent_id, writer_kind, value, tags, expires_at)
    VALUES (NEW.tenant, NEW.scope_key, NEW.key, NEW.shared, NEW.session_id, NEW.agent_id,
            NEW.writer_kind, NEW.value, NEW.tags, NEW.expires_at);
    RETURN NULL;  -- the write leaves facts as they were
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.hold_fact_for_review() IS
'Trigger: a task agent''s new content for a fact under a review key prefix of its tenant is '
'held as a fact candidate and kept out of facts.';

-- WHEN: only the kinds whose writes wait pay for the call.
CREATE OR REPLACE TRIGGER facts_review_hold BEFORE INSERT OR UPDATE ON @schema@_internal.facts
FOR EACH ROW WHEN (NEW.writer_kind IN ('agent', 'crawler'))
EXECUTE FUNCTION @schema@_internal.hold_fact_for_review();

CREATE OR REPLACE FUNCTION @schema@.review_key_prefixes()
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ctx_tenant text := @schema@_internal.context_tenant();
BEGIN
    PERFORM @schema@_internal.context_kind();
    RETURN pg_catalog.jsonb_build_object('tenant', ctx_tenant, 'prefixes',
        coalesce((SELECT pg_catalog.jsonb_agg(p.prefix ORDER BY p.prefix)
                    FROM @schema@_internal.review_key_prefixes AS p
                   WHERE p.tenant = ctx_tenant), '[]'));
END
$fn$;

COMMENT ON FUNCTION @schema@.review_key_prefixes() IS
'The fact key prefixes under which a task agent''s writes wait for review, for the caller''s '
'tenant: {tenant, prefixes}. Every kind reads it (a writer needs to know what waits).';

CREATE OR REPLACE FUNCTION @schema@.set_review_key_prefixes(prefixes text [])
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ctx_tenant text := @schema@_internal.context_tenant();
    before jsonb;
    bad text;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'set_review_key_prefixes');
    IF prefixes IS NULL OR pg_catalog.cardinality(prefixes) > 64 THEN
        RAISE EXCEPTION 'prefixes must be an array of at most 64 key prefixes'
            USING ERRCODE = '22023', HINT = 'an empty array reviews no fact';
    END IF;
    SELECT p INTO bad FROM pg_catalog.unnest(prefixes) AS p
     WHERE p IS NULL OR pg_catalog.length(p) NOT BETWEEN 1 AND 200 OR p ~ '[[:cntrl:]*?]'
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'bad review key prefix %', coalesce(@schema@_internal.shown(bad), 'NULL')
            USING ERRCODE = '22023',
                  HINT = '1 to 200 characters without control characters or wildcards, such as policy/';
    END IF;
    before := @schema@.review_key_prefixes() -> 'prefixes';
    DELETE FROM @schema@_internal.review_key_prefixes AS p WHERE p.tenant = ctx_tenant;
    INSERT INTO @schema@_internal.review_key_prefixes AS p (tenant, prefix)
    SELECT DISTINCT ctx_tenant, x FROM pg_catalog.unnest(prefixes) AS x;
    PERFORM pg_catalog.set_config('pgfacts.review_prefixes', '', true);
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(ctx_tenant, pg_catalog.clock_timestamp(),
        'set_review_key_prefixes', 'tenant:' || ctx_tenant,
        pg_catalog.jsonb_build_object('prefixes', before),
        pg_catalog.jsonb_build_object('prefixes', @schema@.review_key_prefixes() -> 'prefixes')
    )::@schema@_internal.audit_entry], true);
    RETURN @schema@.review_key_prefixes();
END
$fn$;

COMMENT ON FUNCTION @schema@.set_review_key_prefixes(text []) IS
'Operator: the tenant''s review key prefixes (at most 64, each 1 to 200 characters; an empty '
'array: none). A task agent''s (agent, crawler) write of a fact under one is held for review '
'from then on; held ones stay held. Audited. Returns review_key_prefixes().';

CREATE OR REPLACE FUNCTION @schema@.fact_review_queue("limit" integer DEFAULT 50)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['reviewer', 'tuner', 'operator'],
                                           'fact_review_queue');
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 1000);
    RETURN coalesce((
        SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'candidate_id', c.candidate_id, 'held_at', c.held_at,
                   'scope_key', c.scope_key, 'key', c.key, 'shared', c.shared,
                   'session_id', c.session_id, 'agent_id', c.agent_id,
                   'writer_kind', c.writer_kind, 'value', c.value, 'tags', c.tags,
                   'expires_at', c.expires_at,
                   -- What memory holds under the key now (null: nothing), to compare.
                   'current_value', (SELECT f.value FROM @schema@_internal.facts AS f
                                      WHERE f.tenant = c.tenant AND f.scope_key = c.scope_key
                                        AND f.deleted_at IS NULL))
                   ORDER BY c.candidate_id)
          FROM (SELECT rc.* FROM @schema@_internal.review_fact_candidates AS rc
                 WHERE rc.tenant = tenant AND rc.status = 'pending'
                 ORDER BY rc.candidate_id LIMIT "limit") AS c), '[]');
END
$fn$;

COMMENT ON FUNCTION @schema@.fact_review_queue(integer) IS
'Reviewer / tuner / operator: the fact writes waiting for review, oldest first (at most '
'limit, 1 to 1000): [{candidate_id, held_at, scope_key, key, shared, session_id, agent_id, '
'writer_kind, value, tags, expires_at, current_value}].';

CREATE OR REPLACE FUNCTION @schema@_internal.pending_fact_candidate(
    tenant text, candidate_id bigint, note text
) RETURNS @schema@_internal.review_fact_candidates
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    locked @schema@_internal.review_fact_candidates;
BEGIN
    PERFORM @schema@_internal.check_text(note, 'note', 2000);
    IF candidate_id IS NULL THEN
        RAISE EXCEPTION 'candidate_id is required' USING ERRCODE = '22023';
    END IF;
    SELECT c.* INTO locked FROM @schema@_internal.review_fact_candidates AS c
     WHERE c.tenant = tenant AND c.candidate_id = candidate_id
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no fact review candidate %', candidate_id USING ERRCODE = 'P0002',
            HINT = 'fact_review_queue() lists the pending ones';
    END IF;
    IF locked.status <> 'pending' THEN
        RAISE EXCEPTION 'fact review candidate % is already %', candidate_id, locked.status
            USING ERRCODE = '55000', HINT = 'a decision is final';
    END IF;
    RETURN locked;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.pending_fact_candidate(text, bigint, text) IS
'The pending fact candidate a decision is about, locked FOR UPDATE: P0002 when there is '
'none, 55000 when it is decided already, 22023 for a note over 2000 characters.';

CREATE OR REPLACE FUNCTION @schema@_internal.decide_fact(
    candidate_id bigint, note text, approve boolean
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    candidate @schema@_internal.review_fact_candidates;
    decided_at timestamptz := pg_catalog.clock_timestamp();
    written jsonb;
BEGIN
    candidate := @schema@_internal.pending_fact_candidate(tenant, candidate_id, note);
    UPDATE @schema@_internal.review_fact_candidates AS c
       SET status = CASE WHEN approve THEN 'approved' ELSE 'rejected' END,
           decided_at = decided_at, decided_by = @schema@_internal.reviewer_name(),
           decision_note = note
     WHERE c.tenant = tenant AND c.candidate_id = candidate.candidate_id;
    IF approve THEN
        -- Through the memory write path, in the writer's session and as its agent, written
        -- by the deciding kind (the hold lets it by; a task agent's later store waits again).
        written := @schema@_internal.upsert_facts(
            ARRAY[pg_catalog.jsonb_build_object(
                'key', candidate.key, 'value', candidate.value, 'shared', candidate.shared,
                'tags', pg_catalog.to_jsonb(candidate.tags),
                'ttl_seconds', CASE WHEN candidate.expires_at IS NOT NULL
                    THEN GREATEST(1, pg_catalog.ceil(EXTRACT(epoch FROM
                         candidate.expires_at - pg_catalog.clock_timestamp())))::integer END)],
            tenant, candidate.session_id, candidate.agent_id) -> 0;
    END IF;
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(tenant, decided_at,
        CASE WHEN approve THEN 'review_approve' ELSE 'review_reject' END,
        'fact_candidate:' || candidate.candidate_id::text,
        pg_catalog.jsonb_build_object('status', 'pending', 'scope_key', candidate.scope_key,
            'writer_kind', candidate.writer_kind, 'agent_id', candidate.agent_id),
        pg_catalog.jsonb_build_object(
            'status', CASE WHEN approve THEN 'approved' ELSE 'rejected' END,
            'note_sha256', @schema@_internal.audit_digest(note))
    )::@schema@_internal.audit_entry], true);
    RETURN pg_catalog.jsonb_build_object('candidate_id', candidate.candidate_id,
        'status', CASE WHEN approve THEN 'approved' ELSE 'rejected' END,
        'scope_key', candidate.scope_key, 'stored', coalesce((written ->> 'stored')::boolean, false));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.decide_fact(bigint, text, boolean) IS
'A decision on a pending fact candidate: approved, its fact written through the memory '
'write path (upsert_facts) as its writer''s session and agent; rejected, nothing written. '
'Audited either way with who decided.';

CREATE OR REPLACE FUNCTION @schema@.approve_fact(candidate_id bigint, note text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['reviewer', 'operator'], 'approve_fact');
    RETURN @schema@_internal.decide_fact(candidate_id, note, true);
END
$fn$;

COMMENT ON FUNCTION @schema@.approve_fact(bigint, text) IS
'Reviewer / operator: approve a held fact write: the fact is stored now through the memory '
'write path (its writer''s session and agent; a ttl it had runs from its first write), the '
'candidate keeps its row and the decision. Returns {candidate_id, status, scope_key, '
'stored}. P0002 no such candidate, 55000 decided already, 22023 a note over 2000 characters.';

CREATE OR REPLACE FUNCTION @schema@.reject_fact(candidate_id bigint, note text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['reviewer', 'operator'], 'reject_fact');
    RETURN @schema@_internal.decide_fact(candidate_id, note, false);
END
$fn$;

COMMENT ON FUNCTION @schema@.reject_fact(bigint, text) IS
'Reviewer / operator: reject a held fact write: memory stays as it was (a later write of the '
'key waits for review again). Returns {candidate_id, status, scope_key, stored: false}. '
'P0002 no such candidate, 55000 decided already, 22023 a note over 2000 characters.';
