-- Corrections: retract and restore (negative memory), and the operator's override.

CREATE OR REPLACE FUNCTION @schema@_internal.retract_assertion(
    tenant text, subject bigint, predicate text, assertion text, retract_at timestamptz
) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- A retraction says the assertion is wrong, wherever it holds: every live row of it in its
-- slot is retired (not narrowed: a retracted one value leaves a gap). Used by retract and
-- by the purge replay, which applies each retraction again at its instant.
#variable_conflict use_variable
DECLARE
    changes @schema@_internal.slot_row [];
BEGIN
    SELECT pg_catalog.array_agg(@schema@_internal.retire_row(
               ROW(c, 'live', 0, '{}')::@schema@_internal.slot_row, 'retracted', NULL)
               ORDER BY c.claim_id)
      INTO changes
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
       AND c.assertion = assertion AND pg_catalog.upper_inf(c.system_time);
    RETURN @schema@_internal.write_claim_changes(tenant, retract_at, changes);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.retract_assertion(text, bigint, text, text, timestamptz) IS
'Retire every live row of an assertion in its slot as retracted; returns how many.';

CREATE OR REPLACE FUNCTION @schema@_internal.restore_assertion(
    tenant text, subject bigint, predicate text, assertion text, retracted_at timestamptz,
    restore_at timestamptz, strict boolean
) RETURNS bigint []
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- Write again the rows a retraction (made at retracted_at) retired. A one value whose
-- interval a newer claim holds is refused when strict (restore), skipped otherwise (the
-- purge replay, where the slot may have changed under it). Returns the new claim ids.
#variable_conflict use_variable
DECLARE
    retracted @schema@_internal.claims;
    changes @schema@_internal.slot_row [] := '{}';
BEGIN
    FOR retracted IN
        SELECT c.* FROM @schema@_internal.claims AS c
         WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
           AND c.assertion = assertion AND c.retired_reason = 'retracted'
           AND pg_catalog.upper(c.system_time) >= retracted_at
         ORDER BY c.claim_id
    LOOP
        IF retracted.cardinality = 'one' AND (EXISTS (
            SELECT 1 FROM @schema@_internal.claims AS c
             WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
               AND pg_catalog.upper_inf(c.system_time) AND c.valid && retracted.valid)
            OR EXISTS (SELECT 1 FROM pg_catalog.unnest(changes) AS u
                        WHERE (u.claim).valid && retracted.valid)) THEN
            IF strict THEN
                RAISE EXCEPTION 'a newer claim holds the interval claim % covered',
                    retracted.claim_id
                    USING ERRCODE = 'PF006', HINT = 'retract or correct the newer claim first';
            END IF;
            CONTINUE;
        END IF;
        -- The row again with its source lines, live from restore_at (copy_row).
        changes := changes || @schema@_internal.copy_row(
            ROW(retracted, 'retire', 0, ARRAY(
                SELECT ROW(s, false)::@schema@_internal.source_line
                  FROM @schema@_internal.claim_sources AS s
                 WHERE s.tenant = tenant AND s.claim_id = retracted.claim_id
            ))::@schema@_internal.slot_row,
            retracted.valid, restore_at);
    END LOOP;
    PERFORM @schema@_internal.write_claim_changes(tenant, restore_at, changes);
    RETURN ARRAY(SELECT (u.claim).claim_id FROM pg_catalog.unnest(changes) WITH ORDINALITY AS u
                  ORDER BY u.ordinality);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.restore_assertion(
    text, bigint, text, text, timestamptz, timestamptz, boolean) IS
'Write again the rows of an assertion that a retraction made at retracted_at retired (a one '
'value whose interval is taken: refused when strict, else skipped); returns the new ids.';

CREATE OR REPLACE FUNCTION @schema@.retract(claim_id bigint)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    target record;
    retired integer;
    retract_at timestamptz;
BEGIN
    PERFORM @schema@_internal.require_kind(
        @schema@_internal.writer_kinds(), 'retract');
    PERFORM @schema@_internal.require_read_committed('retract');
    SELECT c.subject_id, c.predicate, c.assertion, pg_catalog.upper_inf(c.system_time) AS live
      INTO target
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.claim_id = retract.claim_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'claim % does not exist', claim_id USING ERRCODE = 'P0002';
    END IF;
    IF NOT target.live THEN
        RAISE EXCEPTION 'claim % is not live', claim_id
            USING ERRCODE = 'PF004', HINT = 'only a live claim can be retracted';
    END IF;
    PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.slot_lock_key(
        tenant, target.subject_id::text, target.predicate));
    retract_at := @schema@_internal.slot_instant(tenant, target.subject_id, target.predicate);
    PERFORM @schema@_internal.note_knowledge_write(tenant, retract_at, ARRAY[target.subject_id],
                                                   ARRAY[target.predicate], NULL);
    retired := @schema@_internal.retract_assertion(
        tenant, target.subject_id, target.predicate, target.assertion, retract_at);
    -- The slot lock above serializes retractions of one assertion.
    IF NOT EXISTS (SELECT 1 FROM @schema@_internal.retractions AS r
                    WHERE r.tenant = tenant AND r.assertion = target.assertion
                      AND r.restored_at IS NULL) THEN
        INSERT INTO @schema@_internal.retractions (
            tenant, claim_id, assertion, subject_id, predicate, retracted_at, retracted_seq)
        VALUES (tenant, claim_id, target.assertion, target.subject_id, target.predicate,
                retract_at, pg_catalog.nextval('@schema@_internal.knowledge_event_seq'::regclass));
    END IF;
    RETURN pg_catalog.jsonb_build_object('claim_id', claim_id, 'retracted', true, 'rows', retired);
