-- The extraction validator (seed 001), in the database so every language gets the same
-- gate: a model's output checked against the episode it came from, turned into claims in
-- ingest's format, with a reason code for each dropped fact and never any source text.

CREATE OR REPLACE FUNCTION @schema@_internal.model_timestamp(value jsonb)
RETURNS timestamptz
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- An ISO 8601 date or timestamp only: PostgreSQL would also read 'now', 'epoch' or
    -- 'yesterday', which no model output should mean. NULL for anything else.
    IF pg_catalog.jsonb_typeof(value) <> 'string'
       OR (value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$' THEN
        RETURN NULL;
    END IF;
    IF (value #>> '{}') ~ '(Z|[+-]\d{2}(:?\d{2})?)$' AND (value #>> '{}') ~ 'T|\s' THEN
        RETURN (value #>> '{}')::timestamptz;
    END IF;
    RETURN (value #>> '{}')::timestamp AT TIME ZONE 'UTC';
EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
    RETURN NULL;  -- 2026-02-30 and the like
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.model_timestamp(jsonb) IS
'A date or timestamp a model wrote, when it is an ISO 8601 string of a real instant (no '
'zone: UTC); else NULL.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_extraction_context(context jsonb)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    part text;
BEGIN
    IF pg_catalog.jsonb_typeof(context) IS DISTINCT FROM 'object'
       OR @schema@_internal.model_timestamp(context -> 'occurred_at') IS NULL THEN
        RAISE EXCEPTION 'context must be an object with occurred_at (an ISO 8601 timestamp) and lines'
            USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.check_memory_lines(context -> 'lines');
    FOREACH part IN ARRAY ARRAY['predicates', 'entities', 'facts'] LOOP
        IF coalesce(pg_catalog.jsonb_typeof(context -> part), 'array') <> 'array'
           OR pg_catalog.jsonb_array_length(coalesce(context -> part, '[]')) > 1000 THEN
            RAISE EXCEPTION 'context % must be an array of at most 1000 items', part
                USING ERRCODE = '22023';
        END IF;
    END LOOP;
    -- The ids the claims will carry: whole numbers, so no cast below can fail.
    IF pg_catalog.jsonb_path_exists(coalesce(context -> 'entities', '[]'),
           'lax $[*] ? (!exists(@.ref ? (@.type() == "string")) || !exists(@.entity_id ? '
           '(@.type() == "number" && @ == @.floor() && @ >= 1 && @ <= 9e18)))')
       OR pg_catalog.jsonb_path_exists(coalesce(context -> 'facts', '[]'),
           'lax $[*] ? (!exists(@.ref ? (@.type() == "string")) || !exists(@.claim_id ? '
           '(@.type() == "number" && @ == @.floor() && @ >= 1 && @ <= 9e18)))') THEN
        RAISE EXCEPTION 'context entities need {ref, entity_id} and facts {ref, claim_id}: a string '
            'ref and a positive whole id'
            USING ERRCODE = '22023';
    END IF;
    IF coalesce(context #>> '{options,unknown_predicates}', 'statement') NOT IN ('statement', 'reject') THEN
        RAISE EXCEPTION 'options.unknown_predicates must be statement or reject' USING ERRCODE = '22023';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_extraction_context(jsonb) IS
'Raise 22023 unless an extraction context is {occurred_at, lines, predicates?, entities?, '
'facts?, options?} of the documented shapes.';

-- One proposed fact against the context: the claim it becomes, or the reason it is dropped,
-- with the notes of what was changed. The rules in seed 001's order of precedence.
CREATE OR REPLACE FUNCTION @schema@_internal.extracted_claim(
    fact jsonb, context jsonb, OUT claim jsonb, OUT reason text, OUT notes text []
)
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    occurred timestamptz := @schema@_internal.model_timestamp(context -> 'occurred_at');
    subject jsonb;
    predicate jsonb;
    object_entity jsonb;
    cited text [];
    valid_from timestamptz;
    valid_to timestamptz;
BEGIN
    notes := '{}';
    IF pg_catalog.jsonb_typeof(fact) IS DISTINCT FROM 'object' THEN
        reason := 'not_an_object';
        RETURN;
    END IF;
    -- The entity resolver of today: a context ref (e1), else an exact name.
    SELECT e INTO subject FROM pg_catalog.jsonb_array_elements(context -> 'entities') AS e
     WHERE e ->> 'ref' = fact ->> 'subject'
        OR pg_catalog.lower(e ->> 'name') = pg_catalog.lower(fact ->> 'subject')
     ORDER BY e ->> 'ref' = fact ->> 'subject' DESC LIMIT 1;
    IF subject IS NULL THEN
        reason := 'unknown_subject';
        RETURN;
    END IF;
    IF pg_catalog.jsonb_typeof(fact -> 'evidence') IS DISTINCT FROM 'array'
       OR pg_catalog.jsonb_array_length(fact -> 'evidence') = 0 THEN
        reason := 'no_citation';
        RETURN;
    END IF;
    cited := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(fact -> 'evidence'));
    IF EXISTS (SELECT 1 FROM pg_catalog.unnest(cited) AS c (id)
                WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(context -> 'lines') AS l
                                   WHERE l ->> 'id' = c.id)) THEN
        reason := 'citation_outside_episode';
        RETURN;
    END IF;
    SELECT p INTO predicate FROM pg_catalog.jsonb_array_elements(context -> 'predicates') AS p
     WHERE p ->> 'name' = fact ->> 'predicate' LIMIT 1;
    IF predicate IS NULL AND coalesce(context #>> '{options,unknown_predicates}', 'statement') = 'reject' THEN
        reason := 'unknown_predicate';
        RETURN;
    END IF;
    IF fact ? 'object_entity' THEN
        SELECT e INTO object_entity FROM pg_catalog.jsonb_array_elements(context -> 'entities') AS e
         WHERE e ->> 'ref' = fact ->> 'object_entity'
            OR pg_catalog.lower(e ->> 'name') = pg_catalog.lower(fact ->> 'object_entity')
         ORDER BY e ->> 'ref' = fact ->> 'object_entity' DESC LIMIT 1;
    END IF;
    IF object_entity IS NULL AND (coalesce(pg_catalog.jsonb_typeof(fact -> 'object'), 'null') = 'null'
                                  OR pg_catalog.btrim(fact ->> 'object') = '') THEN
        reason := 'no_object';
        RETURN;
    END IF;
    valid_from := @schema@_internal.model_timestamp(coalesce(fact -> 'valid_from', fact -> 'valid_at'));
    valid_to := @schema@_internal.model_timestamp(fact -> 'valid_to');
    IF (coalesce(fact -> 'valid_from', fact -> 'valid_at', 'null') <> 'null' AND valid_from IS NULL)
       OR (coalesce(fact -> 'valid_to', 'null') <> 'null' AND valid_to IS NULL) THEN
        reason := 'bad_date';
        RETURN;
    END IF;
    IF valid_from < '1900-01-01Z' OR valid_to < '1900-01-01Z'
       OR valid_from > occurred + interval '730 days' OR valid_to > occurred + interval '730 days' THEN
        reason := 'date_out_of_range';
        RETURN;
    END IF;
    IF valid_to <= coalesce(valid_from, occurred) THEN
        reason := 'ends_before_start';
        RETURN;
    END IF;

    SELECT k.claim, k.notes INTO claim, notes
      FROM @schema@_internal.kept_claim(fact, context, subject, predicate, object_entity, cited,
                                        coalesce(valid_from, occurred), valid_from IS NULL,
                                        valid_to) AS k;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.extracted_claim(jsonb, jsonb) IS
'One fact of a model''s output checked against its extraction context: the claim in '
'ingest''s format it becomes, or the reason code it is dropped with (not_an_object, '
'unknown_subject, no_citation, citation_outside_episode, unknown_predicate, no_object, '
'bad_date, date_out_of_range, ends_before_start), and notes of what changed '
'(open_statement, start_defaulted, quote_dropped, replaces_dropped).';

-- A fact that passed every drop rule, as the claim ingest reads: ids resolved, the
-- evidence as its locator, an open statement for a predicate not offered, the episode's
-- time for a missing start (marked), then its quote and replaces where they hold.
CREATE OR REPLACE FUNCTION @schema@_internal.kept_claim(
    fact jsonb, context jsonb, subject jsonb, predicate jsonb, object_entity jsonb,
    cited text [], valid_from timestamptz, start_defaulted boolean, valid_to timestamptz,
    OUT claim jsonb, OUT notes text []
)
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    extras record;
BEGIN
    notes := '{}';
    claim := pg_catalog.jsonb_build_object(
        'subject', (subject ->> 'entity_id')::bigint,
        'predicate', coalesce(predicate ->> 'name', 'statement'),
        'confidence', coalesce(fact -> 'confidence', '1'),
        'locator', pg_catalog.jsonb_build_object('evidence', pg_catalog.to_jsonb(cited)),
        CASE WHEN predicate ->> 'cardinality' = 'event' THEN 'valid_at' ELSE 'valid_from' END,
        valid_from);
    IF predicate IS NULL THEN
        -- An open statement: the sentence is the object, the model's predicate kept in it.
        notes := notes || 'open_statement'::text;
        claim := claim || pg_catalog.jsonb_build_object('object', pg_catalog.concat_ws(' ',
            fact ->> 'predicate', coalesce(object_entity ->> 'name', fact ->> 'object')));
    ELSIF object_entity IS NOT NULL THEN
        claim := claim || pg_catalog.jsonb_build_object('object_entity', (object_entity ->> 'entity_id')::bigint);
    ELSE
        claim := claim || pg_catalog.jsonb_build_object('object', fact -> 'object');
    END IF;
    IF pg_catalog.jsonb_typeof(fact -> 'text') = 'string' THEN
        claim := claim || pg_catalog.jsonb_build_object('text', fact -> 'text');
    END IF;
    IF start_defaulted THEN
        notes := notes || 'start_defaulted'::text;
    END IF;
    IF valid_to IS NOT NULL THEN
        claim := claim || pg_catalog.jsonb_build_object('valid_to', valid_to);
    END IF;
    extras := @schema@_internal.extracted_extras(fact, context, cited, subject, predicate);
    claim := claim || extras.extras;
    notes := notes || extras.notes;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.kept_claim(
    jsonb, jsonb, jsonb, jsonb, jsonb, text [], timestamptz, boolean, timestamptz) IS
'A fact that passed validate_extraction''s drop rules as an ingest claim, with the notes of '
'what changed (open_statement, start_defaulted, quote_dropped, replaces_dropped).';

-- The parts of a kept claim that may be dropped on their own: its quote (kept only when
-- the cited lines hold it) and its replaces (kept only for a live fact of the same subject
-- on a many predicate). The first version returned its notes inside the jsonb: the old
-- signature goes.
DROP FUNCTION IF EXISTS @schema@_internal.extracted_extras(jsonb, jsonb, text [], jsonb, jsonb, text []);
CREATE OR REPLACE FUNCTION @schema@_internal.extracted_extras(
    fact jsonb, context jsonb, cited text [], subject jsonb, predicate jsonb,
    OUT extras jsonb, OUT notes text []
)
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    replaced jsonb;
BEGIN
    extras := '{}';
    notes := '{}';
    IF pg_catalog.jsonb_typeof(fact -> 'quote') = 'string' THEN
        IF EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(context -> 'lines') AS l
                    WHERE l ->> 'id' = ANY (cited)
                      AND pg_catalog.strpos(l ->> 'text', fact ->> 'quote') > 0) THEN
            extras := extras || pg_catalog.jsonb_build_object('quote', fact -> 'quote');
        ELSE
            notes := notes || 'quote_dropped'::text;
        END IF;
    END IF;
    IF fact ? 'replaces' AND fact -> 'replaces' <> 'null' THEN
        SELECT f INTO replaced FROM pg_catalog.jsonb_array_elements(context -> 'facts') AS f
         WHERE f ->> 'ref' = fact ->> 'replaces'
           AND f ->> 'subject' = subject ->> 'ref'
           AND f ->> 'predicate' = predicate ->> 'name'
         LIMIT 1;
        IF replaced IS NOT NULL AND predicate ->> 'cardinality' = 'many' THEN
            extras := extras || pg_catalog.jsonb_build_object('replaces', (replaced ->> 'claim_id')::bigint);
        ELSE
            notes := notes || 'replaces_dropped'::text;
        END IF;
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.extracted_extras(jsonb, jsonb, text [], jsonb, jsonb) IS
'A kept claim''s quote and replaces when they hold (quote in the cited lines; replaces a live '
'fact of the same subject on a many predicate), with notes for the ones dropped.';

CREATE OR REPLACE FUNCTION @schema@.validate_extraction(context jsonb, output jsonb)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    facts jsonb := CASE WHEN pg_catalog.jsonb_typeof(output) = 'object' THEN output -> 'facts' END;
    checked record;
    claims jsonb := '[]';
    rejections jsonb := '[]';
    notes jsonb := '[]';
    seen text [] := '{}';
    identity text;
BEGIN
    PERFORM @schema@_internal.check_extraction_context(context);
    IF pg_catalog.jsonb_typeof(facts) IS DISTINCT FROM 'array' OR pg_catalog.jsonb_array_length(facts) > 1000 THEN
        RAISE EXCEPTION 'output must be an object {"facts": [...]} of at most 1000 facts'
            USING ERRCODE = '22023', HINT = 'parse the model''s reply first';
    END IF;
    FOR checked IN
        SELECT e.ord - 1 AS index, c.*
          FROM pg_catalog.jsonb_array_elements(facts) WITH ORDINALITY AS e (fact, ord),
               LATERAL @schema@_internal.extracted_claim(e.fact, context) AS c
         ORDER BY e.ord
    LOOP
        IF checked.reason IS NULL THEN
            -- A repeat: the same subject, predicate, object and valid range as a kept one.
            identity := (checked.claim - '{confidence,locator,text,quote,replaces}'::text [])::text;
            -- (jsonb's text form is canonical: the same claim gives the same text.)
            IF identity = ANY (seen) THEN
                checked.reason := 'duplicate';
            END IF;
        END IF;
        IF checked.reason IS NOT NULL THEN
            rejections := rejections || pg_catalog.jsonb_build_object('index', checked.index,
                                                                       'reason', checked.reason);
            CONTINUE;
        END IF;
        seen := seen || identity;
        claims := claims || checked.claim;
        IF checked.notes <> '{}' THEN
            notes := notes || pg_catalog.jsonb_build_object(
                'index', checked.index, 'claim', pg_catalog.jsonb_array_length(claims) - 1,
                'notes', pg_catalog.to_jsonb(checked.notes));
        END IF;
    END LOOP;
    RETURN pg_catalog.jsonb_build_object('claims', claims, 'rejections', rejections, 'notes', notes);
END
$fn$;

COMMENT ON FUNCTION @schema@.validate_extraction(jsonb, jsonb) IS
'Seed 001''s validator: a model''s output {facts: [{subject: "e1", predicate, object or '
'object_entity, text, quote, evidence: [line ids], valid_from or valid_at, valid_to, '
'confidence, replaces: "f1"}]} checked against its context {occurred_at, lines [{id, '
'text}], predicates [{name, cardinality}], entities [{ref, entity_id, name}], facts [{ref, '
'claim_id, subject, predicate}], options {unknown_predicates: statement or reject}}. Returns '
'{claims (ingest''s format), rejections [{index, reason}], notes [{index, claim, notes}]}: '
'codes only, never source text.';
