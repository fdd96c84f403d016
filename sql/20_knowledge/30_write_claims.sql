-- The knowledge write path: the claims of one episode, decided in memory against the live
-- rows of the slots they touch and written with one statement per kind of change. ingest,
-- override and the purge replay (rebuild_slot) all write through write_claims, in phases
-- with names a test can call:
--   check_claims         type and check every claim: a problem code per claim
--   raise_claim_problem  the refusal (SQLSTATE, message, hint) for a problem code
--   read_slots           the live rows of the touched slots, with their source lines
--   decide_claim         floor, retraction, then corroboration or the slot's rule:
--     corroboration, decide_one, decide_many, decide_event
--   apply_decision       the decision applied to the in-memory picture of the slot
--   write_claim_changes  (20_claim_rows.sql) the one writer of rows and source lines

-- Inlined (no SET clause) into check_claims' one statement.
CREATE OR REPLACE FUNCTION @schema@_internal.claim_size_problem(
    c jsonb, predicate text, object jsonb
) RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- The caps keep a claim's search document (claim_document) far under the tsvector
    -- limit (1 MB) and its index rows small.
    SELECT CASE
        WHEN pg_catalog.length(predicate) OPERATOR(pg_catalog.>) 100 THEN 'predicate_too_long'
        WHEN pg_catalog.octet_length(object::text) OPERATOR(pg_catalog.>) 65536
            THEN 'object_too_large'
        WHEN pg_catalog.jsonb_typeof(object) OPERATOR(pg_catalog.=) ANY (ARRAY['array', 'object'])
             AND pg_catalog.jsonb_path_exists(object,
                     'strict $.**{64} ? (@.type() == "array" || @.type() == "object")')
            THEN 'object_too_deep'
        WHEN pg_catalog.length(c OPERATOR(pg_catalog.->>) 'text') OPERATOR(pg_catalog.>) 10000
            THEN 'text_too_long'
        WHEN pg_catalog.length(c OPERATOR(pg_catalog.->>) 'quote') OPERATOR(pg_catalog.>) 10000
            THEN 'quote_too_long'
        WHEN pg_catalog.octet_length((c OPERATOR(pg_catalog.->) 'locator')::text)
                 OPERATOR(pg_catalog.>) 4096
             OR (pg_catalog.jsonb_typeof(c OPERATOR(pg_catalog.->) 'locator')
                     OPERATOR(pg_catalog.=) ANY (ARRAY['array', 'object'])
                 AND pg_catalog.jsonb_path_exists(c OPERATOR(pg_catalog.->) 'locator',
                         'strict $.**{64} ? (@.type() == "array" || @.type() == "object")'))
            THEN 'locator_too_large'
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_size_problem(jsonb, text, jsonb) IS
'The size problem code of one claim (predicate_too_long, object_too_large, object_too_deep, '
'text_too_long, quote_too_long, locator_too_large), or NULL. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.check_claims(
    tenant text, claims jsonb, occurred_at timestamptz
) RETURNS @schema@_internal.claim_input []
LANGUAGE plpgsql
STABLE
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
-- Every claim, typed and checked against this tenant's entities, predicates and retracted
-- assertions, in one statement: a problem code per claim (NULL when it is fine), its
-- assertion, its predicate's cardinality and the number of its slot.
#variable_conflict use_variable
DECLARE
    checked @schema@_internal.claim_input [];
