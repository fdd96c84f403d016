-- Reading knowledge: as of a valid instant and a known instant, and the whole history.

-- Inlined (no SET clause, every name qualified; tests/lint_sql.py lists it).
CREATE OR REPLACE FUNCTION @schema@_internal.claim_unexpired(expires_at timestamptz, at timestamptz)
RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    -- A row's expires_at (migration 0051) is a parameter so that no read path leaves it out.
    SELECT expires_at IS NULL OR expires_at OPERATOR(pg_catalog.>) coalesce(at, pg_catalog.now())
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_unexpired(timestamptz, timestamptz) IS
'Whether a claim row is unexpired at an instant (default now): it expires when every '
'episode supporting it has, and reads as absent from then on. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.sees_expired(kind text)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- The auditors (who read the audit) see an expired claim's history until maintenance
    -- purges it; every other kind, and every answer path, never does.
    SELECT kind OPERATOR(pg_catalog.=) ANY (ARRAY['tuner', 'operator'])
$fn$;

COMMENT ON FUNCTION @schema@_internal.sees_expired(text) IS
'Whether a kind sees expired claim rows in claim_history, changes and explain_claim (the '
'tuner and the operator, until the purge). (inlined)';

CREATE OR REPLACE FUNCTION @schema@.as_of(
    subject bigint, predicate text, valid_at timestamptz DEFAULT NULL,
    known_at timestamptz DEFAULT NULL
) RETURNS TABLE (
    claim_id bigint, object_value jsonb, object_entity_id bigint, claim_text text,
    confidence real, valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz
)
LANGUAGE plpgsql
VOLATILE  -- it waits for commits in progress, then reads with a fresh snapshot
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    -- Checked (every kind reads); an expression costs less than a PERFORM, on every call.
    kind text := @schema@_internal.context_kind();
    at_valid timestamptz := coalesce(valid_at, pg_catalog.now());
BEGIN
    IF known_at > pg_catalog.clock_timestamp() THEN
        PERFORM @schema@_internal.raise_known_at_in_future(known_at);
    END IF;
    -- A commit stamped at or before known_at (or now) is visible to the query below.
    PERFORM @schema@_internal.await_commits(tenant);
    IF known_at IS NULL THEN
        -- The current belief: the live rows, the caller's own uncommitted writes included
        -- (a write of this transaction may be recorded just after its now()).
        RETURN QUERY
        SELECT c.claim_id, c.object_value, c.object_entity_id, c.text, c.confidence,
               pg_catalog.lower(c.valid), pg_catalog.upper(c.valid), pg_catalog.lower(c.system_time)
          FROM @schema@_internal.claims AS c
         WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
           AND c.valid @> at_valid AND pg_catalog.upper_inf(c.system_time)
           AND NOT pg_catalog.upper_inc(c.system_time)
           AND @schema@_internal.claim_unexpired(c.expires_at, NULL)
         ORDER BY c.claim_id;
        RETURN;
    END IF;
    RETURN QUERY
    SELECT c.claim_id, c.object_value, c.object_entity_id, c.text, c.confidence,
           pg_catalog.lower(c.valid), pg_catalog.upper(c.valid), pg_catalog.lower(c.system_time)
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
       AND c.valid @> at_valid AND c.system_time @> known_at
       -- [t, t]: stored outranked, or recorded and retired by one transaction; never believed
       AND NOT pg_catalog.upper_inc(c.system_time)
       AND @schema@_internal.claim_unexpired(c.expires_at, known_at)
     ORDER BY c.claim_id;
END
$fn$;

COMMENT ON FUNCTION @schema@.as_of(bigint, text, timestamptz, timestamptz) IS
'What was true for (subject, predicate) at valid_at (default now) as this database believed '
'at known_at (default: its current belief, this transaction''s own writes included; a future '
'instant is refused). One row for a one predicate, any number for many. Outranked claims '
'never answer, nor expired ones (expired by known_at, or now).';

CREATE OR REPLACE FUNCTION @schema@.claim_history(subject bigint, predicate text)
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
    -- Checked (every kind reads); an expression costs less than a PERFORM, on every call.
    kind text := @schema@_internal.context_kind();
    all_rows boolean := @schema@_internal.sees_expired(kind);
