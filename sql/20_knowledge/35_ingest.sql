-- ingest: one episode and its claims, in the caller's transaction, all through one write
-- path. Structural errors (unknown predicate or entity, malformed ranges) refuse the whole
-- episode; judgements about a claim (below the confidence floor, retracted, outranked)
-- are outcomes, counted and reported by index and reason code, never with source text.

CREATE OR REPLACE FUNCTION @schema@_internal.stale_claims(
    tenant text, source_kind text, source_ref text, new_episode bigint
) RETURNS TABLE (claim_id bigint, subject_id bigint, predicate text, kept tstzmultirange)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- The live claims older versions of a source support in part of their valid range that
-- nothing else supports: a row with a source line from another episode of the source whose
-- range the lines of new_episode and of every other source (each backing the part of the
-- row its asserted range covers) do not cover. kept is the part they do cover.
#variable_conflict use_variable
BEGIN
    -- Most sources are seen once: then there is no older text (and this index probe spares
    -- the search below, whose plan cannot start from the source).
    IF NOT EXISTS (SELECT 1 FROM @schema@_internal.episodes AS old
                    WHERE old.tenant = tenant AND old.source_kind = source_kind
                      AND old.source_ref = source_ref AND old.episode_id <> new_episode) THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT x.claim_id, x.subject_id, x.predicate, x.kept
      FROM (
        SELECT cl.claim_id, cl.subject_id, cl.predicate, cl.valid,
               coalesce((SELECT pg_catalog.range_agg(s.asserted_valid * pg_catalog.tstzmultirange(cl.valid))
                           FROM @schema@_internal.claim_sources AS s
                           JOIN @schema@_internal.episodes AS e
                             ON e.tenant = s.tenant AND e.episode_id = s.episode_id
                          WHERE s.tenant = cl.tenant AND s.claim_id = cl.claim_id
                            AND (e.episode_id = new_episode
                                 OR e.source_kind <> source_kind OR e.source_ref <> source_ref)),
                        '{}') AS kept
          FROM @schema@_internal.claims AS cl
         WHERE cl.tenant = tenant AND pg_catalog.upper_inf(cl.system_time)
           AND cl.claim_id IN (
                   SELECT os.claim_id
                     FROM @schema@_internal.episodes AS old
                     JOIN @schema@_internal.claim_sources AS os
                       ON os.tenant = old.tenant AND os.episode_id = old.episode_id
                    WHERE old.tenant = tenant AND old.source_kind = source_kind
                      AND old.source_ref = source_ref AND old.episode_id <> new_episode)
      ) AS x
     WHERE NOT x.kept @> x.valid;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.stale_claims(text, text, text, bigint) IS
'The live claims (with their slots) that only versions of a source other than new_episode '
'support in some of their valid range, with the part (kept) the rest still supports: what '
'a new version retires as source_changed.';

CREATE OR REPLACE FUNCTION @schema@_internal.retire_changed_source(
    tenant text, new_episode bigint, only_subject bigint, only_predicate text,
    retire_at timestamptz
) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- A new version of a source retires what only its old text supported (optionally within
-- one slot, for a replay), holding the lock of each slot it retires in: a row the old text
-- alone supported is retired, a row it supported in part is retired and written again for
-- the part the rest supports, with the source lines that back each such piece. The caller
-- locked those slots in order before it wrote; a claim that became stale since (a restore,
-- say) may sit in a slot it does not hold, which is taken here if free and otherwise
-- refused as a serialization failure (waiting for it out of order could deadlock).
#variable_conflict use_variable
DECLARE
    source record;
    held bigint [] := '{}';
    wanted bigint [];
    lock_key bigint;
    stale record;
    one @schema@_internal.slot_row;
    piece tstzrange;
    changes @schema@_internal.slot_row [] := '{}';
