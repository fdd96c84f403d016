-- Human review, the reads: the queue of pending candidates with their evidence, oldest
-- first, and one candidate with its decision. The reviewer, the operator and the tuner
-- read them; a task agent does not see what is waiting for review.

CREATE OR REPLACE FUNCTION @schema@.review_queue("limit" integer DEFAULT 50)
RETURNS TABLE (
    candidate_id bigint,
    held_at timestamptz,
    held_because text,
    subject_id bigint,
    predicate text,
    object jsonb,
    object_entity_id bigint,
    text text,
    confidence real,
    valid_from timestamptz,
    valid_to timestamptz,
    quote text,
    locator jsonb,
    episode_id bigint,
    source_kind text,
    source_ref text,
    trust text,
    extractor text
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['reviewer', 'tuner', 'operator'], 'review_queue');
    PERFORM @schema@_internal.check_limit("limit", 'limit', 1, 1000);
    RETURN QUERY
    SELECT rc.candidate_id, rc.held_at, rc.held_because, rc.subject_id, rc.predicate,
           rc.claim -> 'object', (rc.claim ->> 'object_entity')::bigint, rc.claim ->> 'text',
           (rc.claim ->> 'confidence')::real, (rc.claim ->> 'valid_from')::timestamptz,
           (rc.claim ->> 'valid_to')::timestamptz, rc.claim ->> 'quote', rc.claim -> 'locator',
           e.episode_id, e.source_kind, e.source_ref, e.trust, e.extractor
      FROM @schema@_internal.review_candidates AS rc
      JOIN @schema@_internal.episodes AS e
        ON e.tenant = rc.tenant AND e.episode_id = rc.episode_id
     WHERE rc.tenant = tenant AND rc.status = 'pending'
     ORDER BY rc.candidate_id
     LIMIT "limit";
END
$fn$;

COMMENT ON FUNCTION @schema@.review_queue(integer) IS
'Reviewer / tuner / operator: the claims waiting for review, oldest first (at most limit, '
'1 to 1000): each candidate''s claim (subject, predicate, object or object entity, text, '
'confidence, valid range), its evidence (quote, locator, the episode''s source, trust and '
'extractor) and why it was held (trust or confidence). 22023 for a bad limit.';

CREATE OR REPLACE FUNCTION @schema@.review_candidate(candidate_id bigint)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    answer jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['reviewer', 'tuner', 'operator'], 'review_candidate');
    IF candidate_id IS NULL THEN
        RAISE EXCEPTION 'candidate_id is required' USING ERRCODE = '22023';
    END IF;
    SELECT pg_catalog.jsonb_build_object(
               'candidate_id', rc.candidate_id, 'status', rc.status,
               'held_because', rc.held_because, 'held_at', rc.held_at, 'claim', rc.claim,
               'episode', pg_catalog.jsonb_build_object(
                   'episode_id', e.episode_id, 'source_kind', e.source_kind,
                   'source_ref', e.source_ref, 'trust', e.trust, 'extractor', e.extractor,
                   'occurred_at', e.occurred_at),
               'decided_at', rc.decided_at, 'decided_by', rc.decided_by,
               'note', rc.decision_note, 'outcome', rc.decision_outcome,
               'rejection', (SELECT pg_catalog.jsonb_build_object(
                                 'rejection_id', r.rejection_id, 'rejected_at', r.rejected_at,
                                 'lifted_at', r.lifted_at)
                               FROM @schema@_internal.review_rejections AS r
                              WHERE r.tenant = rc.tenant AND r.assertion = rc.assertion
                                AND rc.status = 'rejected'
                              ORDER BY r.rejection_id DESC LIMIT 1))
      INTO answer
      FROM @schema@_internal.review_candidates AS rc
      JOIN @schema@_internal.episodes AS e
        ON e.tenant = rc.tenant AND e.episode_id = rc.episode_id
     WHERE rc.tenant = tenant AND rc.candidate_id = candidate_id;
    IF answer IS NULL THEN
        RAISE EXCEPTION 'no review candidate %', candidate_id USING ERRCODE = 'P0002',
            HINT = 'review_queue() lists the pending ones';
    END IF;
    RETURN answer;
END
$fn$;

COMMENT ON FUNCTION @schema@.review_candidate(bigint) IS
'Reviewer / tuner / operator: one review candidate, pending or decided: {candidate_id, '
'status (pending | approved | rejected), held_because, held_at, claim, episode: '
'{episode_id, source_kind, source_ref, trust, extractor, occurred_at}, decided_at, '
'decided_by, note, outcome (what the approval''s write did), rejection: {rejection_id, '
'rejected_at, lifted_at}}. P0002 when the tenant has no such candidate.';

-- Search serves the candidates as item kind 'candidate' (sql/30_retrieval/55_item_sources.sql)
-- to the kinds that read the queue: search(item_kinds => '{fact,claim,candidate}') and
-- context_pack(include_candidates => true).
CREATE OR REPLACE FUNCTION @schema@_internal.candidate_search_hits(tenant text, query text, lim integer)
RETURNS TABLE (
    item_id bigint, ref text, key text, content text, value jsonb, score real,
    valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    parsed record := @schema@_internal.parse_query(query);
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['reviewer', 'tuner', 'operator'],
                                           'search review candidates');
    IF parsed.match IS NULL THEN
        RETURN;
    END IF;
    -- The pending candidates are the review queue (few, by review_candidates_pending_idx):
    -- each found by the text its claim would be found by, scored as a claim is.
    RETURN QUERY
    SELECT x.candidate_id, 'candidate:' || x.candidate_id, x.predicate, x.content, x.value,
           @schema@_internal.text_score(x.doc, parsed.match, parsed.words, parsed.negated,
                                        parsed.pairs),
           x.valid_from, x.valid_to, x.held_at
      FROM (SELECT rc.candidate_id, rc.predicate, rc.held_at,
                   coalesce(rc.claim -> 'object', pg_catalog.to_jsonb(o.name)) AS value,
                   coalesce(rc.claim ->> 'text', pg_catalog.concat_ws(' ', s.name,
                       pg_catalog.translate(rc.predicate, '_', ' '),
                       coalesce(rc.claim -> 'object' #>> '{}', o.name))) AS content,
                   @schema@_internal.document_vector(@schema@_internal.claim_document(
                       tenant, rc.claim ->> 'text', rc.claim -> 'object', rc.predicate,
                       rc.subject_id, (rc.claim ->> 'object_entity')::bigint)) AS doc,
                   (rc.claim ->> 'valid_from')::timestamptz AS valid_from,
                   (rc.claim ->> 'valid_to')::timestamptz AS valid_to
              FROM @schema@_internal.review_candidates AS rc
              JOIN @schema@_internal.entities AS s
                ON s.tenant = rc.tenant AND s.entity_id = rc.subject_id
              LEFT JOIN @schema@_internal.entities AS o
                ON o.tenant = rc.tenant AND o.entity_id = (rc.claim ->> 'object_entity')::bigint
             WHERE rc.tenant = tenant AND rc.status = 'pending') AS x
     WHERE x.doc @@ parsed.match
     ORDER BY 6 DESC, x.candidate_id
     LIMIT lim;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.candidate_search_hits(text, text, integer) IS
'Search''s candidate item kind: the tenant''s pending review candidates matching query, '
'best first (at most lim), as candidate:<id> with their claim''s content; 42501 for a kind '
'that does not read the review queue.';

SELECT @schema@_internal.register_search_source('candidate', '@schema@_internal.candidate_search_hits');
