-- Temporal intent: does a question want what is true now, what was true, or
-- how it changed? Scored from separate historical, present and change markers; an explicit
-- year weighs heavily. The signals that fired are returned for the retrieval trace.

-- The words column is new (a changed result type): replace the function whole.
DROP FUNCTION IF EXISTS @schema@_internal.intent_markers();
-- Inlined (no SET clause; literals only, each row a constant): detect_intent's plan holds the
-- markers, and tests a pattern only for a question holding one of its words.
CREATE FUNCTION @schema@_internal.intent_markers()
RETURNS TABLE (pattern text, side text, signal text, weight real, words text [])
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- Patterns are matched against the lower-cased question (\m, \M: word bounds). A
    -- pattern can match only a question holding one of its words: detect_intent tries the
    -- pattern only then. (There are more patterns than the 32 compiled regular expressions
    -- a backend caches, and trying each in turn recompiled every one of them on every call.)
    SELECT m.pattern, m.side, m.signal, m.weight::pg_catalog.float4, m.words FROM (VALUES
        -- "did she use to" is the question form of "used to"; "what do we use to deploy" is not.
        ('\mused to\M|\mdid\M.*\muse to\M', 'historical', 'hist:used to', 2.5,
         ARRAY['used', 'did']),
        ('\m(previously|formerly)\M', 'historical', 'hist:previously', 2.5,
         ARRAY['previously', 'formerly']),
        ('\mformer\M', 'historical', 'hist:former', 2,
         ARRAY['former']),
        ('\mback (then|when|in)\M', 'historical', 'hist:back then', 2.5,
         ARRAY['back']),
        ('\min the past\M', 'historical', 'hist:in the past', 2.5,
         ARRAY['past']),
        ('\moriginally\M', 'historical', 'hist:originally', 2.5,
         ARRAY['originally']),
        ('\mat (that|the) time\M', 'historical', 'hist:at the time', 2,
         ARRAY['time']),
        ('\m(before|earlier|prior)\M', 'historical', 'hist:before', 1.5,
         ARRAY['before', 'earlier', 'prior']),
        ('\mago\M', 'historical', 'hist:ago', 2.5,
         ARRAY['ago']),
        ('\mold\M', 'historical', 'hist:old', 1.5,
         ARRAY['old']),
        ('\mfirst\M', 'historical', 'hist:first', 1,
         ARRAY['first']),
        ('\mlast (year|month|week|time)\M', 'historical', 'hist:last year', 2,
         ARRAY['last']),
        ('\m(was|were|did|had|lived|worked|moved)\M', 'historical', 'hist:past tense', 1,
         ARRAY['was', 'were', 'did', 'had', 'lived', 'worked', 'moved']),
        ('\m(now|nowadays)\M', 'current', 'cur:now', 2.5,
         ARRAY['now', 'nowadays']),
        ('\mcurrent(ly)?\M', 'current', 'cur:currently', 2.5,
         ARRAY['current', 'currently']),
        ('\mtoday\M', 'current', 'cur:today', 2,
         ARRAY['today']),
        ('\mthese days\M', 'current', 'cur:these days', 2.5,
         ARRAY['days']),
        ('\mat (the moment|present)\M', 'current', 'cur:at the moment', 2.5,
         ARRAY['moment', 'present']),
        ('\mpresently\M', 'current', 'cur:presently', 2.5,
         ARRAY['presently']),
        ('\mpresent\M', 'current', 'cur:present', 2,
         ARRAY['present']),
        ('\mstill\M', 'current', 'cur:still', 2.5,
         ARRAY['still']),
        ('\m(latest|up to date|up-to-date)\M', 'current', 'cur:latest', 2,
         ARRAY['latest', 'date']),
        ('\mthis (year|month|week)\M', 'current', 'cur:this year', 2,
         ARRAY['this']),
        ('\m(is|are|does|do|has|have)\M', 'current', 'cur:present tense', 0.5,
         ARRAY['is', 'are', 'does', 'do', 'has', 'have']),
        ('\mchang(e|ed|es|ing)\M', 'both', 'both:change', 2.5,
         ARRAY['change', 'changed', 'changes', 'changing']),
        ('\mcompar(e|ed|es|ing|ison)\M', 'both', 'both:compare', 3,
         ARRAY['compare', 'compared', 'compares', 'comparing', 'comparison']),
        ('\msince\M', 'both', 'both:since', 2,
         ARRAY['since']),
        ('\mover (time|the years)\M', 'both', 'both:over time', 3,
         ARRAY['over']),
        ('\mhistory\M', 'both', 'both:history', 3,
         ARRAY['history']),
        ('\m(evolve|evolved|evolution)\M', 'both', 'both:evolution', 3,
         ARRAY['evolve', 'evolved', 'evolution']),
        ('\m(difference|differ|different)\M', 'both', 'both:difference', 2,
         ARRAY['difference', 'differ', 'different']),
        ('\m(then and now|before and after|from .+ to .+)\M', 'both', 'both:then and now', 3,
         ARRAY['then', 'before', 'from']),
        ('\mno longer\M', 'both', 'both:no longer', 3,
         ARRAY['longer']),
        ('\many ?more\M', 'both', 'both:anymore', 3,
         ARRAY['anymore', 'any']),
        ('\m(switch|switched|moved from)\M', 'both', 'both:switch', 2,
         ARRAY['switch', 'switched', 'moved']),
        ('\m(replace|replaced|replacing|replacement|superseded)\M', 'both', 'both:replaced', 2.5,
         ARRAY['replace', 'replaced', 'replacing', 'replacement', 'superseded']),
        ('\mtimeline\M', 'both', 'both:timeline', 3,
         ARRAY['timeline'])
    ) AS m (pattern, side, signal, weight, words)