BEGIN
    SELECT e.source_kind, e.source_ref INTO source FROM @schema@_internal.episodes AS e
     WHERE e.tenant = tenant AND e.episode_id = new_episode;
    LOOP
        SELECT pg_catalog.array_agg(DISTINCT @schema@_internal.slot_lock_key(
                   tenant, st.subject_id::text, st.predicate))
          INTO wanted
          FROM @schema@_internal.stale_claims(tenant, source.source_kind, source.source_ref,
                                              new_episode) AS st
         WHERE only_subject IS NULL
            OR (st.subject_id = only_subject AND st.predicate = only_predicate);
        EXIT WHEN wanted IS NULL OR wanted <@ held;
        FOREACH lock_key IN ARRAY wanted LOOP
            CONTINUE WHEN lock_key = ANY (held);
            IF NOT pg_catalog.pg_try_advisory_xact_lock(lock_key) THEN
                RAISE EXCEPTION 'a concurrent write holds a slot this new version of % % retires in',
                    @schema@_internal.shown(source.source_kind), @schema@_internal.shown(source.source_ref)
                    USING ERRCODE = '40001', HINT = 'retry the transaction';
            END IF;
            held := held || lock_key;
        END LOOP;
    END LOOP;
    IF wanted IS NULL THEN
        RETURN 0;
    END IF;
    -- Read again under the locks: what is stale now stays so until this transaction ends.
    FOR stale IN
        SELECT cl AS claim, st.kept,
               ARRAY(SELECT ROW(s, true)::@schema@_internal.source_line
                       FROM @schema@_internal.claim_sources AS s
                       JOIN @schema@_internal.episodes AS e
                         ON e.tenant = s.tenant AND e.episode_id = s.episode_id
                      WHERE s.tenant = cl.tenant AND s.claim_id = cl.claim_id
                        AND (e.episode_id = new_episode OR e.source_kind <> source.source_kind
                             OR e.source_ref <> source.source_ref)
                      ORDER BY s.episode_id) AS lines
          FROM @schema@_internal.stale_claims(tenant, source.source_kind, source.source_ref,
                                              new_episode) AS st
          JOIN @schema@_internal.claims AS cl ON cl.tenant = tenant AND cl.claim_id = st.claim_id
         WHERE only_subject IS NULL
            OR (st.subject_id = only_subject AND st.predicate = only_predicate)
         ORDER BY cl.claim_id
    LOOP
        one := ROW(stale.claim, 'live', 0, '{}')::@schema@_internal.slot_row;
        changes := changes || @schema@_internal.retire_row(one, 'source_changed', NULL);
        -- The pieces the rest still supports, each with the lines that back it, live from
        -- the instant the row is retired (a row this write made is then never believed:
        -- write_claim_changes stores it as [retire_at, retire_at]).
        FOR piece IN SELECT p FROM pg_catalog.unnest(stale.kept) AS p ORDER BY pg_catalog.lower(p) LOOP
            one.lines := ARRAY(SELECT l FROM pg_catalog.unnest(stale.lines) AS l
                                WHERE (l.line).asserted_valid && piece);
            changes := changes || @schema@_internal.copy_row(one, piece, retire_at);
        END LOOP;
    END LOOP;
    RETURN @schema@_internal.write_claim_changes(tenant, retire_at, changes);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.retire_changed_source(text, bigint, bigint, text, timestamptz) IS
'Retire the live claims only older versions of new_episode''s source supported (in all or '
'part of their valid range, writing the rest again), under their slots'' locks; returns how '
'many.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_source(source_kind text, source_ref text)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Both are in the unique index (source_ref, source_kind, content_hash, tenant), whose
    -- rows have at most 2704 bytes: 1024 + 4 * 100 + 4 * 128 + 128 leave room.
    PERFORM @schema@_internal.check_text(source_kind, 'source_kind', 100);
    PERFORM @schema@_internal.check_bytes(source_ref, 'source_ref', 1024);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_source(text, text) IS
'Raise 22023 naming the limit unless source_kind has at most 100 characters and source_ref '
'at most 1024 bytes (ingest, purge_source).';

