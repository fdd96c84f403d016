-- ingest: one episode and its claims, in the caller's transaction, all through one write
-- path. Structural errors (unknown predicate or entity, malformed ranges) refuse the whole
-- episode; judgements about a claim (below the confidence floor, retracted, outranked)
-- are outcomes, counted and reported by index and reason code, never with source text.

CREATE OR REPLACE FUNCTION @schema@_internal.write_claims(
    tenant text, episode_id bigint, episode_trust integer, claims jsonb, floor real,
    occurred_at timestamptz, write_at timestamptz
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- Every read here is a handful of keys against tables that keep growing: the planner must
-- not hash a whole table because it takes a claims array for 100 rows (the default estimate
-- for jsonb_array_elements and unnest) or a table for as small as it last analyzed it.
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
-- With those, the one generic plan per statement is right for every episode; planning the
-- statements again for each call would cost more than running them.
SET plan_cache_mode = force_generic_plan
AS $fn$
-- Read once, decide in memory, write once. The claims are validated in one statement and
-- the live rows of every slot they touch (with their source lines) read in two; each rule
-- is then applied, in claim order, to that in-memory picture, so a later claim of the
-- episode sees what an earlier one did; the result is written with one statement per kind
-- of change. A row this call creates and a later claim retires was never visible, so it
-- is never written. The caller holds the slots' advisory locks. write_at NULL means now,
-- moved just past the newest live row of the slots if a later transaction wrote one first.
-- Returns {write_at, outcomes: [{index, outcome, claim_id?, retired?, reason?}]}.
#variable_conflict use_variable
DECLARE
    -- The claims as validated (index i, in claim order).
    c_problem text [];
    c_hint text [];
    c_subject bigint [];
    c_predicate text [];
    c_cardinality text [];
    c_object jsonb [];
    c_object_entity bigint [];
    c_text text [];
    c_confidence real [];
    c_from timestamptz [];
    c_to timestamptz [];
    c_locator jsonb [];
    c_quote text [];
    c_replaces bigint [];
    c_assertion text [];
    c_retracted boolean [];
    claim_count integer;
    -- Rows of the touched slots (index r): the live rows read, then the rows written here.
    -- State: live, retire, delete (rows read); new, new_retired, dropped (rows written here).
    r_id bigint [];
    r_state text [];
    r_mine boolean [];
    r_subject bigint [];
    r_predicate text [];
    r_cardinality text [];
    r_object jsonb [];
    r_object_entity bigint [];
    r_text text [];
    r_confidence real [];
    r_assertion text [];
    r_valid tstzrange [];
    r_asserted tstzrange [];
    r_system tstzrange [];
    r_copied_from bigint [];
    r_trust integer [];
    r_reason text [];
    r_successor bigint [];
    row_count integer;
    -- Source lines of those rows (index l); l_write marks the lines to insert.
    l_claim bigint [];
    l_episode bigint [];
    l_locator jsonb [];
    l_quote text [];
    l_asserted tstzrange [];
    l_added timestamptz [];
    l_write boolean [];
    -- Row indexes by slot ('subject:predicate') and line indexes by row, as int[] literals.
    rows_of_slot jsonb := '{}';
    lines_of_row jsonb := '{}';
    newest timestamptz;
    i integer;
    r integer;
    l integer;
    slot_key text;
    valid tstzrange;
    asserted tstzrange;
    holder integer;
    corroborated integer;
    next_start timestamptz;
    new_end timestamptz;
    new_id bigint;
    target integer;
    target_reason text;
    copies tstzrange [];
    copy_range tstzrange;
    outcome jsonb;
    outcomes jsonb := '[]';
    known boolean;
    counts integer [] := ARRAY[0, 0, 0];  -- rows to retire, to delete, to insert
BEGIN
    -- 1. Every claim, typed and checked against this tenant's entities, predicates and
    --    retracted assertions, in one statement; a problem refuses the whole episode.
    WITH typed AS MATERIALIZED (
    SELECT y.*, @schema@_internal.assertion_of(y.subject, y.predicate, y.object, y.object_entity)
               AS assertion
      FROM (
    SELECT x.position, x.c, x.is_object, x.times_ok, x.confidence_ok,
           x.c ->> 'predicate' AS predicate,
           CASE WHEN x.is_object AND pg_catalog.jsonb_typeof(x.c -> 'subject') = 'number'
                     AND pg_catalog.pg_input_is_valid(x.c ->> 'subject', 'bigint')
                THEN (x.c ->> 'subject')::bigint END AS subject,
           CASE WHEN pg_catalog.pg_input_is_valid(x.c ->> 'object_entity', 'bigint')
                THEN (x.c ->> 'object_entity')::bigint END AS object_entity,
           CASE WHEN NOT x.c ? 'object_entity' THEN x.c -> 'object' END AS object,
           CASE WHEN pg_catalog.pg_input_is_valid(x.c ->> 'replaces', 'bigint')
                THEN (x.c ->> 'replaces')::bigint END AS replaces,
           CASE WHEN x.confidence_ok
                THEN coalesce((x.c ->> 'confidence')::real, 1.0::real) END AS confidence,
           CASE WHEN x.times_ok
                THEN coalesce(x.from_text::timestamptz, occurred_at) END AS valid_from,
           CASE WHEN x.times_ok THEN (x.c ->> 'valid_to')::timestamptz END AS valid_to
      FROM (
        SELECT e.ordinality::integer - 1 AS position, e.value AS c,
               pg_catalog.jsonb_typeof(e.value) = 'object' AS is_object,
               coalesce(e.value ->> 'valid_from', e.value ->> 'valid_at') AS from_text,
               coalesce(pg_catalog.pg_input_is_valid(
                   coalesce(e.value ->> 'valid_from', e.value ->> 'valid_at'), 'timestamptz'),
                   true)
               AND coalesce(pg_catalog.pg_input_is_valid(e.value ->> 'valid_to', 'timestamptz'),
                            true) AS times_ok,
               coalesce(pg_catalog.pg_input_is_valid(e.value ->> 'confidence', 'real'),
                        true) AS confidence_ok
          FROM pg_catalog.jsonb_array_elements(claims) WITH ORDINALITY AS e
      ) AS x
      ) AS y
    )
    SELECT pg_catalog.array_agg(v.problem ORDER BY v.position),
           pg_catalog.array_agg(v.hint ORDER BY v.position),
           pg_catalog.array_agg(v.subject ORDER BY v.position),
           pg_catalog.array_agg(v.predicate ORDER BY v.position),
           pg_catalog.array_agg(v.cardinality ORDER BY v.position),
           pg_catalog.array_agg(v.object ORDER BY v.position),
           pg_catalog.array_agg(v.object_entity ORDER BY v.position),
           pg_catalog.array_agg(v.text ORDER BY v.position),
           pg_catalog.array_agg(v.confidence ORDER BY v.position),
           pg_catalog.array_agg(v.valid_from ORDER BY v.position),
           pg_catalog.array_agg(v.valid_to ORDER BY v.position),
           pg_catalog.array_agg(v.locator ORDER BY v.position),
           pg_catalog.array_agg(v.quote ORDER BY v.position),
           pg_catalog.array_agg(v.replaces ORDER BY v.position),
           pg_catalog.array_agg(v.assertion ORDER BY v.position),
           pg_catalog.array_agg(v.retracted ORDER BY v.position)
      INTO c_problem, c_hint, c_subject, c_predicate, c_cardinality, c_object, c_object_entity,
           c_text, c_confidence, c_from, c_to, c_locator, c_quote, c_replaces, c_assertion,
           c_retracted
      FROM (
        SELECT t.position, t.subject, t.predicate, t.cardinality, t.object, t.object_entity,
               t.c ->> 'text' AS text, t.confidence, t.valid_from, t.valid_to,
               t.c -> 'locator' AS locator, t.c ->> 'quote' AS quote, t.replaces, t.assertion,
               t.retracted,
               CASE
                   WHEN NOT t.is_object THEN pg_catalog.format('claim %s is not an object', t.position)
                   WHEN t.subject IS NULL THEN 'claim subject must be an entity id'
                   WHEN NOT t.subject_known THEN pg_catalog.format('unknown entity %s', t.subject)
                   WHEN t.cardinality IS NULL
                       THEN pg_catalog.format('unknown predicate %s', pg_catalog.quote_nullable(t.predicate))
                   WHEN t.c ? 'object_entity' AND NOT t.object_known
                       THEN pg_catalog.format('unknown object entity %s', t.c ->> 'object_entity')
                   WHEN NOT t.c ? 'object_entity'
                        AND coalesce(pg_catalog.jsonb_typeof(t.c -> 'object'), 'null') = 'null'
                       THEN 'a claim needs an object or an object_entity'
                   WHEN pg_catalog.length(t.c ->> 'text') > 10000
                       THEN 'claim text is longer than 10000 characters'
                   WHEN NOT t.confidence_ok OR t.confidence < 0 OR t.confidence > 1
                       THEN 'confidence must be between 0 and 1'
                   WHEN NOT t.times_ok THEN 'valid_from / valid_to must be ISO 8601 timestamps'
                   WHEN t.valid_from IS NULL
                       THEN 'a claim needs valid_from (or the episode an occurred_at)'
                   WHEN t.valid_to <= t.valid_from
                       THEN pg_catalog.format('valid_to %s is not after valid_from %s',
                                              t.valid_to, t.valid_from)
                   WHEN t.c ? 'replaces' AND t.replaces IS NULL THEN 'replaces must be a claim id'
               END AS problem,
               CASE WHEN t.subject_known THEN 'define it with define_predicate()'
                    ELSE 'create it with ensure_entity() in this tenant' END AS hint
          FROM (
            -- Each lookup is a probe by key: the keys come out of a materialized CTE, so
            -- row level security lets them into index conditions (an expression over the
            -- claims JSON would stay a filter, being not leakproof).
            -- (Scalar subqueries, never hashed over a whole table.)
            SELECT k.*,
                   coalesce((SELECT true FROM @schema@_internal.entities AS s
                              WHERE s.tenant = tenant AND s.entity_id = k.subject), false)
                       AS subject_known,
                   coalesce((SELECT true FROM @schema@_internal.entities AS o
                              WHERE o.tenant = tenant AND o.entity_id = k.object_entity), false)
                       AS object_known,
                   (SELECT p.cardinality FROM @schema@_internal.predicates AS p
                     WHERE p.tenant = tenant AND p.name = k.predicate) AS cardinality,
                   coalesce((SELECT true FROM @schema@_internal.retractions AS r
                              WHERE r.tenant = tenant AND r.assertion = k.assertion
                                AND r.restored_at IS NULL), false) AS retracted
              FROM typed AS k
          ) AS t
      ) AS v;
    claim_count := coalesce(pg_catalog.cardinality(c_problem), 0);
    FOR i IN 1 .. claim_count LOOP
        IF c_problem[i] LIKE 'unknown entity %' OR c_problem[i] LIKE 'unknown predicate %' THEN
            RAISE EXCEPTION '%', c_problem[i] USING ERRCODE = '22023', HINT = c_hint[i];
        ELSIF c_problem[i] IS NOT NULL THEN
            RAISE EXCEPTION '%', c_problem[i] USING ERRCODE = '22023';
        END IF;
    END LOOP;
    IF claim_count = 0 THEN
        RETURN pg_catalog.jsonb_build_object('write_at', coalesce(write_at, pg_catalog.now()),
                                             'outcomes', outcomes);
    END IF;

    -- 2. The live rows of the touched slots, each with its trust (its best source), and the
    --    newest instant another transaction recorded in them.
    SELECT pg_catalog.array_agg(cl.claim_id ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.xmin = pg_catalog.pg_current_xact_id()::xid ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.subject_id ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.predicate ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.cardinality ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.object_value ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.object_entity_id ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.text ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.confidence ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.assertion ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.valid ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.asserted_valid ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.system_time ORDER BY cl.claim_id),
           pg_catalog.array_agg(cl.copied_from ORDER BY cl.claim_id),
           pg_catalog.array_agg(
               (SELECT coalesce(pg_catalog.max(@schema@_internal.trust_rank(e.trust)), 0)
                  FROM @schema@_internal.claim_sources AS s
                  JOIN @schema@_internal.episodes AS e
                    ON e.tenant = s.tenant AND e.episode_id = s.episode_id
                 WHERE s.tenant = cl.tenant AND s.claim_id = cl.claim_id) ORDER BY cl.claim_id),
           pg_catalog.max(pg_catalog.lower(cl.system_time))
               FILTER (WHERE cl.xmin <> pg_catalog.pg_current_xact_id()::xid)
      INTO r_id, r_mine, r_subject, r_predicate, r_cardinality, r_object, r_object_entity,
           r_text, r_confidence, r_assertion, r_valid, r_asserted, r_system, r_copied_from,
           r_trust, newest
      FROM @schema@_internal.claims AS cl
     WHERE cl.tenant = tenant AND pg_catalog.upper_inf(cl.system_time)
       AND (cl.subject_id, cl.predicate) IN (
               SELECT DISTINCT u.subject, u.predicate
                 FROM ROWS FROM (pg_catalog.unnest(c_subject), pg_catalog.unnest(c_predicate)) AS u (subject, predicate));
    row_count := coalesce(pg_catalog.cardinality(r_id), 0);
    write_at := coalesce(write_at, GREATEST(pg_catalog.now(), newest + interval '1 microsecond'));
    IF row_count > 0 THEN
        SELECT pg_catalog.array_agg(s.claim_id ORDER BY s.claim_id, s.episode_id),
               pg_catalog.array_agg(s.episode_id ORDER BY s.claim_id, s.episode_id),
               pg_catalog.array_agg(s.locator ORDER BY s.claim_id, s.episode_id),
               pg_catalog.array_agg(s.quote ORDER BY s.claim_id, s.episode_id),
               pg_catalog.array_agg(s.asserted_valid ORDER BY s.claim_id, s.episode_id),
               pg_catalog.array_agg(s.added_at ORDER BY s.claim_id, s.episode_id)
          INTO l_claim, l_episode, l_locator, l_quote, l_asserted, l_added
          FROM @schema@_internal.claim_sources AS s
         WHERE s.tenant = tenant AND s.claim_id = ANY (r_id);
    END IF;
    -- Every array below grows by one element per row (or line), so they stay aligned.
    r_state := pg_catalog.array_fill('live'::text, ARRAY[row_count]);
    r_reason := pg_catalog.array_fill(NULL::text, ARRAY[row_count]);
    r_successor := pg_catalog.array_fill(NULL::bigint, ARRAY[row_count]);
    l_write := pg_catalog.array_fill(false, ARRAY[coalesce(pg_catalog.cardinality(l_claim), 0)]);
    FOR r IN 1 .. row_count LOOP
        slot_key := r_subject[r] || ':' || r_predicate[r];
        rows_of_slot := rows_of_slot || pg_catalog.jsonb_build_object(slot_key,
            (coalesce((rows_of_slot ->> slot_key)::integer [], '{}') || r)::text);
    END LOOP;
    FOR l IN 1 .. coalesce(pg_catalog.cardinality(l_claim), 0) LOOP
        lines_of_row := lines_of_row || pg_catalog.jsonb_build_object(l_claim[l]::text,
            (coalesce((lines_of_row ->> l_claim[l]::text)::integer [], '{}') || l)::text);
    END LOOP;

    -- 3. Each claim, in order, against the picture.
    FOR i IN 1 .. claim_count LOOP
        IF c_confidence[i] < floor THEN
            outcomes := outcomes || pg_catalog.jsonb_build_object(
                'index', i - 1, 'outcome', 'below_floor');
            CONTINUE;
        END IF;
        IF c_retracted[i] THEN
            outcomes := outcomes || pg_catalog.jsonb_build_object(
                'index', i - 1, 'outcome', 'rejected', 'reason', 'retracted');
            CONTINUE;
        END IF;
        slot_key := c_subject[i] || ':' || c_predicate[i];
        IF c_cardinality[i] = 'event' THEN
            valid := pg_catalog.tstzrange(c_from[i], c_from[i], '[]');
        ELSE
            valid := pg_catalog.tstzrange(c_from[i], c_to[i]);
        END IF;
        asserted := valid;

        -- One look at the slot: the same assertion holding this claim's start
        -- (corroboration), the row holding the start, the next known start after it.
        holder := NULL;
        corroborated := NULL;
        next_start := NULL;
        FOREACH r IN ARRAY coalesce((rows_of_slot ->> slot_key)::integer [], '{}') LOOP
            CONTINUE WHEN r_state[r] NOT IN ('live', 'new');
            IF r_valid[r] @> c_from[i] THEN
                holder := r;
                IF r_assertion[r] = c_assertion[i] THEN
                    corroborated := r;
                END IF;
            ELSIF pg_catalog.lower(r_valid[r]) > c_from[i]
                  AND (next_start IS NULL OR pg_catalog.lower(r_valid[r]) < next_start) THEN
                next_start := pg_catalog.lower(r_valid[r]);
            END IF;
        END LOOP;
        IF corroborated IS NOT NULL THEN
            known := false;
            FOREACH l IN ARRAY coalesce((lines_of_row ->> r_id[corroborated]::text)::integer [], '{}') LOOP
                known := known OR l_episode[l] = episode_id;
            END LOOP;
            IF NOT known THEN
                l := coalesce(pg_catalog.cardinality(l_claim), 0) + 1;
                l_claim[l] := r_id[corroborated];
                l_episode[l] := episode_id;
                l_locator[l] := c_locator[i];
                l_quote[l] := c_quote[i];
                l_asserted[l] := asserted;
                l_added[l] := write_at;
                l_write[l] := true;
                lines_of_row := lines_of_row || pg_catalog.jsonb_build_object(l_claim[l]::text,
                    (coalesce((lines_of_row ->> l_claim[l]::text)::integer [], '{}') || l)::text);
                r_trust[corroborated] := GREATEST(r_trust[corroborated], episode_trust);
            END IF;
            outcomes := outcomes || pg_catalog.jsonb_build_object(
                'index', i - 1, 'outcome', 'corroborated', 'claim_id', r_id[corroborated]);
            CONTINUE;
        END IF;

        -- What this claim does to the slot: the row it retires (target) and the pieces of
        -- that row written again (copies), or stored already retired when outranked.
        target := NULL;
        target_reason := NULL;
        copies := '{}';
        outcome := NULL;
        new_end := pg_catalog.upper(valid);
        IF c_cardinality[i] = 'one' THEN
            -- A value learned late ends where the next known value starts.
            IF next_start IS NOT NULL AND (new_end IS NULL OR next_start < new_end) THEN
                new_end := next_start;
            END IF;
            IF holder IS NOT NULL AND r_trust[holder] > episode_trust THEN
                -- Outranked: stored already retired, in history, never in as-of.
                outcome := pg_catalog.jsonb_build_object('outcome', 'outranked');
            ELSIF holder IS NOT NULL THEN
                -- A value beginning inside a live row retires it and writes it again ending
                -- where the new value begins; a closed new range resumes it afterwards.
                target := holder;
                target_reason := 'superseded';
                IF pg_catalog.lower(r_valid[holder]) < c_from[i] THEN
                    copies := copies || pg_catalog.tstzrange(pg_catalog.lower(r_valid[holder]), c_from[i]);
                END IF;
                IF c_to[i] IS NOT NULL AND (pg_catalog.upper_inf(r_valid[holder])
                                            OR c_to[i] < pg_catalog.upper(r_valid[holder])) THEN
                    copies := copies || pg_catalog.tstzrange(c_to[i], pg_catalog.upper(r_valid[holder]));
                    new_end := c_to[i];
                END IF;
            END IF;
            valid := pg_catalog.tstzrange(c_from[i], new_end);
        ELSIF c_replaces[i] IS NOT NULL AND c_cardinality[i] = 'many' THEN
            -- Many values coexist; `replaces` ends one named live value of the slot.
            FOREACH r IN ARRAY coalesce((rows_of_slot ->> slot_key)::integer [], '{}') LOOP
                IF r_id[r] = c_replaces[i] AND r_state[r] IN ('live', 'new') THEN
                    target := r;
                END IF;
            END LOOP;
            IF target IS NULL THEN
                outcomes := outcomes || pg_catalog.jsonb_build_object(
                    'index', i - 1, 'outcome', 'rejected', 'reason', 'replaces_unknown');
                CONTINUE;
            END IF;
            target_reason := 'replaced';
            IF pg_catalog.lower(r_valid[target]) < c_from[i] THEN
                copies := copies || pg_catalog.tstzrange(pg_catalog.lower(r_valid[target]), c_from[i]);
            END IF;
        END IF;

        -- The new row (its id drawn first, so the row it retires can name it).
        new_id := pg_catalog.nextval('@schema@_internal.claims_claim_id_seq'::regclass);
        r := row_count + 1;
        row_count := r;
        r_id[r] := new_id;
        r_mine[r] := false;
        r_copied_from[r] := NULL;
        r_subject[r] := c_subject[i];
        r_predicate[r] := c_predicate[i];
        r_cardinality[r] := c_cardinality[i];
        r_object[r] := c_object[i];
        r_object_entity[r] := c_object_entity[i];
        r_text[r] := c_text[i];
        r_confidence[r] := c_confidence[i];
        r_assertion[r] := c_assertion[i];
        r_valid[r] := valid;
        r_asserted[r] := asserted;
        r_trust[r] := episode_trust;
        IF outcome IS NULL THEN
            r_state[r] := 'new';
            r_system[r] := pg_catalog.tstzrange(write_at, NULL);
            r_reason[r] := NULL;
            r_successor[r] := NULL;
        ELSE
            r_state[r] := 'new_retired';
            r_system[r] := pg_catalog.tstzrange(write_at, write_at, '[]');
            r_reason[r] := 'outranked';
            r_successor[r] := r_id[holder];
            outcome := outcome || pg_catalog.jsonb_build_object('claim_id', new_id);
        END IF;
        rows_of_slot := rows_of_slot || pg_catalog.jsonb_build_object(slot_key,
            (coalesce((rows_of_slot ->> slot_key)::integer [], '{}') || r)::text);
        l := coalesce(pg_catalog.cardinality(l_claim), 0) + 1;
        l_claim[l] := new_id;
        l_episode[l] := episode_id;
        l_locator[l] := c_locator[i];
        l_quote[l] := c_quote[i];
        l_asserted[l] := asserted;
        l_added[l] := write_at;
        l_write[l] := true;
        lines_of_row := lines_of_row || pg_catalog.jsonb_build_object(new_id::text, ARRAY[l]::text);

        IF target IS NOT NULL THEN
            -- The pieces of the retired row that stay believed: same assertion and sources.
            FOREACH copy_range IN ARRAY copies LOOP
                r := row_count + 1;
                row_count := r;
                r_id[r] := pg_catalog.nextval('@schema@_internal.claims_claim_id_seq'::regclass);
                r_state[r] := 'new';
                r_mine[r] := false;
                r_reason[r] := NULL;
                r_successor[r] := NULL;
                r_subject[r] := r_subject[target];
                r_predicate[r] := r_predicate[target];
                r_cardinality[r] := r_cardinality[target];
                r_object[r] := r_object[target];
                r_object_entity[r] := r_object_entity[target];
                r_text[r] := r_text[target];
                r_confidence[r] := r_confidence[target];
                r_assertion[r] := r_assertion[target];
                r_valid[r] := copy_range;
                r_asserted[r] := r_asserted[target];
                r_system[r] := pg_catalog.tstzrange(write_at, NULL);
                r_copied_from[r] := coalesce(r_copied_from[target], r_id[target]);
                r_trust[r] := r_trust[target];
                rows_of_slot := rows_of_slot || pg_catalog.jsonb_build_object(slot_key,
                    (coalesce((rows_of_slot ->> slot_key)::integer [], '{}') || r)::text);
                FOREACH l IN ARRAY coalesce((lines_of_row ->> r_id[target]::text)::integer [], '{}') LOOP
                    l_claim := l_claim || r_id[r];
                    l_episode := l_episode || l_episode[l];
                    l_locator := l_locator || l_locator[l];
                    l_quote := l_quote || l_quote[l];
                    l_asserted := l_asserted || l_asserted[l];
                    l_added := l_added || l_added[l];
                    l_write := l_write || true;
                    lines_of_row := lines_of_row || pg_catalog.jsonb_build_object(r_id[r]::text,
                        (coalesce((lines_of_row ->> r_id[r]::text)::integer [], '{}')
                         || pg_catalog.cardinality(l_claim))::text);
                END LOOP;
            END LOOP;
            -- Retire the target: a row read is retired (or removed, if this transaction wrote
            -- it at this very instant); a row written by this call is simply not written.
            IF r_state[target] = 'new' THEN
                r_state[target] := 'dropped';
                FOREACH l IN ARRAY coalesce((lines_of_row ->> r_id[target]::text)::integer [], '{}') LOOP
                    l_write[l] := false;
                END LOOP;
            ELSIF r_mine[target] AND pg_catalog.lower(r_system[target]) >= write_at THEN
                r_state[target] := 'delete';
                counts[2] := counts[2] + 1;
            ELSE
                r_state[target] := 'retire';
                r_reason[target] := target_reason;
                r_successor[target] := new_id;
                counts[1] := counts[1] + 1;
            END IF;
            outcome := pg_catalog.jsonb_build_object('outcome', 'superseded', 'claim_id', new_id,
                                                     'retired', r_id[target]);
        END IF;
        outcomes := outcomes || (coalesce(outcome, pg_catalog.jsonb_build_object(
            'outcome', 'inserted', 'claim_id', new_id)) || pg_catalog.jsonb_build_object('index', i - 1));
    END LOOP;

    -- 4. The writes: retire, remove, insert rows, insert source lines.
    IF counts[1] > 0 THEN
        UPDATE @schema@_internal.claims AS cl
           SET system_time = pg_catalog.tstzrange(pg_catalog.lower(cl.system_time),
                   GREATEST(write_at, pg_catalog.lower(cl.system_time) + interval '1 microsecond')),
               retired_reason = u.reason,
               superseded_by = u.successor
          FROM ROWS FROM (pg_catalog.unnest(r_id), pg_catalog.unnest(r_state), pg_catalog.unnest(r_reason), pg_catalog.unnest(r_successor)) AS u (id, state, reason, successor)
         WHERE u.state = 'retire' AND cl.tenant = tenant AND cl.claim_id = u.id
           AND pg_catalog.upper_inf(cl.system_time);
    END IF;
    IF counts[2] > 0 THEN
        DELETE FROM @schema@_internal.claims AS cl
         USING ROWS FROM (pg_catalog.unnest(r_id), pg_catalog.unnest(r_state)) AS u (id, state)
         WHERE u.state = 'delete' AND cl.tenant = tenant AND cl.claim_id = u.id;
    END IF;
    INSERT INTO @schema@_internal.claims AS cl (
        claim_id, tenant, subject_id, predicate, cardinality, object_value, object_entity_id,
        text, confidence, assertion, valid, asserted_valid, system_time, retired_reason,
        superseded_by, copied_from)
    OVERRIDING SYSTEM VALUE
    SELECT u.id, tenant, u.subject, u.predicate, u.cardinality, u.object, u.object_entity,
           u.text, u.confidence, u.assertion, u.valid, u.asserted, u.system_time, u.reason,
           u.successor, u.copied_from
      FROM ROWS FROM (pg_catalog.unnest(r_id), pg_catalog.unnest(r_state), pg_catalog.unnest(r_subject), pg_catalog.unnest(r_predicate), pg_catalog.unnest(r_cardinality), pg_catalog.unnest(r_object), pg_catalog.unnest(r_object_entity), pg_catalog.unnest(r_text), pg_catalog.unnest(r_confidence), pg_catalog.unnest(r_assertion), pg_catalog.unnest(r_valid), pg_catalog.unnest(r_asserted), pg_catalog.unnest(r_system), pg_catalog.unnest(r_reason), pg_catalog.unnest(r_successor), pg_catalog.unnest(r_copied_from))
           AS u (id, state, subject, predicate, cardinality, object, object_entity, text,
                 confidence, assertion, valid, asserted, system_time, reason, successor,
                 copied_from)
     WHERE u.state IN ('new', 'new_retired')
     ORDER BY u.id;
    INSERT INTO @schema@_internal.claim_sources AS s (
        tenant, claim_id, episode_id, locator, quote, asserted_valid, added_at)
    SELECT tenant, u.claim, u.episode, u.locator, u.quote, u.asserted, u.added
      FROM ROWS FROM (pg_catalog.unnest(l_claim), pg_catalog.unnest(l_episode), pg_catalog.unnest(l_locator), pg_catalog.unnest(l_quote), pg_catalog.unnest(l_asserted), pg_catalog.unnest(l_added), pg_catalog.unnest(l_write))
           AS u (claim, episode, locator, quote, asserted, added, write)
     WHERE u.write
    ON CONFLICT ON CONSTRAINT claim_sources_pkey DO NOTHING;
    RETURN pg_catalog.jsonb_build_object('write_at', write_at, 'outcomes', outcomes);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.write_claims(
    text, bigint, integer, jsonb, real, timestamptz, timestamptz) IS
'Write the claims of one episode through the slot rules (one / many / event, corroboration, '
'trust, retraction, confidence floor) at write_at (NULL: now); the caller holds the slots'' '
'advisory locks. Returns {write_at, outcomes}.';

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
    -- Most sources are seen once: then there is no older text to retire anything for (and
    -- this index probe spares the search below, whose plan cannot start from the source).
    IF NOT EXISTS (SELECT 1 FROM @schema@_internal.episodes AS old
                    WHERE old.tenant = tenant AND old.source_kind = source.source_kind
                      AND old.source_ref = source.source_ref
                      AND old.episode_id <> new_episode) THEN
        RETURN 0;
    END IF;
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
    written jsonb;
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
    PERFORM pg_catalog.pg_advisory_xact_lock(held.lock_key)
       FROM (SELECT DISTINCT pg_catalog.hashtextextended('@schema@:slot:' || tenant || ':'
                                 || (e ->> 'subject') || ':' || (e ->> 'predicate'), 0) AS lock_key
               FROM pg_catalog.jsonb_array_elements(claims) AS e
              ORDER BY 1) AS held;

    written := @schema@_internal.write_claims(tenant, new_episode,
        @schema@_internal.trust_rank(trust), claims, floor,
        (episode ->> 'occurred_at')::timestamptz, NULL);
    write_at := (written ->> 'write_at')::timestamptz;
    SELECT pg_catalog.jsonb_object_agg(k.outcome, coalesce(n.count, 0)) INTO counters
      FROM pg_catalog.jsonb_object_keys(counters) AS k (outcome)
      LEFT JOIN (SELECT o ->> 'outcome' AS outcome, pg_catalog.count(*) AS count
                   FROM pg_catalog.jsonb_array_elements(written -> 'outcomes') AS o
                  GROUP BY 1) AS n ON n.outcome = k.outcome;

    changed := @schema@_internal.retire_changed_source(tenant, new_episode, NULL, NULL, write_at);
    counters := pg_catalog.jsonb_set(counters, '{source_changed}', pg_catalog.to_jsonb(changed));

    RETURN pg_catalog.jsonb_build_object('duplicate', false, 'episode_id', new_episode,
                                         'counters', counters, 'outcomes', written -> 'outcomes');
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
