-- purge_source, the only hard delete, and verify_slot. Both rebuild a slot by replaying
-- what remains of it, in recorded order, through the ingest write path itself.

CREATE OR REPLACE FUNCTION @schema@_internal.rebuild_slot(
    tenant text, subject bigint, predicate text, without_episodes bigint []
) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- The slot's story is its episodes and corrections in recorded order: every remaining
-- episode of every source with a line in the slot, each with the lines it wrote here
-- (value, its own asserted valid range, when), and every retraction and restore of an
-- assertion of the slot. The slot's rows are deleted; each episode is ingested again at its
-- recorded instants through the same write path (source-changed rule included) and each
-- retraction and restore applied again at its instant. Returns the number of lines replayed.
#variable_conflict use_variable
DECLARE
    lines jsonb;
    events jsonb;
    episode jsonb;
    line jsonb;
    claim jsonb;
    replayed integer := 0;
    cardinality text;
BEGIN
    SELECT p.cardinality INTO cardinality FROM @schema@_internal.predicates AS p
     WHERE p.tenant = tenant AND p.name = predicate;
    SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(l) ORDER BY l.added_at, l.episode_id)
      INTO lines
      FROM (SELECT DISTINCT ON (s.episode_id, c.assertion, s.asserted_valid)
                   s.added_at, s.episode_id, c.object_value, c.object_entity_id,
                   -- what this line's source said (lines older than that column: the row's)
                   CASE WHEN s.confidence IS NULL THEN c.text ELSE s.text END AS text,
                   coalesce(s.confidence, c.confidence) AS confidence,
                   s.asserted_valid, s.locator, s.quote
              FROM @schema@_internal.claims AS c
              JOIN @schema@_internal.claim_sources AS s
                ON s.tenant = c.tenant AND s.claim_id = c.claim_id
             WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
               AND NOT s.episode_id = ANY (without_episodes)
             ORDER BY s.episode_id, c.assertion, s.asserted_valid, s.added_at) AS l;
    -- Episodes, retractions and restores, in the order they happened.
    SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(v) ORDER BY v.at, v.kind, v.episode_id)
      INTO events
      FROM (SELECT DISTINCT 'episode' AS kind, v.recorded_at AS at, v.episode_id,
                   @schema@_internal.trust_rank(v.trust) AS rank, NULL::text AS assertion,
                   NULL::timestamptz AS retracted_at
              FROM @schema@_internal.claims AS c
              JOIN @schema@_internal.claim_sources AS s
                ON s.tenant = c.tenant AND s.claim_id = c.claim_id
              JOIN @schema@_internal.episodes AS e
                ON e.tenant = s.tenant AND e.episode_id = s.episode_id
              JOIN @schema@_internal.episodes AS v
                ON v.tenant = e.tenant AND v.source_kind = e.source_kind
               AND v.source_ref = e.source_ref
             WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate
               AND NOT v.episode_id = ANY (without_episodes)
            UNION ALL
            SELECT x.kind, x.at, NULL, NULL, r.assertion, r.retracted_at
              FROM @schema@_internal.retractions AS r
             CROSS JOIN LATERAL (VALUES ('retract', r.retracted_at), ('restore', r.restored_at))
                   AS x (kind, at)
             WHERE r.tenant = tenant AND x.at IS NOT NULL
               AND r.assertion IN (SELECT c.assertion FROM @schema@_internal.claims AS c
                                    WHERE c.tenant = tenant AND c.subject_id = subject
                                      AND c.predicate = predicate)) AS v;

    DELETE FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate;

    FOR episode IN SELECT e FROM pg_catalog.jsonb_array_elements(coalesce(events, '[]')) AS e LOOP
        IF episode ->> 'kind' = 'retract' THEN
            PERFORM @schema@_internal.retract_assertion(tenant, subject, predicate,
                episode ->> 'assertion', (episode ->> 'at')::timestamptz);
            CONTINUE;
        ELSIF episode ->> 'kind' = 'restore' THEN
            PERFORM @schema@_internal.restore_assertion(tenant, subject, predicate,
                episode ->> 'assertion', (episode ->> 'retracted_at')::timestamptz,
                (episode ->> 'at')::timestamptz, false);
            CONTINUE;
        END IF;
        FOR line IN
            SELECT l FROM pg_catalog.jsonb_array_elements(coalesce(lines, '[]')) AS l
             WHERE (l ->> 'episode_id')::bigint = (episode ->> 'episode_id')::bigint
        LOOP
            claim := pg_catalog.jsonb_build_object(
                'subject', subject, 'predicate', predicate, 'confidence', line -> 'confidence',
                'text', line -> 'text', 'locator', line -> 'locator', 'quote', line -> 'quote',
                'valid_from', pg_catalog.lower((line ->> 'asserted_valid')::tstzrange))
                || CASE WHEN line -> 'object_entity_id' <> 'null'
                        THEN pg_catalog.jsonb_build_object('object_entity', line -> 'object_entity_id')
                        ELSE pg_catalog.jsonb_build_object('object', line -> 'object_value') END
                || CASE WHEN cardinality <> 'event'
                         AND NOT pg_catalog.upper_inf((line ->> 'asserted_valid')::tstzrange)
                        THEN pg_catalog.jsonb_build_object('valid_to',
                             pg_catalog.upper((line ->> 'asserted_valid')::tstzrange))
                        ELSE '{}' END;
            PERFORM @schema@_internal.write_claims(
                tenant, (episode ->> 'episode_id')::bigint, (episode ->> 'rank')::integer,
                -- (absent keys rather than nulls; not jsonb_strip_nulls, which would also
                -- rewrite nulls inside the object and so change the assertion)
                pg_catalog.jsonb_build_array(claim - ARRAY(
                    SELECT k.key FROM pg_catalog.jsonb_each(claim) AS k WHERE k.value = 'null')),
                0, NULL,
                (line ->> 'added_at')::timestamptz, false);
            replayed := replayed + 1;
        END LOOP;
        PERFORM @schema@_internal.retire_changed_source(tenant, (episode ->> 'episode_id')::bigint,
            subject, predicate, (episode ->> 'at')::timestamptz);
    END LOOP;
    RETURN replayed;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.rebuild_slot(text, bigint, text, bigint []) IS
'Rewrite one slot by replaying its original assertions (minus the given episodes) in '
'recorded order through the ingest write path, at their recorded instants.';

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
    slot record;
    slots integer := 0;
    before_count bigint;
    after_count bigint;
    counts jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'purge_source');
    SELECT pg_catalog.array_agg(e.episode_id) INTO doomed FROM @schema@_internal.episodes AS e
     WHERE e.tenant = tenant AND e.source_kind = purge_source.source_kind
       AND e.source_ref = purge_source.source_ref;
    IF doomed IS NULL THEN
        RAISE EXCEPTION 'no episode of source % %', source_kind, source_ref USING ERRCODE = 'P0002';
    END IF;
    SELECT pg_catalog.count(*) INTO before_count FROM @schema@_internal.claims AS c
     WHERE c.tenant = tenant;
    -- Every slot the source touched, locked in key order (the order ingest locks them in,
    -- so the two cannot deadlock) and rebuilt without it.
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