BEGIN
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
    SELECT pg_catalog.array_agg(ROW(v.position, v.problem, v.subject, v.predicate,
               v.cardinality, v.object, v.object_entity, v.text, v.confidence, v.valid_from,
               v.valid_to, v.locator, v.quote, v.replaces, v.assertion, v.retracted,
               v.slot)::@schema@_internal.claim_input ORDER BY v.position)
      INTO checked
      FROM (
        SELECT t.position, t.subject, t.predicate, t.cardinality, t.object, t.object_entity,
               t.c ->> 'text' AS text, t.confidence, t.valid_from, t.valid_to,
               t.c -> 'locator' AS locator, t.c ->> 'quote' AS quote, t.replaces, t.assertion,
               t.retracted,
               -- Slots are numbered in (subject, predicate) order, as read_slots lists them.
               pg_catalog.dense_rank() OVER (ORDER BY t.subject, t.predicate)::integer AS slot,
               CASE
                   WHEN NOT t.is_object THEN 'not_an_object'
                   -- Sizes first: an over-long value is refused before it is echoed.
                   WHEN t.size_problem IS NOT NULL THEN t.size_problem
                   WHEN t.subject IS NULL THEN 'subject_not_an_id'
                   WHEN NOT t.subject_known THEN 'unknown_entity'
                   WHEN t.cardinality IS NULL THEN 'unknown_predicate'
                   WHEN t.c ? 'object_entity' AND NOT t.object_known THEN 'unknown_object_entity'
                   WHEN NOT t.c ? 'object_entity'
                        AND coalesce(pg_catalog.jsonb_typeof(t.c -> 'object'), 'null') = 'null'
                       THEN 'no_object'
                   WHEN NOT t.confidence_ok OR t.confidence < 0 OR t.confidence > 1
                       THEN 'confidence_out_of_range'
                   WHEN NOT t.times_ok THEN 'bad_timestamp'
                   WHEN t.valid_from IS NULL THEN 'no_valid_from'
                   WHEN t.valid_to <= t.valid_from THEN 'empty_range'
                   WHEN t.c ? 'replaces' AND t.replaces IS NULL THEN 'replaces_not_an_id'
               END AS problem
          FROM (
            -- Each lookup is a probe by key: the keys come out of a materialized CTE, so
            -- row level security lets them into index conditions (an expression over the
            -- claims JSON would stay a filter, being not leakproof).
            -- (Scalar subqueries, never hashed over a whole table.)
            SELECT k.*, @schema@_internal.claim_size_problem(k.c, k.predicate, k.object)
                       AS size_problem,
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
    RETURN coalesce(checked, '{}');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_claims(text, jsonb, timestamptz) IS
'The input rule of the write path: every claim typed and checked in one statement, with a '
'problem code (unknown_entity, unknown_predicate, empty_range, object_too_large, ...; NULL '
'when fine).';

CREATE OR REPLACE FUNCTION @schema@_internal.raise_claim_problem(c @schema@_internal.claim_input, claim jsonb)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    message text;
BEGIN
    -- The refusal of a whole episode for one claim's problem code; nothing is written.
    IF c.problem IN ('unknown_entity', 'unknown_object_entity') THEN
        RAISE EXCEPTION USING ERRCODE = 'PF001',
            MESSAGE = CASE c.problem WHEN 'unknown_entity'
                           THEN pg_catalog.format('unknown entity %s', c.subject)
                           ELSE pg_catalog.format('unknown object entity %s',
                                                  @schema@_internal.shown(claim ->> 'object_entity')) END,
            DETAIL = pg_catalog.format('claim %s: %s', c.position, c.problem),
            HINT = 'create it with ensure_entity() in this tenant';
    ELSIF c.problem = 'unknown_predicate' THEN
        RAISE EXCEPTION USING ERRCODE = 'PF002',
            MESSAGE = pg_catalog.format('unknown predicate %s', @schema@_internal.shown(c.predicate)),
            DETAIL = pg_catalog.format('claim %s: %s', c.position, c.problem),
            HINT = 'define it with define_predicate()';
    END IF;
    message := CASE c.problem
        WHEN 'not_an_object' THEN pg_catalog.format('claim %s is not an object', c.position)
        WHEN 'subject_not_an_id' THEN 'claim subject must be an entity id'
        WHEN 'no_object' THEN 'a claim needs an object or an object_entity'
        WHEN 'predicate_too_long' THEN 'a claim''s predicate name is longer than 100 characters'
        WHEN 'object_too_large' THEN 'a claim object is larger than 65536 bytes of JSON text'
        WHEN 'object_too_deep' THEN 'a claim object is nested over 64 levels'
        WHEN 'text_too_long' THEN 'claim text is longer than 10000 characters'
        WHEN 'quote_too_long' THEN 'a claim quote is longer than 10000 characters'
        WHEN 'locator_too_large' THEN
            'a claim locator is larger than 4096 bytes of JSON text or nested over 64 levels'
        WHEN 'confidence_out_of_range' THEN 'confidence must be between 0 and 1'
        WHEN 'bad_timestamp' THEN 'valid_from / valid_to must be ISO 8601 timestamps'
        WHEN 'no_valid_from' THEN 'a claim needs valid_from (or the episode an occurred_at)'
        WHEN 'empty_range' THEN pg_catalog.format('valid_to %s is not after valid_from %s',
                                                  c.valid_to, c.valid_from)
        WHEN 'replaces_not_an_id' THEN 'replaces must be a claim id'
        ELSE pg_catalog.format('claim %s: %s', c.position, c.problem) END;
    IF c.problem ~ '_too_(long|large|deep)$' THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = message,
            DETAIL = pg_catalog.format('claim %s: %s', c.position, c.problem),
            HINT = 'see "Limits" in docs/errors.md';
    END IF;
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = message,
        DETAIL = pg_catalog.format('claim %s: %s', c.position, c.problem);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.raise_claim_problem(@schema@_internal.claim_input, jsonb) IS
'Refuse an episode for a claim''s problem code: PF001 unknown entity, PF002 unknown '
'predicate, 22023 any other bad claim (DETAIL names the claim and the code).';

CREATE OR REPLACE FUNCTION @schema@_internal.read_slots(
    tenant text, inputs @schema@_internal.claim_input [],
    OUT slots @schema@_internal.slot_picture [], OUT newest timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- The planner settings of check_claims, for the same reason: a handful of keys each time.
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
SET plan_cache_mode = force_generic_plan
AS $fn$
-- The picture of the touched slots, in (subject, predicate) order (a claim's slot number
-- indexes it): the live rows a claim can meet, each with its trust and source lines, and
-- the newest instant in the slots' history (a row recorded or retired: another transaction
-- may have retired a row after this one began). A `one` claim meets every row of its slot;
-- a `many` or `event` claim only its own assertion (it corroborates) and the row it
-- replaces, which are also the only rows of such a slot whose lines (and trust) it needs.
#variable_conflict use_variable
DECLARE
    live @schema@_internal.claims [];
BEGIN
    SELECT pg_catalog.array_agg(cl) FILTER (
               WHERE pg_catalog.upper_inf(cl.system_time) AND (
                     cl.cardinality = 'one'
                  OR cl.assertion = ANY (ARRAY(SELECT u.assertion FROM pg_catalog.unnest(inputs) AS u))
                  OR cl.claim_id = ANY (ARRAY(SELECT u.replaces FROM pg_catalog.unnest(inputs) AS u)))),
           pg_catalog.max(@schema@_internal.last_instant(cl.system_time))
      INTO live, newest
      FROM @schema@_internal.claims AS cl
     WHERE cl.tenant = tenant
       -- (= ANY: the keys are index conditions whichever way the join is planned.)
       AND cl.subject_id = ANY (ARRAY(SELECT u.subject FROM pg_catalog.unnest(inputs) AS u))
       AND (cl.subject_id, cl.predicate) IN (
               SELECT DISTINCT u.subject, u.predicate FROM pg_catalog.unnest(inputs) AS u);
    -- A row is as trusted as its most trusted source (claim_trust, here for many rows).
    SELECT pg_catalog.array_agg(ROW(g.subject, g.predicate, g.rows)::@schema@_internal.slot_picture
                                ORDER BY g.subject, g.predicate)
      INTO slots
      FROM (SELECT x.subject, x.predicate,
                   coalesce(pg_catalog.array_agg(x.one) FILTER (WHERE x.is_row), '{}') AS rows
              FROM (SELECT u.subject, u.predicate, false AS is_row, NULL::@schema@_internal.slot_row AS one
                      FROM pg_catalog.unnest(inputs) AS u
                    UNION ALL
                    SELECT r.subject_id, r.predicate, true,
                           ROW(r, 'live', coalesce(l.trust, 0), coalesce(l.lines, '{}'))::@schema@_internal.slot_row
                      FROM pg_catalog.unnest(live) AS r
                      LEFT JOIN LATERAL (
                          SELECT pg_catalog.max(@schema@_internal.trust_rank(e.trust)) AS trust,
                                 pg_catalog.array_agg(ROW(s, false)::@schema@_internal.source_line) AS lines
                            FROM @schema@_internal.claim_sources AS s
                            JOIN @schema@_internal.episodes AS e
                              ON e.tenant = s.tenant AND e.episode_id = s.episode_id
                           WHERE s.tenant = tenant AND s.claim_id = r.claim_id
                             AND (r.cardinality = 'one' OR r.claim_id = ANY (ARRAY(
                                      SELECT u.replaces FROM pg_catalog.unnest(inputs) AS u)))
                      ) AS l ON true) AS x
             GROUP BY x.subject, x.predicate) AS g;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.read_slots(text, @schema@_internal.claim_input []) IS
'Read the touched slots once: their live rows a claim can meet (with trust and source '
'lines), one picture per slot in slot-number order, and the newest instant of their history.';

CREATE OR REPLACE FUNCTION @schema@_internal.corroboration(
    slot @schema@_internal.slot_picture, c @schema@_internal.claim_input, extent tstzrange,
    OUT corroborated integer [], OUT pieces tstzrange []
)
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- Corroboration: the live rows of the slot with the claim's assertion (same subject,
-- predicate and object) that its extent overlaps, in valid-time order (their positions in
-- the slot), each of which gets the claim's source line, and the pieces of the extent no
-- such row covers, which the claim writes as rows of its own. A corroborated row keeps its
-- own extent; the source line records the range the source asserted.
#variable_conflict use_variable
DECLARE
    one @schema@_internal.slot_row;
    covered tstzmultirange := '{}';
BEGIN
    corroborated := '{}';
    FOR r IN 1 .. coalesce(pg_catalog.cardinality(slot.rows), 0) LOOP
        one := slot.rows[r];
        IF one.state IN ('live', 'new') AND (one.claim).assertion = c.assertion
           AND (one.claim).valid && extent THEN
            corroborated := corroborated || r;
            covered := covered + pg_catalog.tstzmultirange((one.claim).valid);
        END IF;
    END LOOP;
    IF pg_catalog.cardinality(corroborated) = 0 THEN
        pieces := ARRAY[extent];  -- (most claims: nothing to corroborate)
        RETURN;
    END IF;
    SELECT coalesce(pg_catalog.array_agg(p ORDER BY pg_catalog.lower(p)), '{}') INTO pieces
      FROM pg_catalog.unnest(pg_catalog.tstzmultirange(extent) - covered) AS p;
    IF pg_catalog.cardinality(corroborated) = 1 THEN
        RETURN;
    END IF;
    -- (positions in valid-time order)
    SELECT coalesce(pg_catalog.array_agg(r ORDER BY pg_catalog.lower(((slot.rows[r]).claim).valid), r),
                    '{}')
      INTO corroborated
      FROM pg_catalog.unnest(corroborated) AS r;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.corroboration(
    @schema@_internal.slot_picture, @schema@_internal.claim_input, tstzrange) IS
'Corroboration within an extent: the live rows of the claim''s assertion it overlaps (each '
'gets a source line, keeping its extent) and the pieces of the extent none covers.';

CREATE OR REPLACE FUNCTION @schema@_internal.decide_one(
    slot @schema@_internal.slot_picture, c @schema@_internal.claim_input, episode_trust integer
) RETURNS @schema@_internal.claim_decision
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    one @schema@_internal.slot_row;
    holder integer;
    holder_id bigint;
    next_start timestamptz;
    new_end timestamptz := c.valid_to;
    held tstzrange;
    copies tstzrange [] := '{}';
BEGIN
    -- One value at a time. The claim's extent runs from its start to its end or to the next
    -- start of another value, whichever is first (a value learned late ends where the next
    -- known one starts); rows of its own value inside it are corroborated, not cut. The row
    -- of another value holding the claim's start (the newest, should many) is superseded.
    FOR r IN 1 .. coalesce(pg_catalog.cardinality(slot.rows), 0) LOOP
        one := slot.rows[r];
        CONTINUE WHEN one.state NOT IN ('live', 'new') OR (one.claim).assertion = c.assertion;
        IF (one.claim).valid @> c.valid_from THEN
            IF holder IS NULL OR (one.claim).claim_id > holder_id THEN
                holder := r;
                holder_id := (one.claim).claim_id;
            END IF;
        ELSIF pg_catalog.lower((one.claim).valid) > c.valid_from
              AND (next_start IS NULL OR pg_catalog.lower((one.claim).valid) < next_start) THEN
            next_start := pg_catalog.lower((one.claim).valid);
        END IF;
    END LOOP;
    IF next_start IS NOT NULL AND (new_end IS NULL OR next_start < new_end) THEN
        new_end := next_start;
    END IF;
    IF holder IS NULL THEN
        RETURN ROW('inserted', NULL, NULL, NULL, pg_catalog.tstzrange(c.valid_from, new_end),
                   copies, NULL, NULL)::@schema@_internal.claim_decision;
    END IF;
    IF (slot.rows[holder]).trust > episode_trust THEN
        -- Outranked: stored already retired, in history, never in as-of.
        RETURN ROW('outranked', NULL, holder, NULL, pg_catalog.tstzrange(c.valid_from, new_end),
                   copies, NULL, NULL)::@schema@_internal.claim_decision;
    END IF;
    -- A value beginning inside a live row retires it and writes it again ending where the
    -- new value begins; a closed new range resumes it after.
    held := ((slot.rows[holder]).claim).valid;
    IF pg_catalog.lower(held) < c.valid_from THEN
        copies := copies || pg_catalog.tstzrange(pg_catalog.lower(held), c.valid_from);
    END IF;
    IF c.valid_to IS NOT NULL AND (pg_catalog.upper_inf(held) OR c.valid_to < pg_catalog.upper(held)) THEN
        copies := copies || pg_catalog.tstzrange(c.valid_to, pg_catalog.upper(held));
        new_end := c.valid_to;
    END IF;
    RETURN ROW('superseded', NULL, holder, 'superseded', pg_catalog.tstzrange(c.valid_from, new_end),
               copies, NULL, NULL)::@schema@_internal.claim_decision;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.decide_one(@schema@_internal.slot_picture, @schema@_internal.claim_input, integer) IS
'The one rule: a value''s extent ends where the next known other value starts; it supersedes '
'the row of another value holding its start (kept before it, and after it when it closes), '
'unless that row is more trusted (outranked). Its valid is the extent, before corroboration.';

CREATE OR REPLACE FUNCTION @schema@_internal.decide_many(slot @schema@_internal.slot_picture, c @schema@_internal.claim_input)
RETURNS @schema@_internal.claim_decision
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    target integer;
    held tstzrange;
    copies tstzrange [] := '{}';
BEGIN
    -- Many values coexist; `replaces` ends one named live value of the slot, whatever
    -- corroboration then finds for the claim's own value.
    IF c.replaces IS NULL THEN
        RETURN ROW('inserted', NULL, NULL, NULL, pg_catalog.tstzrange(c.valid_from, c.valid_to),
                   copies, NULL, NULL)::@schema@_internal.claim_decision;
    END IF;
    FOR r IN 1 .. coalesce(pg_catalog.cardinality(slot.rows), 0) LOOP
        IF ((slot.rows[r]).claim).claim_id = c.replaces AND (slot.rows[r]).state IN ('live', 'new') THEN
            target := r;
        END IF;
    END LOOP;
    IF target IS NULL THEN
        RETURN ROW('rejected', 'replaces_unknown', NULL, NULL, NULL, copies, NULL, NULL)::@schema@_internal.claim_decision;
    END IF;
    held := ((slot.rows[target]).claim).valid;
    IF pg_catalog.lower(held) < c.valid_from THEN
        copies := copies || pg_catalog.tstzrange(pg_catalog.lower(held), c.valid_from);
    END IF;
    RETURN ROW('superseded', NULL, target, 'replaced', pg_catalog.tstzrange(c.valid_from, c.valid_to),
               copies, NULL, NULL)::@schema@_internal.claim_decision;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.decide_many(@schema@_internal.slot_picture, @schema@_internal.claim_input) IS
'The many rule: values coexist (inserted); `replaces` retires that live value of the slot '
'(kept before the new start), rejected as replaces_unknown when there is none.';

CREATE OR REPLACE FUNCTION @schema@_internal.decide_event(c @schema@_internal.claim_input)
RETURNS @schema@_internal.claim_decision
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- An event is a point in time; events coexist.
    RETURN ROW('inserted', NULL, NULL, NULL, pg_catalog.tstzrange(c.valid_from, c.valid_from, '[]'),
               '{}', NULL, NULL)::@schema@_internal.claim_decision;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.decide_event(@schema@_internal.claim_input) IS
'The event rule: a point in time ([valid_from, valid_from]), inserted beside the others.';

CREATE OR REPLACE FUNCTION @schema@_internal.decide_claim(
    slot @schema@_internal.slot_picture, c @schema@_internal.claim_input, episode_trust integer, floor real, replay boolean
) RETURNS @schema@_internal.claim_decision
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    d @schema@_internal.claim_decision;
    found record;
BEGIN
    -- The rules in the order they apply: the confidence floor, the negative memory (not in
    -- a replay: each retraction is replayed at its own place), the slot's rule (the claim's
    -- extent and the row it retires or is outranked by), then corroboration within that
    -- extent: the rows of the same assertion it overlaps get a source line, and only the
    -- pieces none covers are new rows (valid: the first, pieces: all). Without a piece and
    -- without a row to retire, the claim is corroborated (target: its first row).
    IF c.confidence < floor THEN
        RETURN ROW('below_floor', NULL, NULL, NULL, NULL, NULL, NULL, NULL)::@schema@_internal.claim_decision;
    END IF;
    IF c.retracted AND NOT replay THEN
        RETURN ROW('rejected', 'retracted', NULL, NULL, NULL, NULL, NULL, NULL)::@schema@_internal.claim_decision;
    END IF;
    d := CASE c.cardinality
        WHEN 'one' THEN @schema@_internal.decide_one(slot, c, episode_trust)
        WHEN 'many' THEN @schema@_internal.decide_many(slot, c)
        ELSE @schema@_internal.decide_event(c) END;
    IF d.outcome NOT IN ('inserted', 'superseded') THEN
        RETURN d;  -- rejected (replaces_unknown), or outranked: one row, stored retired
    END IF;
    IF d.target IS NOT NULL THEN
        -- (the row the claim retires corroborates nothing: a value may replace itself)
        slot.rows[d.target].state := 'retire';
    END IF;
    found := @schema@_internal.corroboration(slot, c, d.valid);
    d.corroborates := found.corroborated;
    d.pieces := found.pieces;
    d.valid := found.pieces[1];
    IF d.valid IS NULL AND d.target IS NULL THEN
        d.outcome := 'corroborated';
        d.target := found.corroborated[1];
    END IF;
    RETURN d;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.decide_claim(@schema@_internal.slot_picture, @schema@_internal.claim_input, integer, real, boolean) IS
