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

CREATE OR REPLACE FUNCTION @schema@_internal.fact_neighbours(
    for_tenant text, fact_id bigint, n integer, kind text, with_shared boolean,
    every_session boolean, sessions text []
) RETURNS TABLE (side integer, ref text, key text, content text)
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- A fact's siblings in key order: the facts of its scope under the same parent path
    -- (what a log stored as one fact per entry, chats/<pair>/session-01/turn-007, holds
    -- next to it), n before and n after, each as the reader may see it. A turn is often
    -- answered in the next one.
    WITH hit AS (
        SELECT f.key, f.shared, f.session_id,
               pg_catalog.substr(f.key, 1, pg_catalog.length(f.key)
                   - pg_catalog.strpos(pg_catalog.reverse(f.key), '/') + 1) AS parent
          FROM @schema@_internal.facts AS f
         WHERE f.tenant = for_tenant AND f.fact_id = fact_neighbours.fact_id
           AND pg_catalog.strpos(f.key, '/') > 0
    ),
    siblings AS (
        SELECT f.key, f.scope_key, f.value, f.key ~<~ h.key AS before
          FROM hit AS h
          JOIN @schema@_internal.facts AS f
            ON f.tenant = for_tenant AND f.deleted_at IS NULL AND f.shared = h.shared
           AND (h.shared OR f.session_id = h.session_id)
           AND f.key ~>=~ h.parent AND pg_catalog.starts_with(f.key, h.parent)
           AND f.key <> h.key
           AND pg_catalog.strpos(pg_catalog.substr(f.key, pg_catalog.length(h.parent) + 1), '/') = 0
           AND @schema@_internal.fact_visible(f.shared, f.session_id, f.key, f.expires_at, kind,
                                              with_shared, every_session, sessions)
    )
    SELECT x.side, x.scope_key, x.key, @schema@_internal.fact_content(x.key, x.value)
      FROM (SELECT -(pg_catalog.row_number() OVER (ORDER BY s.key USING ~>~))::integer AS side,
                   s.scope_key, s.key, s.value
              FROM siblings AS s WHERE s.before
            UNION ALL
            SELECT (pg_catalog.row_number() OVER (ORDER BY s.key USING ~<~))::integer,
                   s.scope_key, s.key, s.value
              FROM siblings AS s WHERE NOT s.before) AS x
     WHERE pg_catalog.abs(x.side) <= n
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_neighbours(
    text, bigint, integer, text, boolean, boolean, text []) IS
'The n facts before and the n after one fact in key order among its siblings (same scope, '
'same parent path up to the last /, visible to the reader): side -n..-1 before, 1..n after.';

-- include_candidates came with human review, neighbours with conversations (defaulted last
-- parameters: every earlier call still binds to them; the old signatures go).
DROP FUNCTION IF EXISTS @schema@.context_pack(text, integer, public.vector, text, text, integer, real);
DROP FUNCTION IF EXISTS @schema@.context_pack(
    text, integer, public.vector, text, text, integer, real, boolean);
-- The trace's suppressed rows: what search(intent => 'historical') would answer that is not
-- current and not in the pack. Its pass is called directly (search_hits, as search calls
-- it), not the API again, which would detect the intent, check the arguments and resolve
-- the reader a second time and count each fact it returns as used, though the pack hands
-- none of them over.
CREATE OR REPLACE FUNCTION @schema@_internal.pack_suppressed(
    query text, query_vector public.vector, model text, lim integer, scope text,
    detected jsonb, items jsonb
) RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    access record := @schema@_internal.reader_visibility(scope);
    named record := @schema@_internal.named_entities(@schema@_internal.context_tenant(), query);
BEGIN
    RETURN (SELECT coalesce(pg_catalog.jsonb_agg(h.ref ORDER BY h.score DESC), '[]')
              FROM @schema@_internal.search_hits(query, query_vector, model, lim, access.kind,
                       access.with_shared, access.every_session, access.sessions, true, true,
                       NULL, NULL, true, NULL, NULL, 1, 1, 'historical',
                       @schema@_internal.named_year(detected), named.ids, named.names) AS h
             WHERE NOT h.current AND NOT items @> pg_catalog.jsonb_build_array(
                       pg_catalog.jsonb_build_object('ref', h.ref)));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.pack_suppressed(
    text, public.vector, text, integer, text, jsonb, jsonb) IS
'The refs a historical search of query finds that are not current and not among a pack''s '
'items, best first: context_pack''s trace.suppressed (detected: detect_intent(query)).';

