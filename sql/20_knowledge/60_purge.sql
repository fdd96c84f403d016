-- purge_source, the only hard delete, and verify_slot. Both rebuild a slot by replaying
-- what remains of it, in the order it was written, through the ingest write path itself.

CREATE OR REPLACE FUNCTION @schema@_internal.rebuild_slot(
    tenant text, subject bigint, predicate text, without_episodes bigint []
) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- The slot's story is its writes in the order they happened (knowledge_event_seq): every
-- remaining episode of every source with a line in the slot, with the claims it had
-- accepted for this slot, and every retraction and restore made in the slot. The slot's
-- rows are deleted; each episode's claims go through the same write path again, in one
-- call as they first did, at the instant they were first written (then the source-changed
-- rule, at the same instant), and each retraction and restore is applied again at its
-- instant. Returns the number of claims replayed.
#variable_conflict use_variable
DECLARE
    events @schema@_internal.slot_event [];
    event @schema@_internal.slot_event;
    claims jsonb;
    replayed integer := 0;
BEGIN
    -- The writes below keep the instants they replay (note_knowledge_write).
    PERFORM pg_catalog.set_config('pgfacts.knowledge_replay', 'on', true);
    SELECT pg_catalog.array_agg(ROW(v.kind, v.seq, v.episode, v.at, v.assertion,
               v.retracted_at)::@schema@_internal.slot_event ORDER BY v.seq)
      INTO events
      FROM (SELECT 'episode' AS kind, v.event_seq AS seq, v AS episode, v.written_at AS at,
                   NULL::text AS assertion, NULL::timestamptz AS retracted_at
              FROM @schema@_internal.episodes AS v
             WHERE v.tenant = tenant AND NOT v.episode_id = ANY (without_episodes)
               AND (v.source_kind, v.source_ref) IN (
                       SELECT e.source_kind, e.source_ref
                         FROM @schema@_internal.claims AS c
                         JOIN @schema@_internal.claim_sources AS s
                           ON s.tenant = c.tenant AND s.claim_id = c.claim_id
                         JOIN @schema@_internal.episodes AS e
                           ON e.tenant = s.tenant AND e.episode_id = s.episode_id
                        WHERE c.tenant = tenant AND c.subject_id = subject
                          AND c.predicate = predicate)
            UNION ALL
            SELECT x.kind, x.seq, NULL, x.at, r.assertion, r.retracted_at
              FROM @schema@_internal.retractions AS r
             CROSS JOIN LATERAL (VALUES ('retract', r.retracted_seq, r.retracted_at),
                                        ('restore', r.restored_seq, r.restored_at))
                   AS x (kind, seq, at)
             WHERE r.tenant = tenant AND r.subject_id = subject AND r.predicate = predicate
               AND x.at IS NOT NULL) AS v;

    DELETE FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate;

    FOREACH event IN ARRAY coalesce(events, '{}') LOOP
        IF event.kind = 'retract' THEN
            PERFORM @schema@_internal.retract_assertion(tenant, subject, predicate,
                event.assertion, event.at);
            CONTINUE;
        ELSIF event.kind = 'restore' THEN
            PERFORM @schema@_internal.restore_assertion(tenant, subject, predicate,
                event.assertion, event.retracted_at, event.at, false);
            CONTINUE;
        END IF;
        -- This slot's claims of the episode, in its order, as the write path takes them; a
        -- row one replaced is named by the id its row (same assertion and valid range; the
        -- newest of the assertion for an episode that did not record the range) has now
        -- (absent from this story: the claim simply adds its value).
        SELECT pg_catalog.jsonb_agg(
                   pg_catalog.jsonb_build_object('subject', w.subject, 'predicate', w.predicate,
                       'confidence', w.confidence, 'valid_from', w.valid_from)
                   || CASE WHEN w.object_entity IS NULL
                           THEN pg_catalog.jsonb_build_object('object', w.object)
                           ELSE pg_catalog.jsonb_build_object('object_entity', w.object_entity) END
                   || CASE WHEN w.locator IS NULL THEN '{}'
                           ELSE pg_catalog.jsonb_build_object('locator', w.locator) END
                   -- (only scalars here: a null inside a locator stays)
                   || pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                          'valid_to', w.valid_to, 'text', w.text,
                          'quote', w.quote, 'replaces', (
                              SELECT c.claim_id FROM @schema@_internal.claims AS c
                               WHERE c.tenant = tenant AND c.subject_id = subject
                                 AND c.predicate = predicate
                                 AND pg_catalog.upper_inf(c.system_time)
                                 AND c.assertion = w.replaces_assertion
                               ORDER BY c.valid = w.replaces_valid DESC NULLS LAST,
                                        c.claim_id DESC
                               LIMIT 1)))
                   ORDER BY w.ordinality)
          INTO claims
          FROM pg_catalog.unnest((event.episode).written) WITH ORDINALITY AS w
         WHERE w.subject = subject AND w.predicate = predicate;
        IF claims IS NOT NULL THEN
            PERFORM @schema@_internal.write_claims(tenant, event.episode, claims, 0, event.at, true);
            replayed := replayed + pg_catalog.jsonb_array_length(claims);
        END IF;
        PERFORM @schema@_internal.retire_changed_source(tenant, (event.episode).episode_id,
            subject, predicate, event.at);
    END LOOP;
    PERFORM pg_catalog.set_config('pgfacts.knowledge_replay', 'off', true);
    RETURN replayed;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.rebuild_slot(text, bigint, text, bigint []) IS
'Rewrite one slot by replaying its writes (episodes minus the given ones, retractions, '
'restores) in the order they happened, through the ingest write path, at their instants.';

