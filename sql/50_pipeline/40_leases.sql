-- The worker's side of the outbox: leases instead of a transaction held open across the
-- model call. A claim transaction marks events leased with a token and an expiry and
-- commits; the model runs outside any transaction; the completing transaction writes the
-- claims through ingest and finishes the event only while the token still matches, so at
-- most one result is ever committed per event. An expired lease is claimable again.

CREATE OR REPLACE FUNCTION @schema@_internal.retry_delay(attempt integer, for_tenant text)
RETURNS interval
LANGUAGE sql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Exponential, capped, with "equal jitter": half the delay fixed, half random, so
    -- workers that failed together do not retry together.
    SELECT pg_catalog.make_interval(secs => d.delay * (0.5 + pg_catalog.random() / 2))
      FROM (SELECT LEAST(
                (@schema@_internal.setting(for_tenant, 'extraction_backoff_max_seconds'))::float8,
                (@schema@_internal.setting(for_tenant, 'extraction_backoff_seconds'))::float8
                    * 2.0 ^ LEAST(GREATEST(attempt - 1, 0), 30)) AS delay) AS d
$fn$;

COMMENT ON FUNCTION @schema@_internal.retry_delay(integer, text) IS
'How long a failed extraction waits before its next attempt: extraction_backoff_seconds '
'doubled per earlier attempt, at most extraction_backoff_max_seconds, jittered to between '
'half and all of it.';

CREATE OR REPLACE FUNCTION @schema@.claim_extraction_work(batch_size integer DEFAULT 10)
RETURNS TABLE (
    tenant text, event_id bigint, memory_id bigint, lease_token uuid, attempt integer,
    lease_expires_at timestamptz, source_kind text, source_ref text, content_hash text,
    occurred_at timestamptz, trust text, lines jsonb
)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
DECLARE
    for_tenant text := @schema@_internal.context_tenant();
    lease interval;
    max_attempts integer;
BEGIN
    PERFORM @schema@_internal.require_kind('{operator}', 'claim extraction work');
    PERFORM @schema@_internal.check_limit(batch_size, 'batch_size', 1, 1000);
    lease := pg_catalog.make_interval(
        secs => (@schema@_internal.setting(for_tenant, 'extraction_lease_seconds'))::float8);
    max_attempts := (@schema@_internal.setting(for_tenant, 'extraction_max_attempts'))::integer;
    -- A lease that expired on its last attempt (its worker died each time) is parked, not
    -- handed out again: a memory that crashes workers must not crash them forever.
    UPDATE @schema@_internal.extraction_events AS e
       SET state = 'failed', lease_token = NULL, error_code = 9999, finished_at = pg_catalog.now(),
           last_error = 'the lease expired on the last attempt (the worker stopped)'
     WHERE e.tenant = for_tenant AND e.state = 'leased' AND e.due_at <= pg_catalog.now()
       AND e.attempts >= max_attempts;
    RETURN QUERY
    WITH due AS (
        SELECT d.event_id
          FROM @schema@_internal.extraction_events AS d
         WHERE d.tenant = for_tenant AND d.state IN ('ready', 'leased')
           AND d.due_at <= pg_catalog.now()
         ORDER BY d.due_at
         LIMIT batch_size
           FOR UPDATE SKIP LOCKED
    ), leased AS (
        UPDATE @schema@_internal.extraction_events AS e
           SET state = 'leased', lease_token = pg_catalog.gen_random_uuid(),
               leased_by = @schema@_internal.context_agent(), attempts = e.attempts + 1,
               due_at = pg_catalog.now() + lease
          FROM due
         WHERE e.tenant = for_tenant AND e.event_id = due.event_id
        RETURNING e.*
    )
    SELECT l.tenant, l.event_id, l.memory_id, l.lease_token, l.attempts, l.due_at, m.source_kind,
           m.source_ref, m.content_hash, m.occurred_at, m.trust, m.lines
      FROM leased AS l
      JOIN @schema@_internal.memories AS m ON m.tenant = l.tenant AND m.memory_id = l.memory_id
     ORDER BY l.due_at, l.event_id;
END
$fn$;

COMMENT ON FUNCTION @schema@.claim_extraction_work(integer) IS
'Lease up to batch_size (1 to 1000) due extraction events of the caller''s tenant, oldest '
'first, skipping events other workers hold: each with its tenant, lease token, attempt number, '
'lease expiry (extraction_lease_seconds) and the memory to extract. Commit at once and call '
'the model outside the transaction. An event whose lease expired on its last attempt is '
'parked as failed (9999).';