BEGIN
    RETURN QUERY
    SELECT c.claim_id, c.object_value, c.object_entity_id, c.text, c.confidence,
           pg_catalog.lower(c.valid), pg_catalog.upper(c.valid), pg_catalog.lower(c.system_time),
           CASE WHEN pg_catalog.upper_inf(c.system_time) THEN NULL
                ELSE pg_catalog.upper(c.system_time) END,
           c.retired_reason, c.superseded_by, c.copied_from
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
       AND (all_rows OR @schema@_internal.claim_unexpired(c.expires_at, NULL))
     -- Recorded order; of the rows one write made, the narrowed copies before the new value.
     ORDER BY pg_catalog.lower(c.system_time), c.copied_from IS NULL, c.claim_id;
END
$fn$;

COMMENT ON FUNCTION @schema@.claim_history(bigint, text) IS
'Every version of (subject, predicate) in recorded order: valid range, recorded_at, '
'retired_at and why it ended (superseded, narrowed copy via copied_from, replaced, '
'retracted, source_changed, outranked). Expired rows only for the tuner and the operator.';

CREATE OR REPLACE FUNCTION @schema@.current_claims(subject bigint)
RETURNS TABLE (
    claim_id bigint, predicate text, object_value jsonb, object_entity_id bigint,
    claim_text text, confidence real, valid_from timestamptz, valid_to timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    -- Checked (every kind reads); an expression costs less than a PERFORM, on every call.
    kind text := @schema@_internal.context_kind();
BEGIN
    RETURN QUERY
    SELECT c.claim_id, c.predicate, c.object_value, c.object_entity_id, c.text, c.confidence,
           pg_catalog.lower(c.valid), pg_catalog.upper(c.valid)
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.subject_id = subject AND pg_catalog.upper_inf(c.system_time)
       AND c.valid @> pg_catalog.now() AND @schema@_internal.claim_unexpired(c.expires_at, NULL)
     ORDER BY c.predicate, c.claim_id;
END
$fn$;

COMMENT ON FUNCTION @schema@.current_claims(bigint) IS
'What is believed now and true now about an entity, every predicate (expired claims '
'never).';

CREATE OR REPLACE FUNCTION @schema@.changes(since timestamptz, until timestamptz DEFAULT NULL)
RETURNS TABLE (
    claim_id bigint, subject_id bigint, predicate text, object_value jsonb, change text,
    changed_at timestamptz, retired_reason text
)
LANGUAGE plpgsql
VOLATILE  -- it waits for commits in progress, then reads with a fresh snapshot
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    -- Checked (every kind reads); an expression costs less than a PERFORM, on every call.
    kind text := @schema@_internal.context_kind();
    upto timestamptz := coalesce(until, pg_catalog.now());
    all_rows boolean := @schema@_internal.sees_expired(kind);
BEGIN
    IF since IS NULL OR since > upto THEN
        RAISE EXCEPTION 'since must be given and not after until' USING ERRCODE = '22023';
    END IF;
    -- Every change stamped before now is visible below: polling [since, now) loses nothing.
    PERFORM @schema@_internal.await_commits(tenant);
    RETURN QUERY
    SELECT c.claim_id, c.subject_id, c.predicate, c.object_value, 'recorded',
           pg_catalog.lower(c.system_time), NULL::text
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND NOT pg_catalog.upper_inc(c.system_time)
       AND pg_catalog.lower(c.system_time) >= since AND pg_catalog.lower(c.system_time) < upto
       AND (all_rows OR @schema@_internal.claim_unexpired(c.expires_at, NULL))
    UNION ALL
    SELECT c.claim_id, c.subject_id, c.predicate, c.object_value, 'retired',
           pg_catalog.upper(c.system_time), c.retired_reason
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND NOT pg_catalog.upper_inf(c.system_time)
       AND NOT pg_catalog.upper_inc(c.system_time)
       AND pg_catalog.upper(c.system_time) >= since AND pg_catalog.upper(c.system_time) < upto
       AND (all_rows OR @schema@_internal.claim_unexpired(c.expires_at, NULL))
     ORDER BY 6, 1, 5;
END
$fn$;

COMMENT ON FUNCTION @schema@.changes(timestamptz, timestamptz) IS
'Every claim recorded or retired in [since, until) (until defaults to now), in time order '
'(expired claims only for the tuner and the operator).';

CREATE OR REPLACE FUNCTION @schema@.explain_claim(claim_id bigint)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    -- Checked (every kind reads); an expression costs less than a PERFORM, on every call.
    kind text := @schema@_internal.context_kind();
    result jsonb;
BEGIN
    SELECT pg_catalog.jsonb_build_object(
        'claim_id', c.claim_id, 'subject_id', c.subject_id, 'predicate', c.predicate,
        'object', c.object_value, 'object_entity_id', c.object_entity_id, 'text', c.text,
        'confidence', c.confidence,
        'trust', CASE @schema@_internal.claim_trust(tenant, c.claim_id)
                     WHEN 4 THEN 'operator' WHEN 3 THEN 'owner' WHEN 2 THEN 'agent'
                     WHEN 1 THEN 'third_party' END,
        'version', pg_catalog.jsonb_build_object(
            'valid_from', pg_catalog.lower(c.valid), 'valid_to', pg_catalog.upper(c.valid),
            'recorded_at', pg_catalog.lower(c.system_time),
            'retired_at', CASE WHEN pg_catalog.upper_inf(c.system_time) THEN NULL
                               ELSE pg_catalog.upper(c.system_time) END,
            'retired_reason', c.retired_reason, 'copied_from', c.copied_from,
            'expires_at', c.expires_at),
        'sources', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                        'episode_id', e.episode_id, 'source_kind', e.source_kind,
                        'source_ref', e.source_ref, 'content_hash', e.content_hash,
                        'occurred_at', e.occurred_at, 'trust', e.trust,
                        'extractor', e.extractor, 'locator', s.locator, 'quote', s.quote)
                        ORDER BY e.episode_id), '[]')
                      FROM @schema@_internal.claim_sources AS s
                      JOIN @schema@_internal.episodes AS e
                        ON e.tenant = s.tenant AND e.episode_id = s.episode_id
                     WHERE s.tenant = c.tenant AND s.claim_id = c.claim_id),
        'retraction', (SELECT pg_catalog.jsonb_build_object('retracted_at', r.retracted_at,
                                                            'restored_at', r.restored_at)
                         FROM @schema@_internal.retractions AS r
                        WHERE r.tenant = c.tenant AND r.claim_id = c.claim_id
                        ORDER BY r.retraction_id DESC LIMIT 1),
        -- Rows that replaced this one (its successor, and its narrowed copies), nearest
        -- first; and the rows it replaced.
        'successors', (SELECT coalesce(pg_catalog.jsonb_agg(x.claim_id ORDER BY x.claim_id), '[]')
                         FROM @schema@_internal.claims AS x
                        WHERE x.tenant = c.tenant
                          AND (x.claim_id = c.superseded_by OR x.copied_from = c.claim_id)),
        'predecessors', (SELECT coalesce(pg_catalog.jsonb_agg(x.claim_id ORDER BY x.claim_id DESC), '[]')
                           FROM @schema@_internal.claims AS x
                          WHERE x.tenant = c.tenant
                            AND (x.superseded_by = c.claim_id OR x.claim_id = c.copied_from)))
      INTO result
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.claim_id = explain_claim.claim_id
       AND (@schema@_internal.sees_expired(kind) OR @schema@_internal.claim_unexpired(c.expires_at, NULL));
    RETURN result;  -- NULL for an id this tenant does not hold (or, but to an auditor, expired)