'What one claim does to its slot: below_floor, rejected (retracted, unless a replay), the '
'one / many / event rule''s decision, with corroboration within its extent (corroborated '
'when it adds no valid time and retires nothing).';

DROP FUNCTION IF EXISTS @schema@_internal.corroborate_rows(
    @schema@_internal.slot_picture, integer [], @schema@_internal.claim_sources, integer);
CREATE OR REPLACE FUNCTION @schema@_internal.corroborate_rows(
    slot @schema@_internal.slot_picture, positions integer [],
    line @schema@_internal.claim_sources, episode_trust integer, episode_expiry timestamptz
) RETURNS @schema@_internal.slot_picture
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    lines @schema@_internal.source_line [];
    known @schema@_internal.source_line;
    given boolean;
    r integer;
BEGIN
    -- The claim's source line on each corroborated row; when this episode already gave the
    -- row one (it says the value twice), that line takes the claim's range too, so every
    -- range the episode asserted stays on record. A row is as trusted as its most trusted
    -- source, and expires when its last source does (never while one never does).
    FOREACH r IN ARRAY coalesce(positions, '{}') LOOP
        given := false;
        lines := '{}';
        FOREACH known IN ARRAY coalesce((slot.rows[r]).lines, '{}') LOOP
            IF (known.line).episode_id = line.episode_id THEN
                given := true;
                known.line.asserted_valid := (known.line).asserted_valid + line.asserted_valid;
                known.write := true;
            END IF;
            lines := lines || known;
        END LOOP;
        IF NOT given THEN
            line.claim_id := ((slot.rows[r]).claim).claim_id;
            lines := lines || ROW(line, true)::@schema@_internal.source_line;
        END IF;
        slot.rows[r].lines := lines;
        slot.rows[r].trust := GREATEST((slot.rows[r]).trust, episode_trust);
        IF ((slot.rows[r]).claim).expires_at IS NOT NULL THEN
            slot.rows[r].claim.expires_at := CASE WHEN episode_expiry IS NOT NULL
                THEN GREATEST(((slot.rows[r]).claim).expires_at, episode_expiry) END;
        END IF;
    END LOOP;
    RETURN slot;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.corroborate_rows(
    @schema@_internal.slot_picture, integer [], @schema@_internal.claim_sources, integer,
    timestamptz) IS