CREATE OR REPLACE FUNCTION @schema@_internal.check_episode(episode jsonb)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF episode IS NULL OR pg_catalog.jsonb_typeof(episode) <> 'object'
       OR coalesce(episode ->> 'source_kind', '') = '' OR coalesce(episode ->> 'source_ref', '') = ''
       OR coalesce(episode ->> 'content_hash', '') = '' THEN
        RAISE EXCEPTION 'episode needs source_kind, source_ref and content_hash'
            USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.check_source(episode ->> 'source_kind', episode ->> 'source_ref');
    PERFORM @schema@_internal.check_text(episode ->> 'content_hash', 'content_hash', 128);
    PERFORM @schema@_internal.check_text(episode ->> 'extractor', 'extractor', 200);
    IF @schema@_internal.trust_rank(coalesce(episode ->> 'trust', 'agent')) IS NULL THEN
        RAISE EXCEPTION 'unknown trust %', @schema@_internal.shown(episode ->> 'trust')
            USING ERRCODE = '22023', HINT = 'operator, owner, agent or third_party';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_episode(jsonb) IS
'Raise 22023 unless an episode is an object with source_kind (at most 100 characters), '
'source_ref (at most 1024 bytes), content_hash (at most 128 characters), an optional '
'extractor (at most 200 characters) and a known trust.';

CREATE OR REPLACE FUNCTION @schema@_internal.episode_expiry(episode jsonb)
RETURNS timestamptz
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ttl jsonb := episode -> 'ttl_seconds';
    at timestamptz := @schema@_internal.arg_timestamp(episode, 'expires_at');
