-- Reading knowledge: as of a valid instant and a known instant, and the whole history.

CREATE OR REPLACE FUNCTION @schema@.as_of(
    subject bigint, predicate text, valid_at timestamptz DEFAULT NULL,
    known_at timestamptz DEFAULT NULL
) RETURNS TABLE (
    claim_id bigint, object_value jsonb, object_entity_id bigint, claim_text text,
    confidence real, valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    at_valid timestamptz := coalesce(valid_at, pg_catalog.now());
    at_known timestamptz := coalesce(known_at, pg_catalog.now());
BEGIN
    PERFORM @schema@_internal.context_kind();
    IF known_at > pg_catalog.now() THEN
        RAISE EXCEPTION 'known_at % is in the future', known_at
            USING ERRCODE = '22023', HINT = 'the database cannot know what it will believe';
    END IF;
    RETURN QUERY
    SELECT c.claim_id, c.object_value, c.object_entity_id, c.text, c.confidence,
           pg_catalog.lower(c.valid), pg_catalog.upper(c.valid), pg_catalog.lower(c.system_time)
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
       AND c.valid @> at_valid AND c.system_time @> at_known
       AND c.retired_reason IS DISTINCT FROM 'outranked'
     ORDER BY c.claim_id;
END
$fn$;

COMMENT ON FUNCTION @schema@.as_of(bigint, text, timestamptz, timestamptz) IS
'What was true for (subject, predicate) at valid_at (default now) as this database believed '
'at known_at (default now; a future instant is refused). One row for a one predicate, any '
'number for many. Outranked claims never answer.';

CREATE OR REPLACE FUNCTION @schema@.history(subject bigint, predicate text)
RETURNS TABLE (
    claim_id bigint, object_value jsonb, object_entity_id bigint, claim_text text,
    confidence real, valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz,
    retired_at timestamptz, retired_reason text, superseded_by bigint, copied_from bigint
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
BEGIN
    PERFORM @schema@_internal.context_kind();
    RETURN QUERY
    SELECT c.claim_id, c.object_value, c.object_entity_id, c.text, c.confidence,
           pg_catalog.lower(c.valid), pg_catalog.upper(c.valid), pg_catalog.lower(c.system_time),
           CASE WHEN pg_catalog.upper_inf(c.system_time) THEN NULL
                ELSE pg_catalog.upper(c.system_time) END,
           c.retired_reason, c.superseded_by, c.copied_from
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
     ORDER BY c.claim_id;
END
$fn$;

COMMENT ON FUNCTION @schema@.history(bigint, text) IS
'Every version of (subject, predicate) in recorded order: valid range, recorded_at, '
'retired_at and why it ended (superseded, narrowed copy via copied_from, replaced, '
'retracted, source_changed, outranked).';