CREATE OR REPLACE FUNCTION @schema@_internal.purge_episodes(
    tenant text, source_kind text, source_ref text, doomed bigint []
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    slot record;
    slots integer := 0;
    before_count bigint;
    after_count bigint;
    counts jsonb;
BEGIN
    SELECT pg_catalog.count(*) INTO before_count FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant;
    -- Every slot the episodes touched, locked in key order (the order ingest locks them in,
    -- so the two cannot deadlock) and rebuilt without them.
    FOR slot IN
        SELECT DISTINCT c.subject_id, c.predicate,
               @schema@_internal.slot_lock_key(tenant, c.subject_id::text, c.predicate) AS lock_key
          FROM @schema@_internal.claim_sources AS s
          JOIN @schema@_internal.claims AS c ON c.tenant = s.tenant AND c.claim_id = s.claim_id
         WHERE s.tenant = tenant AND s.episode_id = ANY (doomed)
         ORDER BY 3
    LOOP
        PERFORM pg_catalog.pg_advisory_xact_lock(slot.lock_key);
        PERFORM @schema@_internal.rebuild_slot(tenant, slot.subject_id, slot.predicate, doomed);
        slots := slots + 1;
    END LOOP;
    DELETE FROM @schema@_internal.episodes AS e WHERE e.tenant = tenant AND e.episode_id = ANY (doomed);
    SELECT pg_catalog.count(*) INTO after_count FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant;
    counts := pg_catalog.jsonb_build_object('episodes', pg_catalog.cardinality(doomed),
        'slots_rebuilt', slots, 'claim_rows_before', before_count, 'claim_rows_after', after_count);
    -- The audit keeps that a purge happened, never what was purged.
    INSERT INTO @schema@_internal.purge_audit (tenant, source_kind, source_ref_sha256, counts)
    VALUES (tenant, source_kind, pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
                source_ref, 'UTF8')), 'hex'), counts);
    RETURN counts;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.purge_episodes(text, text, text, bigint []) IS
'The purge path: remove episodes of one source (all of them for purge_source, the old ones '
'for retention), replaying every slot they touched without them, and leave a purge_audit '
'row (the source kind, a sha256 of its ref, counts). Returns the counts.';

CREATE OR REPLACE FUNCTION @schema@.purge_source(source_kind text, source_ref text)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    doomed bigint [];
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'purge_source');
    PERFORM @schema@_internal.require_read_committed('purge_source');
    PERFORM @schema@_internal.check_source(source_kind, source_ref);
    SELECT pg_catalog.array_agg(e.episode_id) INTO doomed FROM @schema@_internal.episodes AS e
     WHERE e.tenant = tenant AND e.source_kind = purge_source.source_kind
       AND e.source_ref = purge_source.source_ref;
    IF doomed IS NULL THEN
        RAISE EXCEPTION 'no episode of source % %', @schema@_internal.shown(source_kind), @schema@_internal.shown(source_ref)
            USING ERRCODE = 'P0002';
    END IF;
    RETURN @schema@_internal.purge_episodes(tenant, source_kind, source_ref, doomed);
END
$fn$;

COMMENT ON FUNCTION @schema@.purge_source(text, text) IS
'Operator only, the one hard delete: remove every version of a source, the claims only it '
'supported and its source lines on the rest, rewriting each slot it touched by replaying '
'what remains in recorded order through the write path. Leaves an audit row with the '
'source kind, a sha256 of its ref and counts, never content.';

CREATE OR REPLACE FUNCTION @schema@.verify_slot(subject bigint, predicate text)
RETURNS TABLE (difference text, claim jsonb)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    stored jsonb;
    replayed jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind(
        ARRAY['facts_manager', 'operator', 'tuner'], 'verify_slot');
    -- The slot's writers wait, so what is stored and what is replayed are the same story.
    PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.slot_lock_key(
        tenant, subject::text, predicate));
    stored := @schema@_internal.live_slot(tenant, subject, predicate);
    BEGIN
        PERFORM @schema@_internal.rebuild_slot(tenant, subject, predicate, '{}');
        replayed := @schema@_internal.live_slot(tenant, subject, predicate);
        RAISE EXCEPTION USING ERRCODE = 'PF000';  -- undo the rebuild
    EXCEPTION WHEN SQLSTATE 'PF000' THEN
        NULL;
    END;
    RETURN QUERY
    SELECT 'stored, not replayed', s FROM pg_catalog.jsonb_array_elements(stored) AS s
     WHERE NOT replayed @> pg_catalog.jsonb_build_array(s)
    UNION ALL
    SELECT 'replayed, not stored', r FROM pg_catalog.jsonb_array_elements(replayed) AS r
     WHERE NOT stored @> pg_catalog.jsonb_build_array(r);
END
$fn$;

COMMENT ON FUNCTION @schema@.verify_slot(bigint, text) IS
'Replay a slot inside a subtransaction that is rolled back, and list the live rows that '
'differ between what is stored and what the replay produces (empty when consistent).';

CREATE OR REPLACE FUNCTION @schema@_internal.live_slot(tenant text, subject bigint, predicate text)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
BEGIN
    RETURN (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                'object', c.object_value, 'object_entity', c.object_entity_id,
                'valid', c.valid::text, 'recorded_at', pg_catalog.lower(c.system_time))
                ORDER BY c.valid), '[]')
              FROM @schema@_internal.claims AS c
             WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
               AND pg_catalog.upper_inf(c.system_time));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.live_slot(text, bigint, text) IS
'The live rows of a slot as comparable JSON (object, valid range, recorded instant).';