CREATE OR REPLACE FUNCTION @schema@_internal.held_extraction_events(
    for_tenant text, event_ids bigint [], lease_tokens uuid []
) RETURNS SETOF @schema@_internal.extraction_events
LANGUAGE sql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- The one rule of a lease: the event is leased and the token is the one it was leased
    -- with. Locked in event order (workers completing overlapping batches never deadlock);
    -- a row another worker changes meanwhile is checked again once its lock is granted.
    SELECT e.*
      FROM @schema@_internal.extraction_events AS e
     WHERE e.tenant = for_tenant AND e.state = 'leased'
       AND EXISTS (SELECT 1
                     FROM ROWS FROM (pg_catalog.unnest(event_ids), pg_catalog.unnest(lease_tokens))
                          AS h (event_id, lease_token)
                    WHERE h.event_id = e.event_id AND h.lease_token = e.lease_token)
     ORDER BY e.event_id
       FOR UPDATE OF e
$fn$;

COMMENT ON FUNCTION @schema@_internal.held_extraction_events(text, bigint [], uuid []) IS
'The events of for_tenant that the given (event id, lease token) pairs still hold (leased '
'with that token), locked in event order; pairs that no longer hold an event are left out.';

CREATE OR REPLACE FUNCTION @schema@_internal.leased_event(event_id bigint, lease_token uuid)
RETURNS @schema@_internal.extraction_events
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    for_tenant text := @schema@_internal.context_tenant();
    found_event @schema@_internal.extraction_events;
BEGIN
    SELECT h.* INTO found_event
      FROM @schema@_internal.held_extraction_events(for_tenant, ARRAY[event_id],
                                                    ARRAY[lease_token]) AS h;
    IF FOUND THEN
        RETURN found_event;
    END IF;
    SELECT e.* INTO found_event FROM @schema@_internal.extraction_events AS e
     WHERE e.tenant = for_tenant AND e.event_id = event_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no extraction event %', event_id USING ERRCODE = 'P0002';
    END IF;
    RAISE EXCEPTION 'extraction event % is not leased with this token (it is %)', event_id,
        found_event.state
        USING ERRCODE = '55000',
              HINT = 'its lease expired and another worker claimed it, or it is finished: '
                     'drop this result';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.leased_event(bigint, uuid) IS
'The event a worker holds, locked (held_extraction_events); 55000 when it is no longer '
'leased with that token (a stale worker), P0002 when it does not exist.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_extractor(extractor text)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF coalesce(extractor, '') = '' THEN
        RAISE EXCEPTION 'extractor must name the extractor (and its version)'
            USING ERRCODE = '22023', HINT = 'it is stored with the episode';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_extractor(text) IS
'Raise 22023 unless extractor names the extractor (complete_extraction, '
'complete_extractions).';

CREATE OR REPLACE FUNCTION @schema@_internal.extraction_episode(
    held @schema@_internal.extraction_events, extractor text, claims jsonb
) RETURNS bigint
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    memory @schema@_internal.memories;
    result jsonb;
