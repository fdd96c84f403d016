-- ingest: one episode and its claims, in the caller's transaction, all through one write
-- path. Structural errors (unknown predicate or entity, malformed ranges) refuse the whole
-- episode; judgements about a claim (below the confidence floor, retracted, outranked)
-- are outcomes, counted and reported by index and reason code, never with source text.

CREATE OR REPLACE FUNCTION @schema@_internal.ingest_one_claim(
    tenant text, episode_id bigint, episode_trust integer, c jsonb, floor real,
    occurred_at timestamptz, write_at timestamptz
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    subject bigint;
    predicate_name text := c ->> 'predicate';
    cardinality text;
    object_value jsonb := c -> 'object';
    object_entity bigint;
    confidence real := coalesce((c ->> 'confidence')::real, 1.0);
    valid_from timestamptz;
    valid_to timestamptz;
    valid tstzrange;
    asserted tstzrange;
    assertion text;
    live_id bigint;
    corroborated_id bigint;
    live_valid tstzrange;
    next_start timestamptz;
    new_end timestamptz;
    new_id bigint;
    copies integer := 0;
    replaced bigint;
    claim_ids constant regclass :=
        pg_catalog.pg_get_serial_sequence('@schema@_internal.claims', 'claim_id')::regclass;
BEGIN
    IF pg_catalog.jsonb_typeof(c -> 'subject') <> 'number' THEN
        RAISE EXCEPTION 'claim subject must be an entity id' USING ERRCODE = '22023';
    END IF;
    subject := (c ->> 'subject')::bigint;
    IF NOT EXISTS (SELECT 1 FROM @schema@_internal.entities AS e
                    WHERE e.tenant = tenant AND e.entity_id = subject) THEN
        RAISE EXCEPTION 'unknown entity %', subject
            USING ERRCODE = '22023', HINT = 'create it with ensure_entity() in this tenant';
    END IF;
    SELECT p.cardinality INTO cardinality FROM @schema@_internal.predicates AS p
     WHERE p.tenant = tenant AND p.name = predicate_name;
    IF cardinality IS NULL THEN
        RAISE EXCEPTION 'unknown predicate %', pg_catalog.quote_nullable(predicate_name)
            USING ERRCODE = '22023', HINT = 'define it with define_predicate()';
    END IF;
    IF c ? 'object_entity' THEN
        object_entity := (c ->> 'object_entity')::bigint;
        IF NOT EXISTS (SELECT 1 FROM @schema@_internal.entities AS e
                        WHERE e.tenant = tenant AND e.entity_id = object_entity) THEN
            RAISE EXCEPTION 'unknown object entity %', object_entity USING ERRCODE = '22023';
        END IF;
        object_value := NULL;
    ELSIF object_value IS NULL OR pg_catalog.jsonb_typeof(object_value) = 'null' THEN
        RAISE EXCEPTION 'a claim needs an object or an object_entity' USING ERRCODE = '22023';
    END IF;
    IF pg_catalog.length(c ->> 'text') > 10000 THEN
        RAISE EXCEPTION 'claim text is longer than 10000 characters' USING ERRCODE = '22023';
    END IF;
    IF confidence < 0 OR confidence > 1 THEN
        RAISE EXCEPTION 'confidence must be between 0 and 1' USING ERRCODE = '22023';
    END IF;
    BEGIN
        valid_from := coalesce((c ->> 'valid_from')::timestamptz, (c ->> 'valid_at')::timestamptz,
                               occurred_at);
        valid_to := (c ->> 'valid_to')::timestamptz;
    EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow THEN
        RAISE EXCEPTION 'valid_from / valid_to must be ISO 8601 timestamps' USING ERRCODE = '22023';
    END;
    IF valid_from IS NULL THEN
        RAISE EXCEPTION 'a claim needs valid_from (or the episode an occurred_at)'
            USING ERRCODE = '22023';
    END IF;
    IF valid_to IS NOT NULL AND valid_to <= valid_from THEN
        RAISE EXCEPTION 'valid_to % is not after valid_from %', valid_to, valid_from
            USING ERRCODE = '22023';
    END IF;
    valid := CASE WHEN cardinality = 'event' THEN pg_catalog.tstzrange(valid_from, valid_from, '[]')
                  ELSE pg_catalog.tstzrange(valid_from, valid_to) END;
    asserted := valid;

    IF confidence < floor THEN
        RETURN pg_catalog.jsonb_build_object('outcome', 'below_floor');
    END IF;
    assertion := @schema@_internal.assertion_of(subject, predicate_name, object_value, object_entity);
    IF EXISTS (SELECT 1 FROM @schema@_internal.retractions AS r
                WHERE r.tenant = tenant AND r.assertion = assertion
                  AND r.restored_at IS NULL) THEN
        RETURN pg_catalog.jsonb_build_object('outcome', 'rejected', 'reason', 'retracted');
    END IF;

    -- One look at the slot's live rows: the same assertion already holding this claim's
    -- start (corroboration), the row holding the start, and the next known start after it.
    SELECT pg_catalog.max(cl.claim_id) FILTER (WHERE cl.assertion = assertion
                                                  AND cl.valid @> valid_from),
           pg_catalog.max(cl.claim_id) FILTER (WHERE cl.valid @> valid_from),
           (pg_catalog.array_agg(cl.valid ORDER BY cl.claim_id DESC)
                FILTER (WHERE cl.valid @> valid_from))[1],
           pg_catalog.min(pg_catalog.lower(cl.valid)) FILTER (WHERE pg_catalog.lower(cl.valid) > valid_from)
      INTO corroborated_id, live_id, live_valid, next_start
      FROM @schema@_internal.claims AS cl
     WHERE cl.tenant = tenant AND cl.subject_id = subject
       AND cl.predicate = predicate_name AND pg_catalog.upper_inf(cl.system_time);
    IF corroborated_id IS NOT NULL THEN
        INSERT INTO @schema@_internal.claim_sources AS s (
            tenant, claim_id, episode_id, locator, quote, asserted_valid, added_at)
        VALUES (tenant, corroborated_id, episode_id, c -> 'locator', c ->> 'quote', asserted, write_at)
        ON CONFLICT ON CONSTRAINT claim_sources_pkey DO NOTHING;
        RETURN pg_catalog.jsonb_build_object('outcome', 'corroborated', 'claim_id', corroborated_id);
    END IF;

    new_end := pg_catalog.upper(valid);
    IF cardinality = 'one' THEN
        -- A value learned late ends where the next known value starts.
        IF next_start IS NOT NULL AND (new_end IS NULL OR next_start < new_end) THEN
            new_end := next_start;
        END IF;
        IF live_id IS NOT NULL THEN
            IF @schema@_internal.claim_trust(tenant, live_id) > episode_trust THEN
                -- Outranked: stored already retired, in history, never in as-of.
                INSERT INTO @schema@_internal.claims AS cl (
                    tenant, subject_id, predicate, cardinality, object_value, object_entity_id,
                    text, confidence, assertion, valid, asserted_valid, system_time,
                    retired_reason, superseded_by)
                VALUES (tenant, subject, predicate_name, cardinality, object_value, object_entity,
                        c ->> 'text', confidence, assertion,
                        pg_catalog.tstzrange(valid_from, new_end), asserted,
                        pg_catalog.tstzrange(write_at, write_at, '[]'),
                        'outranked', live_id)
                RETURNING cl.claim_id INTO new_id;
                INSERT INTO @schema@_internal.claim_sources (
                    tenant, claim_id, episode_id, locator, quote, asserted_valid, added_at)
                VALUES (tenant, new_id, episode_id, c -> 'locator', c ->> 'quote', asserted, write_at);
                RETURN pg_catalog.jsonb_build_object('outcome', 'outranked', 'claim_id', new_id);
            END IF;
            -- A value beginning inside a live row retires it and writes it again ending
            -- where the new value begins; a closed new range resumes it afterwards.
            new_id := pg_catalog.nextval(claim_ids);
            PERFORM @schema@_internal.retire_claim(tenant, live_id, 'superseded', new_id, write_at);
            IF pg_catalog.lower(live_valid) < valid_from THEN
                PERFORM @schema@_internal.copy_claim(tenant, live_id,
                    pg_catalog.tstzrange(pg_catalog.lower(live_valid), valid_from), write_at);
                copies := copies + 1;
            END IF;
            IF pg_catalog.upper(valid) IS NOT NULL
               AND (pg_catalog.upper_inf(live_valid) OR pg_catalog.upper(valid) < pg_catalog.upper(live_valid)) THEN
                PERFORM @schema@_internal.copy_claim(tenant, live_id,
                    pg_catalog.tstzrange(pg_catalog.upper(valid), pg_catalog.upper(live_valid)), write_at);
                copies := copies + 1;
                new_end := pg_catalog.upper(valid);
            END IF;
        END IF;
        valid := pg_catalog.tstzrange(valid_from, new_end);
    ELSE
        live_id := NULL;  -- many and event values coexist: nothing is held
    END IF;
    IF cardinality = 'many' AND c ? 'replaces' THEN
        replaced := (c ->> 'replaces')::bigint;
        SELECT cl.claim_id, cl.valid INTO live_id, live_valid FROM @schema@_internal.claims AS cl
         WHERE cl.tenant = tenant AND cl.claim_id = replaced
           AND cl.subject_id = subject AND cl.predicate = predicate_name
           AND pg_catalog.upper_inf(cl.system_time);
        IF live_id IS NULL THEN
            RETURN pg_catalog.jsonb_build_object('outcome', 'rejected', 'reason', 'replaces_unknown');
        END IF;
        new_id := pg_catalog.nextval(claim_ids);
        PERFORM @schema@_internal.retire_claim(tenant, live_id, 'replaced', new_id, write_at);
        IF pg_catalog.lower(live_valid) < valid_from THEN
            PERFORM @schema@_internal.copy_claim(tenant, live_id,
                pg_catalog.tstzrange(pg_catalog.lower(live_valid), valid_from), write_at);
        END IF;
    END IF;

    -- The id was drawn before retiring the row it replaces, so that row names its successor
    -- in the one update that retires it.
    new_id := coalesce(new_id, pg_catalog.nextval(claim_ids));
    INSERT INTO @schema@_internal.claims AS cl (
        claim_id, tenant, subject_id, predicate, cardinality, object_value, object_entity_id,
        text, confidence, assertion, valid, asserted_valid, system_time)
    OVERRIDING SYSTEM VALUE
    VALUES (new_id, tenant, subject, predicate_name, cardinality, object_value, object_entity,
            c ->> 'text', confidence, assertion, valid, asserted, pg_catalog.tstzrange(write_at, NULL));
    INSERT INTO @schema@_internal.claim_sources (
        tenant, claim_id, episode_id, locator, quote, asserted_valid, added_at)
    VALUES (tenant, new_id, episode_id, c -> 'locator', c ->> 'quote', asserted, write_at);
    IF live_id IS NOT NULL THEN
        RETURN pg_catalog.jsonb_build_object('outcome', 'superseded', 'claim_id', new_id,
                                             'retired', live_id);
    END IF;
    RETURN pg_catalog.jsonb_build_object('outcome', 'inserted', 'claim_id', new_id);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.ingest_one_claim(
    text, bigint, integer, jsonb, real, timestamptz, timestamptz) IS
'Write one claim of an episode through the single-slot rules (one / many / event); the '
'caller holds the slot''s advisory lock. Returns its outcome.';

CREATE OR REPLACE FUNCTION @schema@_internal.retire_changed_source(
    tenant text, new_episode bigint, only_subject bigint, only_predicate text,
    retire_at timestamptz
) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- A new version of a source retires what only its old text supported: live claims with a
-- source line from an older episode of the same source and none from the new episode or
-- any other source (optionally within one slot, for a replay).
#variable_conflict use_variable
DECLARE
    source record;
    stale_claim bigint;
    changed integer := 0;
BEGIN
    SELECT e.source_kind, e.source_ref INTO source FROM @schema@_internal.episodes AS e
     WHERE e.tenant = tenant AND e.episode_id = new_episode;
    FOR stale_claim IN
        SELECT DISTINCT cl.claim_id
          FROM @schema@_internal.episodes AS old
          JOIN @schema@_internal.claim_sources AS os
            ON os.tenant = old.tenant AND os.episode_id = old.episode_id
          JOIN @schema@_internal.claims AS cl
            ON cl.tenant = os.tenant AND cl.claim_id = os.claim_id
         WHERE old.tenant = tenant AND old.source_kind = source.source_kind
           AND old.source_ref = source.source_ref AND old.episode_id <> new_episode
           AND pg_catalog.upper_inf(cl.system_time)
           AND (only_subject IS NULL OR (cl.subject_id = only_subject
                                         AND cl.predicate = only_predicate))
           AND NOT EXISTS (SELECT 1 FROM @schema@_internal.claim_sources AS s
                             JOIN @schema@_internal.episodes AS e
                               ON e.tenant = s.tenant AND e.episode_id = s.episode_id
                            WHERE s.tenant = cl.tenant AND s.claim_id = cl.claim_id
                              AND (e.episode_id = new_episode
                                   OR e.source_kind <> source.source_kind
                                   OR e.source_ref <> source.source_ref))
         ORDER BY cl.claim_id
    LOOP
        PERFORM @schema@_internal.retire_claim(tenant, stale_claim, 'source_changed', NULL, retire_at);
        changed := changed + 1;
    END LOOP;
    RETURN changed;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.retire_changed_source(text, bigint, bigint, text, timestamptz) IS
'Retire the live claims only older versions of new_episode''s source supported; returns how many.';

CREATE OR REPLACE FUNCTION @schema@_internal.ingest_episode(
    episode jsonb, claims jsonb, floor real
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.require_kind(
        ARRAY['agent', 'facts_manager', 'crawler', 'operator'], 'ingest');
    trust text := coalesce(episode ->> 'trust', 'agent');
    new_episode bigint;
    slot record;
    c jsonb;
    position integer := 0;
    outcome jsonb;
    outcomes jsonb := '[]';
    counters jsonb := '{"inserted": 0, "superseded": 0, "corroborated": 0, "duplicate": 0,
                        "outranked": 0, "below_floor": 0, "rejected": 0, "source_changed": 0}';
    changed integer;
    write_at timestamptz;
BEGIN
    IF episode IS NULL OR pg_catalog.jsonb_typeof(episode) <> 'object'
       OR coalesce(episode ->> 'source_kind', '') = '' OR coalesce(episode ->> 'source_ref', '') = ''
       OR coalesce(episode ->> 'content_hash', '') = '' THEN
        RAISE EXCEPTION 'episode needs source_kind, source_ref and content_hash'
            USING ERRCODE = '22023';
    END IF;
    IF @schema@_internal.trust_rank(trust) IS NULL THEN
        RAISE EXCEPTION 'unknown trust %', trust
            USING ERRCODE = '22023', HINT = 'operator, owner, agent or third_party';
    END IF;
    IF trust = 'operator' AND kind <> 'operator' THEN
        RAISE EXCEPTION 'only an operator ingests with operator trust' USING ERRCODE = '42501';
    END IF;
    IF claims IS NULL OR pg_catalog.jsonb_typeof(claims) <> 'array'
       OR pg_catalog.jsonb_array_length(claims) > 1000 THEN
        RAISE EXCEPTION 'claims must be an array of at most 1000 claims' USING ERRCODE = '22023';
    END IF;

    -- The same (source kind, ref, content hash) again is a no-op; a concurrent ingest of
    -- the same episode waits here for the first and then finds it.
    INSERT INTO @schema@_internal.episodes AS e (
        tenant, source_kind, source_ref, content_hash, occurred_at, trust, extractor)
    VALUES (tenant, episode ->> 'source_kind', episode ->> 'source_ref', episode ->> 'content_hash',
            (episode ->> 'occurred_at')::timestamptz, trust, episode ->> 'extractor')
    ON CONFLICT ON CONSTRAINT episodes_source_key DO NOTHING
    RETURNING e.episode_id INTO new_episode;
    IF new_episode IS NULL THEN
        RETURN pg_catalog.jsonb_build_object('duplicate', true, 'outcomes', '[]'::jsonb,
            'counters', pg_catalog.jsonb_set(counters, '{duplicate}', '1'));
    END IF;

    -- Writers of a slot are serialized, always in the same order, so racing episodes
    -- neither deadlock nor reach the exclusion constraint.
    FOR slot IN
        SELECT DISTINCT e ->> 'subject' AS subject, e ->> 'predicate' AS predicate
          FROM pg_catalog.jsonb_array_elements(claims) AS e
         ORDER BY 1, 2
    LOOP
        PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
            '@schema@:slot:' || tenant || ':' || slot.subject || ':' || slot.predicate, 0));
    END LOOP;

    -- This ingest's instant: the transaction's, or just after the newest live row of the
    -- slots it holds, if a transaction that started later wrote one first.
    SELECT GREATEST(pg_catalog.now(),
                    pg_catalog.max(newest.recorded) + interval '1 microsecond')
      INTO write_at
      FROM (SELECT DISTINCT (e ->> 'subject')::bigint AS subject, e ->> 'predicate' AS predicate
              FROM pg_catalog.jsonb_array_elements(claims) AS e
             WHERE pg_catalog.jsonb_typeof(e -> 'subject') = 'number') AS held
      CROSS JOIN LATERAL (
            SELECT pg_catalog.max(pg_catalog.lower(cl.system_time)) AS recorded
              FROM @schema@_internal.claims AS cl
             WHERE cl.tenant = tenant AND cl.subject_id = held.subject
               AND cl.predicate = held.predicate AND pg_catalog.upper_inf(cl.system_time)
               AND cl.xmin <> pg_catalog.pg_current_xact_id()::xid) AS newest;
    write_at := coalesce(write_at, pg_catalog.now());

    FOR c IN SELECT e FROM pg_catalog.jsonb_array_elements(claims) AS e LOOP
        IF pg_catalog.jsonb_typeof(c) <> 'object' THEN
            RAISE EXCEPTION 'claim % is not an object', position USING ERRCODE = '22023';
        END IF;
        outcome := @schema@_internal.ingest_one_claim(
            tenant, new_episode, @schema@_internal.trust_rank(trust), c, floor,
            (episode ->> 'occurred_at')::timestamptz, write_at);
        outcomes := outcomes || pg_catalog.jsonb_build_array(
            outcome || pg_catalog.jsonb_build_object('index', position));
        counters := pg_catalog.jsonb_set(counters, ARRAY[outcome ->> 'outcome'],
            pg_catalog.to_jsonb((counters ->> (outcome ->> 'outcome'))::integer + 1));
        position := position + 1;
    END LOOP;

    changed := @schema@_internal.retire_changed_source(tenant, new_episode, NULL, NULL, write_at);
    counters := pg_catalog.jsonb_set(counters, '{source_changed}', pg_catalog.to_jsonb(changed));

    RETURN pg_catalog.jsonb_build_object('duplicate', false, 'episode_id', new_episode,
                                         'counters', counters, 'outcomes', outcomes);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.ingest_episode(jsonb, jsonb, real) IS
'The knowledge write path behind ingest and override: one episode, its claims, a '
'confidence floor.';

CREATE OR REPLACE FUNCTION @schema@.ingest(episode jsonb, claims jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.ingest_episode(episode, claims,
        (@schema@_internal.setting(@schema@_internal.context_tenant(), 'confidence_floor',
                                   '0.55'))::real);
END
$fn$;

COMMENT ON FUNCTION @schema@.ingest(jsonb, jsonb) IS
'Ingest an episode {source_kind, source_ref, content_hash, occurred_at?, trust? (operator | '
'owner | agent | third_party; default agent), extractor?} and its claims [{subject, '
'predicate, object | object_entity, text?, confidence?, valid_from | valid_at, valid_to?, '
'locator?, quote?, replaces?}] in one transaction. Returns {duplicate, episode_id, '
'counters: {inserted, superseded, corroborated, duplicate, outranked, below_floor, rejected, '
'source_changed}, outcomes: [{index, outcome, claim_id?, reason?}]}.';