'Give each corroborated row of a slot picture the claim''s source line (one per episode, '
'holding every range the episode asserted), raise its trust to the episode''s when higher '
'and move its expiry to the episode''s when later (or drop it, for an unexpiring episode).';

DROP FUNCTION IF EXISTS @schema@_internal.apply_decision(
    @schema@_internal.slot_picture, @schema@_internal.claim_input, @schema@_internal.claim_decision, bigint, text, bigint,
    integer, timestamptz);
CREATE OR REPLACE FUNCTION @schema@_internal.apply_decision(
    slot @schema@_internal.slot_picture, c @schema@_internal.claim_input, d @schema@_internal.claim_decision, new_id bigint,
    tenant text, episode @schema@_internal.episodes, episode_trust integer, write_at timestamptz
) RETURNS @schema@_internal.slot_picture
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- A decision applied to the picture of its slot, so that a later claim of the episode sees
-- it: a source line on each corroborated row; the new rows (the first is new_id, drawn by
-- the caller before the copies' ids), the pieces of the row it retires and that row
-- marked retired.
#variable_conflict use_variable
DECLARE
    line @schema@_internal.claim_sources;
    one @schema@_internal.claims;
    target @schema@_internal.slot_row;
    piece tstzrange;
    successor bigint := new_id;
BEGIN
    IF d.outcome NOT IN ('corroborated', 'inserted', 'superseded', 'outranked') THEN
        RETURN slot;
    END IF;
    -- The claim's source line, whichever rows it ends up supporting.
    line.tenant := tenant;
    line.episode_id := episode.episode_id;
    line.locator := c.locator;
    line.quote := c.quote;
    line.asserted_valid := pg_catalog.tstzmultirange(CASE WHEN c.cardinality = 'event'
        THEN pg_catalog.tstzrange(c.valid_from, c.valid_from, '[]')
        ELSE pg_catalog.tstzrange(c.valid_from, c.valid_to) END);
    slot := @schema@_internal.corroborate_rows(slot, d.corroborates, line, episode_trust,
                                               episode.expires_at);
    IF d.outcome = 'corroborated' THEN
        RETURN slot;
    END IF;
    IF successor IS NULL AND pg_catalog.cardinality(d.corroborates) > 0 THEN
        successor := ((slot.rows[d.corroborates[1]]).claim).claim_id;
    END IF;
    one.tenant := tenant;
    one.subject_id := c.subject;
    one.predicate := c.predicate;
    one.cardinality := c.cardinality;
    one.object_value := c.object;
    one.object_entity_id := c.object_entity;
    one.text := c.text;
    one.confidence := c.confidence;
    one.assertion := c.assertion;
    one.expires_at := episode.expires_at;
    IF d.outcome = 'outranked' THEN
        -- Stored already retired, naming the row that outranks it.
        one.claim_id := new_id;
        one.valid := d.valid;
        line.claim_id := new_id;
        one.system_time := pg_catalog.tstzrange(write_at, write_at, '[]');
        one.retired_reason := 'outranked';
        one.superseded_by := ((slot.rows[d.target]).claim).claim_id;
        slot.rows := slot.rows || ROW(one, 'new_retired', episode_trust,
                                      ARRAY[ROW(line, true)::@schema@_internal.source_line])::@schema@_internal.slot_row;
        RETURN slot;
    END IF;
    -- A row for each piece of the extent no row of the assertion covers.
    one.system_time := pg_catalog.tstzrange(write_at, NULL);
    FOREACH piece IN ARRAY coalesce(d.pieces, '{}') LOOP
        one.claim_id := CASE WHEN piece = d.valid THEN new_id
            ELSE pg_catalog.nextval('@schema@_internal.claims_claim_id_seq'::regclass) END;
        one.valid := piece;
        line.claim_id := one.claim_id;
        slot.rows := slot.rows || ROW(one, 'new', episode_trust,
                                      ARRAY[ROW(line, true)::@schema@_internal.source_line])::@schema@_internal.slot_row;
    END LOOP;
    IF d.target IS NULL THEN
        RETURN slot;
    END IF;
    -- The pieces of the retired row that stay believed: same assertion and sources. A row
    -- read is retired; a row this write made was never visible, so it is not written (its
    -- copies carry its source lines).
    target := slot.rows[d.target];
    FOREACH piece IN ARRAY d.copies LOOP
        slot.rows := slot.rows || @schema@_internal.copy_row(target, piece, write_at);
    END LOOP;
    IF target.state = 'new' THEN
        slot.rows[d.target].state := 'dropped';
    ELSE
        slot.rows[d.target] := @schema@_internal.retire_row(target, d.retire_reason, successor);
    END IF;
    RETURN slot;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.apply_decision(
    @schema@_internal.slot_picture, @schema@_internal.claim_input, @schema@_internal.claim_decision, bigint, text,
    @schema@_internal.episodes, integer, timestamptz) IS
'Apply a claim''s decision to the in-memory picture of its slot: a source line on each '
'corroborated row, the new rows, the kept pieces of the row it retires, that row retired.';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_outcome(
    claim_position integer, d @schema@_internal.claim_decision,
    slot @schema@_internal.slot_picture, new_id bigint
) RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    outcome jsonb := pg_catalog.jsonb_build_object('index', claim_position, 'outcome', d.outcome);
BEGIN
    IF d.outcome = 'rejected' THEN
        outcome := outcome || pg_catalog.jsonb_build_object('reason', d.reason);
    ELSIF d.outcome = 'corroborated' THEN
        outcome := outcome || pg_catalog.jsonb_build_object(
            'claim_id', ((slot.rows[d.target]).claim).claim_id);
    ELSIF d.outcome = 'superseded' THEN
        outcome := outcome || pg_catalog.jsonb_build_object(
            'claim_id', coalesce(new_id, ((slot.rows[d.corroborates[1]]).claim).claim_id),
            'retired', ((slot.rows[d.target]).claim).claim_id);
    ELSIF new_id IS NOT NULL THEN
        outcome := outcome || pg_catalog.jsonb_build_object('claim_id', new_id);
    END IF;
    IF d.outcome <> 'corroborated' AND pg_catalog.cardinality(d.corroborates) > 0 THEN
        -- The rows of its assertion the claim also corroborated.
        outcome := outcome || pg_catalog.jsonb_build_object('corroborates', (
            SELECT pg_catalog.jsonb_agg(((slot.rows[u.r]).claim).claim_id ORDER BY u.n)
              FROM pg_catalog.unnest(d.corroborates) WITH ORDINALITY AS u (r, n)));
    END IF;
    RETURN outcome;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_outcome(
    integer, @schema@_internal.claim_decision, @schema@_internal.slot_picture, bigint) IS
'What ingest reports for one claim: {index, outcome, claim_id?, retired?, reason?, '
'corroborates?}, from its decision and its slot after the decision was applied.';

-- write_claims' rules, each named: the claims checked, a count, what an episode
-- keeps of an accepted claim, the episode stored, the rows the write changes.

CREATE OR REPLACE FUNCTION @schema@_internal.checked_claims(
    tenant text, claims jsonb, occurred_at timestamptz
) RETURNS @schema@_internal.claim_input []
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    inputs @schema@_internal.claim_input [] :=
        @schema@_internal.check_claims(tenant, claims, occurred_at);
    c @schema@_internal.claim_input;
BEGIN
    -- The first claim with a problem refuses the whole episode (nothing is written).
    FOREACH c IN ARRAY inputs LOOP
        IF c.problem IS NOT NULL THEN
            PERFORM @schema@_internal.raise_claim_problem(c, claims -> c.position);
        END IF;
    END LOOP;
    RETURN inputs;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.checked_claims(text, jsonb, timestamptz) IS
'An episode''s claims as check_claims reads them, raising the first claim''s problem '
'(raise_claim_problem) so that nothing of the episode is written.';

-- STABLE as jsonb_build_object is: an immutable function calling it is never inlined.
CREATE OR REPLACE FUNCTION @schema@_internal.counted(counters jsonb, outcome text)
RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT counters OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(outcome,
        coalesce((counters OPERATOR(pg_catalog.->>) outcome)::integer, 0) + 1)
$fn$;

COMMENT ON FUNCTION @schema@_internal.counted(jsonb, text) IS
'An ingest''s counters with one more of outcome. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.episode_claim_of(
    c @schema@_internal.claim_input, d @schema@_internal.claim_decision,
    slot @schema@_internal.slot_picture
) RETURNS @schema@_internal.episode_claim
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- As the caller wrote it, with its start resolved and the row it replaced named by
    -- assertion and valid range (a replay gives the rows new ids).
    SELECT ROW(c.position, c.subject, c.predicate, c.object, c.object_entity, c.text,
               c.confidence, c.valid_from, c.valid_to, c.locator, c.quote,
               CASE WHEN d.retire_reason OPERATOR(pg_catalog.=) 'replaced'
                    THEN ((slot.rows[d.target]).claim).assertion END,
               CASE WHEN d.retire_reason OPERATOR(pg_catalog.=) 'replaced'
                    THEN ((slot.rows[d.target]).claim).valid END
           )::@schema@_internal.episode_claim
