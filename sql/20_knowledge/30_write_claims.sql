-- The knowledge write path: the claims of one episode, decided in memory against the live
-- rows of the slots they touch and written with one statement per kind of change. ingest,
-- override and the purge replay (rebuild_slot) all write through write_claims.

CREATE OR REPLACE FUNCTION @schema@_internal.index_add(map jsonb, key text, item integer)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The write path's in-memory indexes: key -> positions, kept as an int[] literal.
    RETURN map || pg_catalog.jsonb_build_object(key,
        (coalesce((map ->> key)::integer [], '{}') || item)::text);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.index_add(jsonb, text, integer) IS
'Add a position under a key of an in-memory index {key: "{positions}"} (write_claims).';

CREATE OR REPLACE FUNCTION @schema@_internal.write_claims(
    tenant text, episode @schema@_internal.episodes, claims jsonb, floor real,
    write_at timestamptz, replay boolean
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
-- moved just past the newest live row of the slots (next_instant).
-- A new episode (its id drawn, not yet stored) is inserted here with the claims it
-- accepted, their instant and its place in the order of writes. A replay (rebuild_slot)
-- passes a stored episode and its accepted claims: retractions are not checked (each is
-- replayed at its own place in the order) and the episode is not inserted again.
-- Returns {write_at, counters, outcomes: [{index, outcome, claim_id?, retired?, reason?}]}.
#variable_conflict use_variable
DECLARE
    episode_id bigint := episode.episode_id;
    episode_trust integer := @schema@_internal.trust_rank(episode.trust);
    occurred_at timestamptz := episode.occurred_at;
    inputs @schema@_internal.claim_input [];
    c @schema@_internal.claim_input;
    claim_count integer;
    -- The rows of the touched slots (index r): the live rows read, then the rows written
    -- here. State: live, retire (rows read); new, new_retired, dropped (written here).
    slot_rows @schema@_internal.claims [];
    row_state text [];
    row_count integer;
    one @schema@_internal.claims;
    -- Their source lines (index l), with each line's trust and whether to insert it.
    lines @schema@_internal.claim_sources [];
    line @schema@_internal.claim_sources;
    -- The row this claim's source line goes to (a new row, or one it corroborates).
    line_row bigint;
    claim_line @schema@_internal.claim_sources;
    line_trust integer [];
    line_write boolean [];
    -- Row indexes by slot ('subject:predicate') and line indexes by claim id, as int[] text.
    rows_of_slot jsonb := '{}';
    lines_of_row jsonb := '{}';
    retired @schema@_internal.claims [];
    new_rows @schema@_internal.claims [];
    new_lines @schema@_internal.claim_sources [];
    newest timestamptz;
    r integer;
    l integer;
    slot_key text;
    valid tstzrange;
    holder integer;
    holder_trust integer;
    corroborated integer;
    next_start timestamptz;
    new_end timestamptz;
    new_id bigint;
    target integer;
    target_reason text;
    copies tstzrange [];
    copy_range tstzrange;
    known boolean;
    outcome jsonb;
    outcomes jsonb := '[]';
    counters jsonb := '{}';
    -- The claims accepted (stored, corroborating or outranked), as the purge replay needs
    -- them: the episode keeps this list.
    written @schema@_internal.episode_claim [] := '{}';
    replaced_assertion text;
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
    SELECT pg_catalog.array_agg(ROW(v.position, v.problem, v.hint, v.subject, v.predicate,
               v.cardinality, v.object, v.object_entity, v.text, v.confidence, v.valid_from,
               v.valid_to, v.locator, v.quote, v.replaces, v.assertion,
               v.retracted)::@schema@_internal.claim_input ORDER BY v.position)
      INTO inputs
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

    claim_count := coalesce(pg_catalog.cardinality(inputs), 0);
    FOR i IN 1 .. claim_count LOOP
        c := inputs[i];
        IF c.problem LIKE 'unknown entity %' OR c.problem LIKE 'unknown predicate %' THEN
            RAISE EXCEPTION '%', c.problem USING ERRCODE = '22023', HINT = c.hint;
        ELSIF c.problem IS NOT NULL THEN
            RAISE EXCEPTION '%', c.problem USING ERRCODE = '22023';
        END IF;
    END LOOP;

    -- 2. The live rows of the touched slots that a claim can meet, and the newest instant
    --    in their history (a row recorded or retired: another transaction may have retired
    --    a row after this one began); then the source lines of the rows a claim can
    --    retire or be outranked by, each with its episode's trust. A `one` claim meets
    --    every row of its slot; a `many` or `event` claim only its own assertion (it
    --    corroborates) and the row it replaces, which are also the only rows of such a
    --    slot whose lines it needs.
    SELECT pg_catalog.array_agg(cl) FILTER (
               WHERE pg_catalog.upper_inf(cl.system_time) AND (
                     cl.cardinality = 'one'
                  OR cl.assertion = ANY (ARRAY(SELECT u.assertion FROM pg_catalog.unnest(inputs) AS u))
                  OR cl.claim_id = ANY (ARRAY(SELECT u.replaces FROM pg_catalog.unnest(inputs) AS u)))),
           pg_catalog.max(@schema@_internal.last_instant(cl.system_time))
      INTO slot_rows, newest
      FROM @schema@_internal.claims AS cl
     WHERE cl.tenant = tenant
       -- (= ANY: the keys are index conditions whichever way the join is planned.)
       AND cl.subject_id = ANY (ARRAY(SELECT u.subject FROM pg_catalog.unnest(inputs) AS u))
       AND (cl.subject_id, cl.predicate) IN (
               SELECT DISTINCT u.subject, u.predicate FROM pg_catalog.unnest(inputs) AS u);
    row_count := coalesce(pg_catalog.cardinality(slot_rows), 0);
    write_at := coalesce(write_at, @schema@_internal.next_instant(newest));
    IF row_count > 0 THEN
        SELECT pg_catalog.array_agg(s), pg_catalog.array_agg(@schema@_internal.trust_rank(e.trust))
          INTO lines, line_trust
          FROM @schema@_internal.claim_sources AS s
          JOIN @schema@_internal.episodes AS e
            ON e.tenant = s.tenant AND e.episode_id = s.episode_id
         WHERE s.tenant = tenant
           AND s.claim_id = ANY (ARRAY(
                   SELECT u.claim_id FROM pg_catalog.unnest(slot_rows) AS u
                    WHERE u.cardinality = 'one'
                       OR u.claim_id = ANY (ARRAY(SELECT v.replaces FROM pg_catalog.unnest(inputs) AS v))));
        -- The in-memory indexes: row positions by slot, line positions by claim id.
        SELECT pg_catalog.jsonb_object_agg(g.key, g.positions::text) INTO rows_of_slot
          FROM (SELECT u.subject_id || ':' || u.predicate AS key,
                       pg_catalog.array_agg(u.ordinality::integer ORDER BY u.ordinality) AS positions
                  FROM pg_catalog.unnest(slot_rows) WITH ORDINALITY AS u
                 GROUP BY 1) AS g;
        SELECT coalesce(pg_catalog.jsonb_object_agg(g.key, g.positions::text), '{}') INTO lines_of_row
          FROM (SELECT u.claim_id::text AS key,
                       pg_catalog.array_agg(u.ordinality::integer ORDER BY u.ordinality) AS positions
                  FROM pg_catalog.unnest(lines) WITH ORDINALITY AS u
                 GROUP BY 1) AS g;
    END IF;
    -- Every array grows by one element per row (or line), so they stay aligned.
    row_state := pg_catalog.array_fill('live'::text, ARRAY[row_count]);
    line_write := pg_catalog.array_fill(false, ARRAY[coalesce(pg_catalog.cardinality(lines), 0)]);

    -- 3. Each claim, in order, against the picture.
    FOR i IN 1 .. claim_count LOOP
        c := inputs[i];
        outcome := NULL;
        replaced_assertion := NULL;
        line_row := NULL;
        <<decide>>
        BEGIN
            IF c.confidence < floor THEN
                outcome := '{"outcome": "below_floor"}';
                EXIT decide;
            END IF;
            IF c.retracted AND NOT replay THEN
                outcome := '{"outcome": "rejected", "reason": "retracted"}';
                EXIT decide;
            END IF;
            slot_key := c.subject || ':' || c.predicate;
            IF c.cardinality = 'event' THEN
                valid := pg_catalog.tstzrange(c.valid_from, c.valid_from, '[]');
            ELSE
                valid := pg_catalog.tstzrange(c.valid_from, c.valid_to);
            END IF;
            -- This claim's source line, whichever row it ends up supporting.
            claim_line.tenant := tenant;
            claim_line.episode_id := episode_id;
            claim_line.locator := c.locator;
            claim_line.quote := c.quote;
            claim_line.asserted_valid := valid;
            claim_line.added_at := write_at;

            -- One look at the slot: the same assertion holding this claim's start
            -- (corroboration), the row holding the start, the next known start after it.
            -- (Many values may hold the start: the newest row speaks for the slot.)
            holder := NULL;
            corroborated := NULL;
            next_start := NULL;
            FOREACH r IN ARRAY coalesce((rows_of_slot ->> slot_key)::integer [], '{}') LOOP
                CONTINUE WHEN row_state[r] NOT IN ('live', 'new');
                one := slot_rows[r];
                IF one.valid @> c.valid_from THEN
                    IF holder IS NULL OR one.claim_id > (slot_rows[holder]).claim_id THEN
                        holder := r;
                    END IF;
                    IF one.assertion = c.assertion
                       AND (corroborated IS NULL OR one.claim_id > (slot_rows[corroborated]).claim_id) THEN
                        corroborated := r;
                    END IF;
                ELSIF pg_catalog.lower(one.valid) > c.valid_from
                      AND (next_start IS NULL OR pg_catalog.lower(one.valid) < next_start) THEN
                    next_start := pg_catalog.lower(one.valid);
                END IF;
            END LOOP;
            IF corroborated IS NOT NULL THEN
                -- The same assertion from another source adds a source line, not a row.
                new_id := (slot_rows[corroborated]).claim_id;
                known := false;
                FOREACH l IN ARRAY coalesce((lines_of_row ->> new_id::text)::integer [], '{}') LOOP
                    known := known OR (lines[l]).episode_id = episode_id;
                END LOOP;
                IF NOT known THEN
                    line_row := new_id;
                END IF;
                outcome := pg_catalog.jsonb_build_object('outcome', 'corroborated', 'claim_id', new_id);
                EXIT decide;
            END IF;

            -- What this claim does to the slot: the row it retires (target) and the pieces
            -- of that row written again (copies), or stored already retired when outranked.
            target := NULL;
            target_reason := NULL;
            copies := '{}';
            new_end := pg_catalog.upper(valid);
            IF c.cardinality = 'one' THEN
                -- A value learned late ends where the next known value starts.
                IF next_start IS NOT NULL AND (new_end IS NULL OR next_start < new_end) THEN
                    new_end := next_start;
                END IF;
                -- A row is as trusted as its most trusted source.
                holder_trust := 0;
                IF holder IS NOT NULL THEN
                    FOREACH l IN ARRAY coalesce(
                        (lines_of_row ->> (slot_rows[holder]).claim_id::text)::integer [], '{}') LOOP
                        holder_trust := GREATEST(holder_trust, line_trust[l]);
                    END LOOP;
                END IF;
                IF holder_trust > episode_trust THEN
                    -- Outranked: stored already retired, in history, never in as-of.
                    outcome := '{"outcome": "outranked"}';
                ELSIF holder IS NOT NULL THEN
                    -- A value beginning inside a live row retires it and writes it again
                    -- ending where the new value begins; a closed new range resumes it after.
                    target := holder;
                    target_reason := 'superseded';
                    one := slot_rows[holder];
                    IF pg_catalog.lower(one.valid) < c.valid_from THEN
                        copies := copies || pg_catalog.tstzrange(pg_catalog.lower(one.valid), c.valid_from);
                    END IF;
                    IF c.valid_to IS NOT NULL AND (pg_catalog.upper_inf(one.valid)
                                                   OR c.valid_to < pg_catalog.upper(one.valid)) THEN
                        copies := copies || pg_catalog.tstzrange(c.valid_to, pg_catalog.upper(one.valid));
                        new_end := c.valid_to;
                    END IF;
                END IF;
            ELSIF c.replaces IS NOT NULL AND c.cardinality = 'many' THEN
                -- Many values coexist; `replaces` ends one named live value of the slot.
                FOREACH r IN ARRAY coalesce((rows_of_slot ->> slot_key)::integer [], '{}') LOOP
                    IF (slot_rows[r]).claim_id = c.replaces AND row_state[r] IN ('live', 'new') THEN
                        target := r;
                    END IF;
                END LOOP;
                IF target IS NULL THEN
                    outcome := '{"outcome": "rejected", "reason": "replaces_unknown"}';
                    EXIT decide;
                END IF;
                target_reason := 'replaced';
                one := slot_rows[target];
                replaced_assertion := one.assertion;
                IF pg_catalog.lower(one.valid) < c.valid_from THEN
                    copies := copies || pg_catalog.tstzrange(pg_catalog.lower(one.valid), c.valid_from);
                END IF;
            END IF;

            -- The new row, its id drawn first so that the row it retires can name it.
            new_id := pg_catalog.nextval('@schema@_internal.claims_claim_id_seq'::regclass);
            one := NULL;
            one.claim_id := new_id;
            one.tenant := tenant;
            one.subject_id := c.subject;
            one.predicate := c.predicate;
            one.cardinality := c.cardinality;
            one.object_value := c.object;
            one.object_entity_id := c.object_entity;
            one.text := c.text;
            one.confidence := c.confidence;
            one.assertion := c.assertion;
            one.valid := pg_catalog.tstzrange(c.valid_from, new_end,
                                              CASE WHEN c.cardinality = 'event' THEN '[]' ELSE '[)' END);
            one.asserted_valid := valid;
            r := row_count + 1;
            row_count := r;
            IF outcome IS NULL THEN
                one.system_time := pg_catalog.tstzrange(write_at, NULL);
                row_state[r] := 'new';
            ELSE
                one.system_time := pg_catalog.tstzrange(write_at, write_at, '[]');
                one.retired_reason := 'outranked';
                one.superseded_by := (slot_rows[holder]).claim_id;
                row_state[r] := 'new_retired';
                outcome := outcome || pg_catalog.jsonb_build_object('claim_id', new_id);
            END IF;
            slot_rows[r] := one;
            rows_of_slot := @schema@_internal.index_add(rows_of_slot, slot_key, r);
            line_row := new_id;
            IF target IS NULL THEN
                outcome := coalesce(outcome,
                    pg_catalog.jsonb_build_object('outcome', 'inserted', 'claim_id', new_id));
                EXIT decide;
            END IF;

            -- The pieces of the retired row that stay believed: same assertion and sources.
            FOREACH copy_range IN ARRAY copies LOOP
                one := slot_rows[target];
                one.copied_from := coalesce(one.copied_from, one.claim_id);
                one.claim_id := pg_catalog.nextval('@schema@_internal.claims_claim_id_seq'::regclass);
                one.valid := copy_range;
                one.system_time := pg_catalog.tstzrange(write_at, NULL);
                r := row_count + 1;
                row_count := r;
                slot_rows[r] := one;
                row_state[r] := 'new';
                rows_of_slot := @schema@_internal.index_add(rows_of_slot, slot_key, r);
                FOREACH l IN ARRAY coalesce(
                    (lines_of_row ->> (slot_rows[target]).claim_id::text)::integer [], '{}') LOOP
                    line := lines[l];
                    line.claim_id := one.claim_id;
                    lines := lines || line;
                    line_trust := line_trust || line_trust[l];
                    line_write := line_write || true;
                    lines_of_row := @schema@_internal.index_add(lines_of_row, one.claim_id::text,
                        pg_catalog.cardinality(lines));
                END LOOP;
            END LOOP;
            -- Retire the target: a row read is retired; a row written by this call was never
            -- visible, so it is not written (its copies carry its source lines).
            one := slot_rows[target];
            IF row_state[target] = 'new' THEN
                row_state[target] := 'dropped';
                FOREACH l IN ARRAY coalesce((lines_of_row ->> one.claim_id::text)::integer [], '{}') LOOP
                    line_write[l] := false;
                END LOOP;
            ELSE
                row_state[target] := 'retire';
                one.retired_reason := target_reason;
                one.superseded_by := new_id;
                retired := retired || one;
            END IF;
            outcome := pg_catalog.jsonb_build_object('outcome', 'superseded', 'claim_id', new_id,
                                                     'retired', one.claim_id);
        END;
        IF line_row IS NOT NULL THEN
            line := claim_line;
            line.claim_id := line_row;
            l := coalesce(pg_catalog.cardinality(lines), 0) + 1;
            lines[l] := line;
            line_trust[l] := episode_trust;
            line_write[l] := true;
            lines_of_row := @schema@_internal.index_add(lines_of_row, line_row::text, l);
        END IF;
        outcomes := outcomes || (outcome || pg_catalog.jsonb_build_object('index', c.position));
        IF outcome ->> 'outcome' NOT IN ('below_floor', 'rejected') THEN
            -- As the caller wrote it, with its start resolved and the value it replaced
            -- named by assertion (a replay gives the rows new ids).
            written := written || ROW(c.position, c.subject, c.predicate, c.object,
                c.object_entity, c.text, c.confidence, c.valid_from, c.valid_to, c.locator, c.quote,
                replaced_assertion)::@schema@_internal.episode_claim;
        END IF;
        counters := counters || pg_catalog.jsonb_build_object(outcome ->> 'outcome',
            coalesce((counters ->> (outcome ->> 'outcome'))::integer, 0) + 1);
    END LOOP;

    -- 4. The writes: the episode, retired rows, new rows, source lines.
    FOR r IN 1 .. row_count LOOP
        IF row_state[r] IN ('new', 'new_retired') THEN
            new_rows := new_rows || slot_rows[r];
        END IF;
    END LOOP;
    FOR l IN 1 .. coalesce(pg_catalog.cardinality(lines), 0) LOOP
        IF line_write[l] THEN
            new_lines := new_lines || lines[l];
        END IF;
    END LOOP;
    IF NOT replay THEN
        INSERT INTO @schema@_internal.episodes AS e (
            tenant, episode_id, source_kind, source_ref, content_hash, occurred_at, trust,
            extractor, written, written_at, event_seq)
        OVERRIDING SYSTEM VALUE
        VALUES (tenant, episode_id, episode.source_kind, episode.source_ref, episode.content_hash,
                occurred_at, episode.trust, episode.extractor, written, write_at,
                pg_catalog.nextval('@schema@_internal.knowledge_event_seq'::regclass));
    END IF;
    IF retired IS NOT NULL THEN
        UPDATE @schema@_internal.claims AS cl
           SET system_time = pg_catalog.tstzrange(pg_catalog.lower(cl.system_time),
                   GREATEST(write_at, pg_catalog.lower(cl.system_time) + interval '1 microsecond')),
               retired_reason = u.retired_reason,
               superseded_by = u.superseded_by
          FROM pg_catalog.unnest(retired) AS u
         WHERE cl.tenant = tenant AND cl.claim_id = u.claim_id
           AND cl.claim_id = ANY (ARRAY(SELECT r.claim_id FROM pg_catalog.unnest(retired) AS r))
           AND pg_catalog.upper_inf(cl.system_time);
    END IF;
    IF new_rows IS NOT NULL THEN
        INSERT INTO @schema@_internal.claims AS cl (
            claim_id, tenant, subject_id, predicate, cardinality, object_value, object_entity_id,
            text, confidence, assertion, valid, asserted_valid, system_time, retired_reason,
            superseded_by, copied_from)
        OVERRIDING SYSTEM VALUE
        SELECT u.claim_id, tenant, u.subject_id, u.predicate, u.cardinality, u.object_value,
               u.object_entity_id, u.text, u.confidence, u.assertion, u.valid, u.asserted_valid,
               u.system_time, u.retired_reason, u.superseded_by, u.copied_from
          FROM pg_catalog.unnest(new_rows) AS u
         ORDER BY u.claim_id;
    END IF;
    IF new_lines IS NOT NULL THEN
        INSERT INTO @schema@_internal.claim_sources AS s (
            tenant, claim_id, episode_id, locator, quote, asserted_valid, added_at)
        SELECT tenant, u.claim_id, u.episode_id, u.locator, u.quote, u.asserted_valid, u.added_at
          FROM pg_catalog.unnest(new_lines) AS u
        ON CONFLICT ON CONSTRAINT claim_sources_pkey DO NOTHING;
    END IF;
    RETURN pg_catalog.jsonb_build_object('write_at', write_at, 'counters', counters,
                                         'outcomes', outcomes);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.write_claims(
    text, @schema@_internal.episodes, jsonb, real, timestamptz, boolean) IS
'Write the claims of one episode through the slot rules (one / many / event, corroboration, '
'trust, retraction unless a replay, confidence floor) at write_at (NULL: now), and insert a '
'new episode with the claims it accepted; the caller holds the slots'' advisory locks. '
'Returns {write_at, counters, outcomes}.';