BEGIN
    SELECT m.* INTO memory FROM @schema@_internal.memories AS m
     WHERE m.tenant = held.tenant AND m.memory_id = held.memory_id;
    -- An open statement (validate_extraction's claim for a predicate not offered) is a
    -- claim of the predicate statement, defined on its first use.
    IF pg_catalog.jsonb_path_exists(claims, 'lax $[*] ? (@.predicate == "statement")') THEN
        INSERT INTO @schema@_internal.predicates AS p (tenant, name, cardinality, description)
        VALUES (held.tenant, 'statement', 'many', 'an open statement the lines make')
        ON CONFLICT ON CONSTRAINT predicates_pkey DO NOTHING;
    END IF;
    result := @schema@_internal.ingest_episode(pg_catalog.jsonb_build_object(
        'source_kind', memory.source_kind, 'source_ref', memory.source_ref,
        'content_hash', memory.content_hash, 'occurred_at', memory.occurred_at,
        'trust', memory.trust, 'extractor', extractor), claims, NULL);
    -- A memory ingested before (the same source and hash): its episode.
    RETURN coalesce((result ->> 'episode_id')::bigint,
        (SELECT ep.episode_id FROM @schema@_internal.episodes AS ep
          WHERE ep.tenant = memory.tenant AND ep.source_kind = memory.source_kind
            AND ep.source_ref = memory.source_ref AND ep.content_hash = memory.content_hash));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.extraction_episode(
    @schema@_internal.extraction_events, text, jsonb) IS
'Write a held event''s claims through ingest as its memory''s episode with this extractor '
'name (the predicate statement, for open statements, defined on first use); returns the '
'episode id (the existing one for a memory ingested before).';

CREATE OR REPLACE FUNCTION @schema@_internal.finish_extractions(
    for_tenant text, event_ids bigint [], episode_ids bigint []
) RETURNS SETOF @schema@_internal.extraction_events
LANGUAGE sql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    UPDATE @schema@_internal.extraction_events AS e
       SET state = 'done', lease_token = NULL, finished_at = pg_catalog.now(),
           due_at = pg_catalog.now(), error_code = NULL, last_error = NULL,
           episode_id = f.episode_id
      FROM ROWS FROM (pg_catalog.unnest(event_ids), pg_catalog.unnest(episode_ids))
           AS f (event_id, episode_id)
     WHERE e.tenant = for_tenant AND e.event_id = f.event_id
    RETURNING e.*
$fn$;

COMMENT ON FUNCTION @schema@_internal.finish_extractions(text, bigint [], bigint []) IS
'Mark held events done with their episodes, in one statement (the caller holds their locks).';

CREATE OR REPLACE FUNCTION @schema@.complete_extraction(
    event_id bigint, lease_token uuid, extractor text, claims jsonb
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    held @schema@_internal.extraction_events;
    episode bigint;
BEGIN
    PERFORM @schema@_internal.require_kind('{operator}', 'complete extractions');
    PERFORM @schema@_internal.check_extractor(extractor);
    held := @schema@_internal.leased_event(event_id, lease_token);
    episode := @schema@_internal.extraction_episode(held, extractor, claims);
    RETURN (SELECT @schema@_internal.extraction_event_json(f)
              FROM @schema@_internal.finish_extractions(held.tenant, ARRAY[held.event_id],
                                                        ARRAY[episode]) AS f);
END
$fn$;

COMMENT ON FUNCTION @schema@.complete_extraction(bigint, uuid, text, jsonb) IS
'Finish a leased extraction event: the claims (ingest''s format) written through ingest as '
'the memory''s episode with this extractor name (the predicate statement, for open '
'statements, defined on first use), and the event marked done with its episode, '
'in one transaction, only while lease_token still holds the event (else 55000 and nothing '
'written). Returns the event as extraction_status shows it.';

CREATE OR REPLACE FUNCTION @schema@.fail_extraction(
    event_id bigint, lease_token uuid, error_code integer, error text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    held @schema@_internal.extraction_events;
    parked boolean;
    result jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind('{operator}', 'fail extractions');
    IF error_code IS NULL OR NOT error_code = ANY (@schema@_internal.embedding_error_codes()) THEN
        RAISE EXCEPTION 'error_code must be one of %',
            pg_catalog.array_to_string(@schema@_internal.embedding_error_codes(), ', ')
            USING ERRCODE = '22023';
    END IF;
    held := @schema@_internal.leased_event(event_id, lease_token);
    parked := held.attempts >= (@schema@_internal.setting(held.tenant, 'extraction_max_attempts'))::integer;
    UPDATE @schema@_internal.extraction_events AS e
       SET state = CASE WHEN parked THEN 'failed' ELSE 'ready' END, lease_token = NULL,
           error_code = fail_extraction.error_code,
           last_error = pg_catalog.left(coalesce(error, ''), 500),
           due_at = CASE WHEN parked THEN pg_catalog.now()
                         ELSE pg_catalog.now() + @schema@_internal.retry_delay(held.attempts, held.tenant) END,
           finished_at = CASE WHEN parked THEN pg_catalog.now() END
     WHERE e.tenant = held.tenant AND e.event_id = held.event_id
    RETURNING @schema@_internal.extraction_event_json(e) INTO result;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.fail_extraction(bigint, uuid, integer, text) IS
'Record a failed attempt at a leased extraction event with a provider error code (seed 000''s '
'1001, 1400, 1401, 1403, 1429, 1500, 1901, 9999) and the error''s first 500 characters: the '
'event is ready again after retry_delay, or parked as failed after extraction_max_attempts. '
'55000 when the token no longer holds the event.';

CREATE OR REPLACE FUNCTION @schema@.release_extraction(event_id bigint, lease_token uuid)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    held @schema@_internal.extraction_events;
    result jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind('{operator}', 'release extractions');
    held := @schema@_internal.leased_event(event_id, lease_token);
    UPDATE @schema@_internal.extraction_events AS e
       SET state = 'ready', lease_token = NULL, due_at = pg_catalog.now(),
           attempts = GREATEST(e.attempts - 1, 0)
     WHERE e.tenant = held.tenant AND e.event_id = held.event_id
    RETURNING @schema@_internal.extraction_event_json(e) INTO result;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.release_extraction(bigint, uuid) IS
'Give a leased extraction event back untried (a worker shutting down): ready now, the '
'attempt not counted. 55000 when the token no longer holds the event.';

CREATE OR REPLACE FUNCTION @schema@_internal.given_leases(results jsonb)
RETURNS TABLE (ord bigint, value jsonb, event_id bigint, lease_token uuid)
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- An id or token that is no bigint or uuid is NULL here (it holds nothing); the
    -- result's own subtransaction then reports the cast's error for it alone.
    SELECT r.ord, r.value,
           CASE WHEN pg_catalog.pg_input_is_valid(r.value ->> 'event_id', 'bigint')
                THEN (r.value ->> 'event_id')::bigint END,
           CASE WHEN pg_catalog.pg_input_is_valid(r.value ->> 'lease_token', 'uuid')
                THEN (r.value ->> 'lease_token')::uuid END
      FROM pg_catalog.jsonb_array_elements(results) WITH ORDINALITY AS r (value, ord)
$fn$;

COMMENT ON FUNCTION @schema@_internal.given_leases(jsonb) IS
'The (event id, lease token) pairs of complete_extractions'' results, in their order.';

CREATE OR REPLACE FUNCTION @schema@.complete_extractions(extractor text, results jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    for_tenant text := @schema@_internal.context_tenant();
    held @schema@_internal.extraction_events [];
    item record;
    episode bigint;
    done_ids bigint [] := '{}';
    episode_ids bigint [] := '{}';
    outcomes jsonb [] := '{}';
BEGIN
    PERFORM @schema@_internal.require_kind('{operator}', 'complete extractions');
    PERFORM @schema@_internal.check_extractor(extractor);
    IF pg_catalog.jsonb_typeof(results) IS DISTINCT FROM 'array'
       OR pg_catalog.jsonb_array_length(results) > 1000
       OR pg_catalog.jsonb_path_exists(results, 'lax $[*] ? (!exists(@.event_id ? (@.type() == "number")) '
                                                '|| !exists(@.lease_token ? (@.type() == "string")))') THEN
        RAISE EXCEPTION 'results must be an array of at most 1000 {event_id, lease_token, claims}'
            USING ERRCODE = '22023', HINT = 'event_id and lease_token as claim_extraction_work '
                                            'returned them; claims in ingest''s format';
    END IF;
    -- Every event the batch still holds, locked at once; the claims of each then go through
    -- ingest in a subtransaction of its own (one refused result leaves the others written),
    -- and the events are marked done together.
    held := ARRAY(SELECT h FROM @schema@_internal.held_extraction_events(for_tenant,
                      ARRAY(SELECT g.event_id FROM @schema@_internal.given_leases(results) AS g),
                      ARRAY(SELECT g.lease_token FROM @schema@_internal.given_leases(results) AS g)) AS h);
    FOR item IN SELECT g.value, h AS event
                  FROM @schema@_internal.given_leases(results) AS g
                  LEFT JOIN pg_catalog.unnest(held) AS h
                    ON h.event_id = g.event_id AND h.lease_token = g.lease_token
                 ORDER BY g.ord
    LOOP
        BEGIN
            IF (item.event).event_id IS NULL THEN
                -- Not held: leased_event says why (55000, P0002), as complete_extraction would.
                PERFORM @schema@_internal.leased_event((item.value ->> 'event_id')::bigint,
                                                       (item.value ->> 'lease_token')::uuid);
            END IF;
            IF (item.event).event_id = ANY (done_ids) THEN
                RAISE EXCEPTION 'extraction event % appears twice in results', (item.event).event_id
                    USING ERRCODE = '55000', HINT = 'its first result is written: drop the repeat';
            END IF;
            episode := @schema@_internal.extraction_episode(item.event, extractor,
                                                            coalesce(item.value -> 'claims', '[]'));
            done_ids := done_ids || (item.event).event_id;
            episode_ids := episode_ids || episode;
            outcomes := outcomes || pg_catalog.jsonb_build_object(
                'event_id', (item.event).event_id, 'state', 'done', 'episode_id', episode);
        EXCEPTION WHEN OTHERS THEN
            outcomes := outcomes || pg_catalog.jsonb_build_object(
                'event_id', item.value -> 'event_id', 'sqlstate', SQLSTATE,
                'message', pg_catalog.left(SQLERRM, 200));
        END;
    END LOOP;
    PERFORM FROM @schema@_internal.finish_extractions(for_tenant, done_ids, episode_ids);
    RETURN pg_catalog.to_jsonb(outcomes);
END
$fn$;

COMMENT ON FUNCTION @schema@.complete_extractions(text, jsonb) IS
'complete_extraction for a batch of results [{event_id, lease_token, claims}] (at most 1000) '
'in one transaction: the events the tokens still hold locked in one statement, each '
'result''s claims through ingest in a subtransaction of its own, the written events marked '
'done in one statement. One outcome per result in order, {event_id, state: done, '
'episode_id} or {event_id, sqlstate, message} for one refused (55000 a stale token or an '
'event given twice; ingest''s codes for its claims) while the others are written. 22023 '
'for malformed results or an empty extractor.';