END
$fn$;

COMMENT ON FUNCTION @schema@.explain_claim(bigint) IS
'Why a claim is believed, in one call: its sources (episode, kind, ref, hash, locator, '
'quote, trust, extractor), its trust (the highest source), its version (valid range, '
'recorded, retired, reason, expires_at), retraction, successors and predecessors. NULL for '
'an id of another tenant, and for an expired claim but to the tuner and the operator.';

-- The names before 0.x: kept as aliases for one release, then dropped by a migration.

CREATE OR REPLACE FUNCTION @schema@.history(subject bigint, predicate text)
RETURNS TABLE (
    claim_id bigint, object_value jsonb, object_entity_id bigint, claim_text text,
    confidence real, valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz,
    retired_at timestamptz, retired_reason text, superseded_by bigint, copied_from bigint
)
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT * FROM @schema@.claim_history(subject => subject, predicate => predicate)
$fn$;

COMMENT ON FUNCTION @schema@.history(bigint, text) IS
'Deprecated alias of claim_history (dropped in the next release).';

CREATE OR REPLACE FUNCTION @schema@.explain(claim_id bigint)
RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT @schema@.explain_claim(claim_id => claim_id)
$fn$;

COMMENT ON FUNCTION @schema@.explain(bigint) IS
'Deprecated alias of explain_claim (dropped in the next release).';