BEGIN
    IF coalesce(pg_catalog.jsonb_typeof(ttl), 'null') = 'null' THEN
        IF at IS NOT NULL AND at <= pg_catalog.clock_timestamp() THEN
            RAISE EXCEPTION 'expires_at must be in the future'
                USING ERRCODE = '22023', HINT = 'omit it for an episode that does not expire';
        END IF;
        RETURN at;
    END IF;
    -- The same bound as a fact's ttl_seconds (a whole number of seconds from 1).
    IF pg_catalog.jsonb_typeof(ttl) <> 'number' OR NOT (ttl #>> '{}') ~ '^[1-9][0-9]{0,8}$' THEN
        RAISE EXCEPTION 'ttl_seconds must be a whole number of seconds from 1 to 999999999'
            USING ERRCODE = '22023', HINT = 'omit it (or pass null) for an episode that does not expire';
    END IF;
    IF at IS NOT NULL THEN
        RAISE EXCEPTION 'give an episode expires_at or ttl_seconds, not both' USING ERRCODE = '22023';
    END IF;
    RETURN pg_catalog.clock_timestamp() + pg_catalog.make_interval(secs => (ttl #>> '{}')::integer);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.episode_expiry(jsonb) IS
'When an ingested episode expires: its expires_at (a future instant) or ttl_seconds (1 to '
'999999999) from now, not both; NULL when it does not. Raises 22023 otherwise.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_trust_of_kind(trust text, kind text)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF trust = 'operator' AND kind <> 'operator' THEN
        RAISE EXCEPTION 'only an operator ingests with operator trust' USING ERRCODE = '42501';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_trust_of_kind(text, text) IS
'Raise 42501 when a kind other than the operator gives a source operator trust (ingest, '
'record_memory).';

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
        @schema@_internal.writer_kinds(), 'ingest');
    trust text := coalesce(episode ->> 'trust', 'agent');
    new_episode @schema@_internal.episodes;
    written jsonb;
    counters jsonb := '{"inserted": 0, "superseded": 0, "corroborated": 0, "duplicate": 0,
                        "outranked": 0, "below_floor": 0, "rejected": 0, "source_changed": 0}';
    changed integer;
    write_at timestamptz;
BEGIN
    PERFORM @schema@_internal.check_episode(episode);
    PERFORM @schema@_internal.require_read_committed('ingest');
    PERFORM @schema@_internal.check_trust_of_kind(trust, kind);
    IF claims IS NULL OR pg_catalog.jsonb_typeof(claims) <> 'array'
       OR pg_catalog.jsonb_array_length(claims) > 1000 THEN
        RAISE EXCEPTION 'claims must be an array of at most 1000 claims' USING ERRCODE = '22023';
    END IF;

    new_episode.tenant := tenant;
    new_episode.source_kind := episode ->> 'source_kind';
    new_episode.source_ref := episode ->> 'source_ref';
    new_episode.content_hash := episode ->> 'content_hash';
    new_episode.occurred_at := @schema@_internal.arg_timestamp(episode, 'occurred_at');
    new_episode.trust := trust;
    new_episode.extractor := episode ->> 'extractor';
    new_episode.expires_at := @schema@_internal.episode_expiry(episode);

    -- Ingests of one source take turns: the same (source kind, ref, content hash) again is
    -- a no-op (a concurrent ingest of it waits here for the first and then finds it), and a
    -- new version sees every older one when it retires what only they said.
    PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.lock_key(pg_catalog.concat_ws(
        ':', '@schema@:source', tenant, new_episode.source_kind, new_episode.source_ref)));
    IF EXISTS (SELECT 1 FROM @schema@_internal.episodes AS e
                WHERE e.tenant = tenant AND e.source_ref = new_episode.source_ref
                  AND e.source_kind = new_episode.source_kind
                  AND e.content_hash = new_episode.content_hash) THEN
        RETURN pg_catalog.jsonb_build_object('duplicate', true, 'outcomes', '[]'::jsonb,
            'counters', pg_catalog.jsonb_set(counters, '{duplicate}', '1'));
    END IF;

    -- Writers of a slot are serialized, always in the same order, so racing episodes
    -- neither deadlock nor reach the exclusion constraint. The slots are those of the
    -- claims and of what an older version of the source said that this one may retire.
    new_episode.episode_id := pg_catalog.nextval('@schema@_internal.episodes_episode_id_seq'::regclass);
    PERFORM pg_catalog.pg_advisory_xact_lock(held.lock_key)
       FROM (SELECT @schema@_internal.slot_lock_key(tenant, e ->> 'subject', e ->> 'predicate')
                    AS lock_key
               FROM pg_catalog.jsonb_array_elements(claims) AS e
             UNION
             SELECT @schema@_internal.slot_lock_key(tenant, st.subject_id::text, st.predicate)
               FROM @schema@_internal.stale_claims(tenant, new_episode.source_kind,
                        new_episode.source_ref, new_episode.episode_id) AS st
              ORDER BY 1) AS held;

    -- The episode row is written by write_claims, with the claims it accepted.
    floor := coalesce(floor, @schema@_internal.confidence_floor(tenant));
    written := @schema@_internal.write_claims(tenant, new_episode, claims, floor, NULL, false);
    write_at := (written ->> 'write_at')::timestamptz;
    counters := counters || (written -> 'counters');

    changed := @schema@_internal.retire_changed_source(
        tenant, new_episode.episode_id, NULL, NULL, write_at);
    counters := pg_catalog.jsonb_set(counters, '{source_changed}', pg_catalog.to_jsonb(changed));

    RETURN pg_catalog.jsonb_build_object('duplicate', false, 'episode_id', new_episode.episode_id,
                                         'counters', counters, 'outcomes', written -> 'outcomes');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.ingest_episode(jsonb, jsonb, real) IS
'The knowledge write path behind ingest and override: one episode, its claims, a '
'confidence floor (NULL: the tenant''s confidence_floor setting).';

CREATE OR REPLACE FUNCTION @schema@.ingest(episode jsonb, claims jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.ingest_episode(episode, claims, NULL);
END
$fn$;

COMMENT ON FUNCTION @schema@.ingest(jsonb, jsonb) IS
'Ingest an episode {source_kind, source_ref, content_hash, occurred_at?, trust? (operator | '
'owner | agent | third_party; default agent), extractor?, expires_at? | ttl_seconds?} and its '
'claims [{subject, '
'predicate, object | object_entity, text?, confidence?, valid_from | valid_at, valid_to?, '
'locator?, quote?, replaces?}] in one transaction. Returns {duplicate, episode_id, '
'counters: {inserted, superseded, corroborated, duplicate, outranked, below_floor, rejected, '
'source_changed}, outcomes: [{index, outcome, claim_id?, retired?, corroborates?, reason?}]}.';
