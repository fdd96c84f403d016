-- Corrections: retract and restore (negative memory), and the operator's override.

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
BEGIN
    PERFORM @schema@_internal.require_kind(
        ARRAY['agent', 'facts_manager', 'crawler', 'operator'], 'retract');
    SELECT c.subject_id, c.predicate, c.assertion, pg_catalog.upper_inf(c.system_time) AS live
      INTO target
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.claim_id = retract.claim_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'claim % does not exist', claim_id USING ERRCODE = 'P0002';
    END IF;
    IF NOT target.live THEN
        RAISE EXCEPTION 'claim % is not live', claim_id
            USING ERRCODE = '55000', HINT = 'only a live claim can be retracted';
    END IF;
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
        '@schema@:slot:' || tenant || ':' || target.subject_id || ':' || target.predicate, 0));
    -- Retired, not narrowed: a retracted one value leaves a gap.
    PERFORM @schema@_internal.retire_claim(tenant, claim_id, 'retracted', NULL, pg_catalog.now());
    -- The slot lock above serializes retractions of one assertion.
    IF NOT EXISTS (SELECT 1 FROM @schema@_internal.retractions AS r
                    WHERE r.tenant = tenant AND r.assertion = target.assertion
                      AND r.restored_at IS NULL) THEN
        INSERT INTO @schema@_internal.retractions (tenant, claim_id, assertion)
        VALUES (tenant, claim_id, target.assertion);
    END IF;
    RETURN pg_catalog.jsonb_build_object('claim_id', claim_id, 'retracted', true);
END
$fn$;

COMMENT ON FUNCTION @schema@.retract(bigint) IS
'Retire a live claim as retracted; until restored, ingest never writes the same assertion '
'again (counted as rejected, reason retracted). A retracted one value leaves a gap.';

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
    copy_id bigint;
BEGIN
    PERFORM @schema@_internal.require_kind(
        ARRAY['agent', 'facts_manager', 'crawler', 'operator'], 'restore');
    SELECT c.subject_id, c.predicate, c.cardinality, c.valid, c.assertion INTO target
      FROM @schema@_internal.claims AS c
      JOIN @schema@_internal.retractions AS r
        ON r.tenant = c.tenant AND r.assertion = c.assertion AND r.restored_at IS NULL
     WHERE c.tenant = tenant AND c.claim_id = restore.claim_id
       AND c.retired_reason = 'retracted';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'claim % is not retracted', claim_id USING ERRCODE = 'P0002';
    END IF;
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
        '@schema@:slot:' || tenant || ':' || target.subject_id || ':' || target.predicate, 0));
    IF target.cardinality = 'one' AND EXISTS (
        SELECT 1 FROM @schema@_internal.claims AS c
         WHERE c.tenant = tenant AND c.subject_id = target.subject_id
           AND c.predicate = target.predicate AND pg_catalog.upper_inf(c.system_time)
           AND c.valid && target.valid) THEN
        RAISE EXCEPTION 'a newer claim holds the interval claim % covered', claim_id
            USING ERRCODE = '55000', HINT = 'retract or correct the newer claim first';
    END IF;
    UPDATE @schema@_internal.retractions AS r SET restored_at = pg_catalog.now()
     WHERE r.tenant = tenant AND r.assertion = target.assertion AND r.restored_at IS NULL;
    copy_id := @schema@_internal.copy_claim(tenant, claim_id, target.valid, pg_catalog.now());
    RETURN pg_catalog.jsonb_build_object('claim_id', claim_id, 'restored_as', copy_id);
END
$fn$;

COMMENT ON FUNCTION @schema@.restore(bigint) IS
'Lift a retraction and write the claim again (as a new row with the same sources and valid '
'range); refused (55000) when a newer one value holds that interval.';

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
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
        '@schema@:override:' || tenant || ':' || idempotency_key, 0));
    SELECT o.request_hash, o.result INTO earlier FROM @schema@_internal.override_requests AS o
     WHERE o.tenant = tenant AND o.idempotency_key = override.idempotency_key;
    IF FOUND THEN
        IF earlier.request_hash <> request_hash THEN
            RAISE EXCEPTION 'idempotency key % was used for a different request', idempotency_key
                USING ERRCODE = '23505', HINT = 'use a new key for a new correction';
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
'key with a different claim is refused (23505).';