$fn$;

COMMENT ON FUNCTION @schema@_internal.episode_claim_of(
    @schema@_internal.claim_input, @schema@_internal.claim_decision,
    @schema@_internal.slot_picture) IS
'What an episode keeps of a claim it accepted, as the purge replay needs it: the claim as '
'written and the row it replaced, by assertion and valid range. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.store_episode(
    tenant text, episode @schema@_internal.episodes,
    written @schema@_internal.episode_claim [], write_at timestamptz
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
BEGIN
    INSERT INTO @schema@_internal.episodes AS e (
        tenant, episode_id, source_kind, source_ref, content_hash, occurred_at, trust,
        extractor, written, written_at, event_seq, expires_at)
    OVERRIDING SYSTEM VALUE
    VALUES (tenant, episode.episode_id, episode.source_kind, episode.source_ref,
            episode.content_hash, episode.occurred_at, episode.trust, episode.extractor,
            written, write_at,
            pg_catalog.nextval('@schema@_internal.knowledge_event_seq'::regclass),
            episode.expires_at);
    PERFORM @schema@_internal.note_knowledge_write(tenant, write_at, '{}', '{}',
                                                   episode.episode_id);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.store_episode(
    text, @schema@_internal.episodes, @schema@_internal.episode_claim [], timestamptz) IS