$fn$;

COMMENT ON FUNCTION @schema@_internal.intent_markers() IS
'The markers detect_intent scores: a pattern, its side (historical, current, both), the '
'signal name it reports, its weight, and the words one of which a question must hold for '
'the pattern to match. (inlined)';

CREATE OR REPLACE FUNCTION @schema@.detect_intent(query text)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    q text := pg_catalog.lower(pg_catalog.replace(@schema@_internal.check_query(query), '’', ''''));
    -- The question's words, as \m and \M bound them (letters, digits, underscore).
    q_words text [] := pg_catalog.regexp_split_to_array(q, '[^[:alnum:]_]+');
    this_year integer := pg_catalog.date_part('year', pg_catalog.now())::integer;
    scores jsonb := '{"historical": 0, "current": 0, "both": 0}';
    signals text [] := '{}';
    marker record;
    year integer;
    best text;
    top real;
    total real;
BEGIN
    FOR marker IN SELECT * FROM @schema@_internal.intent_markers() AS m
                   WHERE m.words && q_words AND q ~ m.pattern LOOP
        scores := pg_catalog.jsonb_set(scores, ARRAY[marker.side],
            pg_catalog.to_jsonb((scores ->> marker.side)::real + marker.weight));
        signals := signals || marker.signal;
    END LOOP;
    -- An explicit year weighs heavily: a past one asks about the past, this one about now.
    FOR year IN SELECT m[1]::integer FROM pg_catalog.regexp_matches(q, '\m((19|20)[0-9]{2})\M', 'g') AS m LOOP
        IF year < this_year THEN
            scores := pg_catalog.jsonb_set(scores, '{historical}',
                pg_catalog.to_jsonb((scores ->> 'historical')::real + 3));
            signals := signals || ('year:' || year);
        ELSIF year = this_year THEN
            scores := pg_catalog.jsonb_set(scores, '{current}',
                pg_catalog.to_jsonb((scores ->> 'current')::real + 2));
            signals := signals || ('year:' || year);
        END IF;
    END LOOP;
    total := (scores ->> 'historical')::real + (scores ->> 'current')::real + (scores ->> 'both')::real;
    SELECT s.key, s.value::text::real INTO best, top FROM pg_catalog.jsonb_each(scores) AS s
     ORDER BY s.value::text::real DESC, s.key = 'both' DESC, s.key = 'historical' DESC LIMIT 1;
    -- A question that asks for the past and the present at once wants both.
    IF best <> 'both' AND (scores ->> 'historical')::real >= 2 AND (scores ->> 'current')::real >= 2 THEN
        best := 'both';
        top := least((scores ->> 'historical')::real, (scores ->> 'current')::real);
        signals := signals || 'both:past and present'::text;
    ELSIF best <> 'both' AND (scores ->> 'both')::real >= 2 THEN
        best := 'both';
        top := (scores ->> 'both')::real;
    END IF;
    IF top < 1 THEN
        RETURN pg_catalog.jsonb_build_object('intent', 'unknown', 'confidence', 0.3,
            'signals', pg_catalog.to_jsonb(signals), 'scores', scores);
    END IF;
    RETURN pg_catalog.jsonb_build_object('intent', best,
        'confidence', pg_catalog.round((top / (total + 0.5))::numeric * least(1, top / 2)::numeric, 2),
        'signals', pg_catalog.to_jsonb(signals), 'scores', scores);
END
$fn$;

COMMENT ON FUNCTION @schema@.detect_intent(text) IS
'The temporal intent of a question: {intent: current | historical | both | unknown, '
'confidence 0..1, signals: the markers that fired (year:2015, hist:used to, cur:currently, '
'both:compare, ...), scores per side}. A past year weighs 3; change markers or past and '
'present markers together mean both; no marker worth 1 means unknown.';
