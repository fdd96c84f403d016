-- context_pack(): what to hand a model for a question, within a token budget, each item
-- with why it is there, and the trace that explains the era chosen.

CREATE OR REPLACE FUNCTION @schema@_internal.intent_guidance(intent text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE intent
        WHEN 'current' THEN 'The question asks what is true now: these are current memories; '
                            'superseded ones were left out.'
        WHEN 'historical' THEN 'The question asks about the past: superseded memories are '
                               'included; current = false marks what is no longer believed or true.'
        WHEN 'both' THEN 'The question asks how something changed: current and superseded '
                         'memories are both included; compare them.'
        ELSE 'The question does not say which time it means: answered as of now. If the user '
             'asks about the past, do not ignore history: search again with intent historical.'
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.intent_guidance(text) IS
'The guidance line a context pack gives the model for an intent.';

-- include_candidates came with human review (a defaulted last parameter: every earlier
-- call still binds to it; the old signature goes).
DROP FUNCTION IF EXISTS @schema@.context_pack(text, integer, public.vector, text, text, integer, real);
CREATE OR REPLACE FUNCTION @schema@.context_pack(
    query text, token_budget integer DEFAULT 2000, query_vector public.vector DEFAULT NULL,
    model text DEFAULT NULL, scope text DEFAULT 'accessible', "limit" integer DEFAULT 20,
    chars_per_token real DEFAULT 4, include_candidates boolean DEFAULT false
) RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    detected jsonb := @schema@.detect_intent(query);
    intent text := detected ->> 'intent';
    items jsonb;
    suppressed jsonb;
BEGIN
    token_budget := @schema@_internal.check_limit(token_budget, 'token_budget', 1, 1000000);
    IF chars_per_token IS NULL OR chars_per_token <= 0 OR chars_per_token > 100 THEN
        RAISE EXCEPTION 'chars_per_token must be > 0 and <= 100' USING ERRCODE = '22023';
    END IF;
    -- Items in rank order while they fit: tokens = ceil(characters / chars_per_token).
    -- search's rows are read by column name; their ordinality is the rank.
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'position', p.ordinality, 'item_kind', p.item_kind, 'ref', p.ref, 'key', p.key,
               'content', p.content, 'tokens', p.tokens, 'current', p.current,
               'stale', p.stale, 'valid_from', p.valid_from, 'valid_to', p.valid_to,
               'retired_at', p.retired_at,
               'why', pg_catalog.jsonb_build_object('score', p.score, 'text_rank', p.text_rank,
                   'vector_rank', p.vector_rank, 'similarity', p.similarity,
                   'intent', intent, 'signals', detected -> 'signals'))
               ORDER BY p.ordinality) FILTER (WHERE p.used <= token_budget), '[]')
      INTO items
      FROM (SELECT s.*, pg_catalog.ceil(pg_catalog.length(s.content) / chars_per_token)::integer AS tokens,
                   pg_catalog.sum(pg_catalog.ceil(pg_catalog.length(s.content) / chars_per_token))
                       OVER (ORDER BY s.ordinality) AS used
              FROM @schema@.search(query => query, query_vector => query_vector, model => model,
                       "limit" => "limit", scope => scope, intent => intent,
                       item_kinds => CASE WHEN include_candidates THEN '{fact,claim,candidate}'
                                          ELSE '{fact,claim}' END::text [])
                   WITH ORDINALITY AS s) AS p;
    -- What the intent left out: superseded rows a history search finds that the pack lacks.
    IF intent IN ('current', 'unknown') THEN
        SELECT coalesce(pg_catalog.jsonb_agg(h.ref ORDER BY h.score DESC), '[]') INTO suppressed
          FROM @schema@.search(query => query, query_vector => query_vector, model => model,
                   "limit" => "limit", scope => scope, intent => 'historical') AS h
         WHERE NOT h.current AND NOT items @> pg_catalog.jsonb_build_array(
                   pg_catalog.jsonb_build_object('ref', h.ref));
    END IF;
    RETURN pg_catalog.jsonb_build_object(
        'intent', intent, 'guidance', @schema@_internal.intent_guidance(intent),
        'token_budget', token_budget,
        'tokens_used', coalesce((SELECT pg_catalog.sum((i ->> 'tokens')::integer)
                                   FROM pg_catalog.jsonb_array_elements(items) AS i), 0),
        'items', items,
        'trace', pg_catalog.jsonb_build_object(
            'intent', detected, 'suppressed', coalesce(suppressed, '[]'),
            'stale_kept', (SELECT pg_catalog.count(*) FROM pg_catalog.jsonb_array_elements(items) AS i
                            WHERE (i ->> 'stale')::boolean),
            'token_estimate', pg_catalog.format('ceil(characters / %s)', chars_per_token)));
END
$fn$;

COMMENT ON FUNCTION @schema@.context_pack(
    text, integer, public.vector, text, text, integer, real, boolean) IS
'The memories to hand a model for query, best first, within token_budget (1..1000000; '
'tokens estimated as ceil(characters / chars_per_token), default 4; pass your tokenizer''s '
'ratio): {intent, guidance, token_budget, tokens_used, items: [{position, item_kind, ref, '
'key, content, tokens, current, stale, valid_from, valid_to, retired_at, why: {score, '
'text_rank, vector_rank, similarity, intent, signals}}], trace: {intent (detect_intent), '
'suppressed (refs of superseded rows left out), stale_kept, token_estimate}}. Uses search() '
'with the detected intent. include_candidates (the reviewer, tuner and operator) adds the '
'claims waiting for review, after every believed item, as item_kind candidate.';