'Insert a new episode (its id drawn already) with the claims it accepted, its instant and '
'its place in the order of writes, noted for the commit stamp.';

CREATE OR REPLACE FUNCTION @schema@_internal.slot_changes(
    slots @schema@_internal.slot_picture []
) RETURNS @schema@_internal.slot_row []
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Rows dropped (created and retired by this write) are never written; a live row is
    -- written only for the source lines it gains.
    SELECT pg_catalog.array_agg(ROW(r.claim, r.state, r.trust, ARRAY(
               SELECT l FROM pg_catalog.unnest(r.lines) AS l WHERE l.write
           ))::@schema@_internal.slot_row)
      FROM pg_catalog.unnest(slots) AS s
     CROSS JOIN LATERAL pg_catalog.unnest(s.rows) AS r
     WHERE r.state OPERATOR(pg_catalog.<>) 'dropped'
       AND (r.state OPERATOR(pg_catalog.<>) 'live'
            OR EXISTS (SELECT 1 FROM pg_catalog.unnest(r.lines) AS l WHERE l.write))
$fn$;

COMMENT ON FUNCTION @schema@_internal.slot_changes(@schema@_internal.slot_picture []) IS
'The rows a write changes, from the pictures of its slots, each with only the source lines '
'it adds (write_claim_changes writes them).';