END
$fn$;

COMMENT ON FUNCTION @schema@.retract(bigint) IS
'Retract the assertion of a live claim: every live row of it in its slot is retired as '
'retracted (a retracted one value leaves a gap), and until restored ingest never writes it '
'again (counted as rejected, reason retracted). Returns {claim_id, retracted, rows}.';

CREATE OR REPLACE FUNCTION @schema@.restore(claim_id bigint)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    target record;
    restored bigint [];
    restore_at timestamptz;
BEGIN
    PERFORM @schema@_internal.require_kind(
        @schema@_internal.writer_kinds(), 'restore');
    PERFORM @schema@_internal.require_read_committed('restore');
    -- The active retraction of the claim's assertion, found through the claim row or, once
    -- a purge has rewritten the slot with new ids, through the id it was made with.
    SELECT r.subject_id, r.predicate, r.assertion, r.retracted_at INTO target
      FROM @schema@_internal.retractions AS r
     WHERE r.tenant = tenant AND r.restored_at IS NULL
       AND r.assertion = coalesce(
               (SELECT c.assertion FROM @schema@_internal.claims AS c
                 WHERE c.tenant = tenant AND c.claim_id = restore.claim_id
                   AND c.retired_reason = 'retracted'),
               (SELECT r2.assertion FROM @schema@_internal.retractions AS r2
                 WHERE r2.tenant = tenant AND r2.claim_id = restore.claim_id
                   AND r2.restored_at IS NULL));
    IF NOT FOUND THEN
        RAISE EXCEPTION 'claim % is not retracted', claim_id
            USING ERRCODE = 'PF005', HINT = 'restore takes a claim whose assertion is retracted';
    END IF;
    PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.slot_lock_key(
        tenant, target.subject_id::text, target.predicate));
    -- A concurrent restore of the same assertion may have won the lock.
    IF NOT EXISTS (SELECT 1 FROM @schema@_internal.retractions AS r
                    WHERE r.tenant = tenant AND r.assertion = target.assertion
                      AND r.restored_at IS NULL) THEN
        RAISE EXCEPTION 'claim % is not retracted', claim_id
            USING ERRCODE = 'PF005', HINT = 'restore takes a claim whose assertion is retracted';
    END IF;
    restore_at := @schema@_internal.slot_instant(tenant, target.subject_id, target.predicate);
    PERFORM @schema@_internal.note_knowledge_write(tenant, restore_at, ARRAY[target.subject_id],
                                                   ARRAY[target.predicate], NULL);
    restored := @schema@_internal.restore_assertion(tenant, target.subject_id, target.predicate,
        target.assertion, target.retracted_at, restore_at, true);
    UPDATE @schema@_internal.retractions AS r
       SET restored_at = restore_at,
           restored_seq = pg_catalog.nextval('@schema@_internal.knowledge_event_seq'::regclass)
     WHERE r.tenant = tenant AND r.assertion = target.assertion AND r.restored_at IS NULL;
    RETURN pg_catalog.jsonb_build_object('claim_id', claim_id, 'restored_as', restored);
END
$fn$;

COMMENT ON FUNCTION @schema@.restore(bigint) IS
'Lift a retraction and write again every row it retired (new rows with the same sources and '
'valid ranges); refused (PF006) when a newer one value holds one of those intervals. '
'Returns {claim_id, restored_as: [new claim ids]}.';

CREATE OR REPLACE FUNCTION @schema@.override(idempotency_key text, claim jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    request_hash text := pg_catalog.md5(claim::text);
    earlier record;
    result jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'override');
    IF idempotency_key IS NULL OR pg_catalog.length(idempotency_key) NOT BETWEEN 1 AND 200 THEN
        RAISE EXCEPTION 'idempotency_key must be 1 to 200 characters' USING ERRCODE = '22023';
    END IF;
    IF claim IS NULL OR pg_catalog.jsonb_typeof(claim) <> 'object' THEN
        RAISE EXCEPTION 'claim must be a JSON object' USING ERRCODE = '22023';
    END IF;
    -- One override per key at a time: a retry waits for the first and then finds it.
    PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.lock_key(
        '@schema@:override:' || tenant || ':' || idempotency_key));
    SELECT o.request_hash, o.result INTO earlier FROM @schema@_internal.override_requests AS o
     WHERE o.tenant = tenant AND o.idempotency_key = override.idempotency_key;
    IF FOUND THEN
        IF earlier.request_hash <> request_hash THEN
            RAISE EXCEPTION 'idempotency key % was used for a different request',
                @schema@_internal.shown(idempotency_key)
                USING ERRCODE = 'PF007', HINT = 'use a new key for a new correction';
        END IF;
        RETURN earlier.result || '{"replayed": true}';
    END IF;
    -- The operator outranks every other source, and the confidence floor is off.
    result := @schema@_internal.ingest_episode(
        pg_catalog.jsonb_build_object('source_kind', 'override', 'source_ref', idempotency_key,
                                      'content_hash', request_hash, 'trust', 'operator'),
        pg_catalog.jsonb_build_array(claim), 0);
    INSERT INTO @schema@_internal.override_requests (tenant, idempotency_key, request_hash, result)
    VALUES (tenant, idempotency_key, request_hash, result);
    RETURN result || '{"replayed": false}';
END
$fn$;

COMMENT ON FUNCTION @schema@.override(text, jsonb) IS
'Operator only: write one claim with operator trust and no confidence floor. A retry with '
'the same idempotency_key and claim returns the first result and writes nothing; the same '
'key with a different claim is refused (PF007).';