CREATE OR REPLACE FUNCTION @schema@.context_pack(
    query text, token_budget integer DEFAULT 2000, query_vector public.vector DEFAULT NULL,
    model text DEFAULT NULL, scope text DEFAULT 'accessible', "limit" integer DEFAULT 20,
    chars_per_token real DEFAULT 4, include_candidates boolean DEFAULT false,
    neighbours integer DEFAULT 0
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
    access record;
BEGIN
    token_budget := @schema@_internal.check_limit(token_budget, 'token_budget', 1, 1000000);
    neighbours := @schema@_internal.check_limit(neighbours, 'neighbours', 0, 5);
    IF neighbours > 0 THEN
        access := @schema@_internal.reader_visibility(scope);
    ELSE  -- (read by the query below, which takes no neighbour then)
        SELECT NULL::text AS kind, NULL::boolean AS with_shared, NULL::boolean AS every_session,
               NULL::text [] AS sessions INTO access;
    END IF;
    IF chars_per_token IS NULL OR chars_per_token <= 0 OR chars_per_token > 100 THEN
        RAISE EXCEPTION 'chars_per_token must be > 0 and <= 100' USING ERRCODE = '22023';
    END IF;
    -- Items in rank order while they fit: tokens = ceil(characters / chars_per_token).
    -- search's rows are read by column name; their ordinality is the rank. With neighbours,
    -- each fact hit brings the facts beside it in key order (fact_neighbours) right after
    -- it, nearest first (the one before, the one after, ...: the budget keeps the hit's own
    -- context first), marked neighbour_of and side; a row that is a hit itself, or already
    -- some hit's neighbour, comes once, where it first appears.
    WITH hits AS (
        SELECT s.* FROM @schema@.search(query => query, query_vector => query_vector, model => model,
                   "limit" => "limit", scope => scope, intent => intent,
                   item_kinds => CASE WHEN include_candidates THEN '{fact,claim,candidate}'
                                      ELSE '{fact,claim}' END::text [])
               WITH ORDINALITY AS s
    ),
    expanded AS (
        SELECT h.ordinality AS rank, 0 AS side, h.item_kind, h.ref, h.key, h.content, h.current,
               h.stale, h.valid_from, h.valid_to, h.retired_at,
               pg_catalog.jsonb_build_object('score', h.score, 'text_rank', h.text_rank,
                   'vector_rank', h.vector_rank, 'similarity', h.similarity) AS why
          FROM hits AS h
        UNION ALL
        SELECT h.ordinality, n.side, 'fact', n.ref, n.key, n.content, true, false, NULL, NULL,
               NULL, pg_catalog.jsonb_build_object('neighbour_of', h.ref, 'side', n.side)
          FROM hits AS h
         CROSS JOIN LATERAL @schema@_internal.fact_neighbours(
                   @schema@_internal.context_tenant(), h.item_id, neighbours, access.kind,
                   access.with_shared, access.every_session, access.sessions) AS n
         WHERE neighbours > 0 AND h.item_kind = 'fact'
    ),
    placed AS (
        SELECT DISTINCT ON (e.ref) e.*
          FROM expanded AS e
         ORDER BY e.ref, e.side <> 0, e.rank, e.side
    ),
    p AS (
        SELECT x.*,
               pg_catalog.row_number() OVER (ORDER BY x.rank, pg_catalog.abs(x.side), x.side)
                   AS ordinality,
               pg_catalog.ceil(pg_catalog.length(x.content) / chars_per_token)::integer AS tokens,
               pg_catalog.sum(pg_catalog.ceil(pg_catalog.length(x.content) / chars_per_token))
                   OVER (ORDER BY x.rank, pg_catalog.abs(x.side), x.side) AS used
          FROM placed AS x
    )
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'position', p.ordinality, 'item_kind', p.item_kind, 'ref', p.ref, 'key', p.key,
               'content', p.content, 'tokens', p.tokens, 'current', p.current,
               'stale', p.stale, 'valid_from', p.valid_from, 'valid_to', p.valid_to,
               'retired_at', p.retired_at,
               'why', p.why || pg_catalog.jsonb_build_object(
                   'intent', intent, 'signals', detected -> 'signals'))
               ORDER BY p.ordinality) FILTER (WHERE p.used <= token_budget), '[]')
      INTO items
      FROM p;
    -- What the intent left out: superseded rows a history search finds that the pack lacks.
    IF intent IN ('current', 'unknown') THEN
        suppressed := @schema@_internal.pack_suppressed(query, query_vector, model, "limit",
                                                        scope, detected, items);
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
    text, integer, public.vector, text, text, integer, real, boolean, integer) IS
'The memories to hand a model for query, best first, within token_budget (1..1000000; '
'tokens estimated as ceil(characters / chars_per_token), default 4; pass your tokenizer''s '
'ratio): {intent, guidance, token_budget, tokens_used, items: [{position, item_kind, ref, '
'key, content, tokens, current, stale, valid_from, valid_to, retired_at, why: {score, '
'text_rank, vector_rank, similarity, intent, signals}}], trace: {intent (detect_intent), '
'suppressed (refs of superseded rows left out), stale_kept, token_estimate}}. Uses search() '
'with the detected intent. include_candidates (the reviewer, tuner and operator) adds the '
'claims waiting for review, after every believed item, as item_kind candidate. neighbours '
'(0..5, default 0) brings, right after each fact hit, that many facts before and after it '
'in key order under the same parent path (a conversation''s turns), why.neighbour_of naming '
'the hit.';