CREATE OR REPLACE FUNCTION @schema@_internal.write_claims(
    tenant text, episode @schema@_internal.episodes, claims jsonb, floor real,
    write_at timestamptz, replay boolean
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- Read once, decide in memory, write once: the claims are checked in one statement, the
-- touched slots read in two (read_slots), each claim decided in claim order against the
-- picture of its slot (so a later claim of the episode sees what an earlier one did) and
-- the picture written with one statement per kind of change (write_claim_changes). A row
-- this call creates and a later claim retires was never visible, so it is never written.
-- The caller holds the slots' advisory locks. write_at NULL means now, moved just past the
-- newest row of the slots (next_instant).
-- A new episode (its id drawn, not yet stored) is inserted here with the claims it
-- accepted, their instant and its place in the order of writes. A replay (rebuild_slot)
-- passes a stored episode and its accepted claims: retractions are not checked (each is
-- replayed at its own place in the order) and the episode is not inserted again.
-- Returns {write_at, counters, outcomes: [{index, outcome, claim_id?, retired?, reason?}]}.
#variable_conflict use_variable
DECLARE
    episode_trust integer := @schema@_internal.trust_rank(episode.trust);
    inputs @schema@_internal.claim_input [];
    c @schema@_internal.claim_input;
    slots @schema@_internal.slot_picture [];
    slot @schema@_internal.slot_picture;
    d @schema@_internal.claim_decision;
    picture record;
    new_id bigint;
    outcomes jsonb := '[]';
    counters jsonb := '{}';
    -- The claims accepted (stored, corroborating or outranked), as the purge replay needs
    -- them: the episode keeps this list.
    written @schema@_internal.episode_claim [] := '{}';
    -- The claims a claim gate took out of this write (pass_claim_gates), by claim index.
    taken jsonb := '{}';
BEGIN
    IF pg_catalog.jsonb_array_length(claims) = 0 THEN
        -- No claims (a memory an extractor found nothing in): no slot to check or read,
        -- which took 0.17 ms of the 0.29 ms such an ingest cost. The episode is still
        -- stored, and retire_changed_source still retires what only older versions said.
        inputs := '{}';
        slots := '{}';
        write_at := coalesce(write_at, @schema@_internal.next_instant(NULL));
    ELSE
        inputs := @schema@_internal.checked_claims(tenant, claims, episode.occurred_at);
        IF NOT replay THEN
            taken := @schema@_internal.pass_claim_gates(tenant, episode, inputs, floor);
        END IF;
        picture := @schema@_internal.read_slots(tenant, inputs);
        slots := picture.slots;
        write_at := coalesce(write_at, @schema@_internal.next_instant(picture.newest));
    END IF;

    FOREACH c IN ARRAY inputs LOOP
        IF taken ? c.position::text THEN
            outcomes := outcomes || (pg_catalog.jsonb_build_object('index', c.position)
                                     || (taken -> c.position::text));
            counters := @schema@_internal.counted(counters,
                                                  taken -> c.position::text ->> 'outcome');
            CONTINUE;
        END IF;
        slot := slots[c.slot];
        d := @schema@_internal.decide_claim(slot, c, episode_trust, floor, replay);
        new_id := NULL;
        IF d.outcome IN ('inserted', 'superseded', 'outranked') AND d.valid IS NOT NULL THEN
            new_id := pg_catalog.nextval('@schema@_internal.claims_claim_id_seq'::regclass);
        END IF;
        slot := @schema@_internal.apply_decision(slot, c, d, new_id, tenant, episode,
                                   episode_trust, write_at);
        slots[c.slot] := slot;
        outcomes := outcomes || @schema@_internal.claim_outcome(c.position, d, slot, new_id);
        counters := @schema@_internal.counted(counters, d.outcome);
        IF d.outcome NOT IN ('below_floor', 'rejected') THEN
            written := written || @schema@_internal.episode_claim_of(c, d, slot);
        END IF;
    END LOOP;

    IF NOT replay THEN
        PERFORM @schema@_internal.store_episode(tenant, episode, written, write_at);
    END IF;
    PERFORM @schema@_internal.write_claim_changes(tenant, write_at,
                                                  @schema@_internal.slot_changes(slots));
    RETURN pg_catalog.jsonb_build_object('write_at', write_at, 'counters', counters,
                                         'outcomes', outcomes);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.write_claims(
    text, @schema@_internal.episodes, jsonb, real, timestamptz, boolean) IS
'Write the claims of one episode through the slot rules (one / many / event, corroboration, '
'trust, retraction unless a replay, confidence floor, the registered claim gates unless a '
'replay) at write_at (NULL: now), and insert a '
'new episode with the claims it accepted; the caller holds the slots'' advisory locks. '
'Returns {write_at, counters, outcomes}.';
