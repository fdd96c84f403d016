-- Human review, the gate: what a candidate is, said once. The knowledge write path passes
-- every non-replay episode's checked claims through the claim gates (28_claim_gates.sql);
-- this one takes two kinds of claim out of the write, before any slot rule sees them:
--   * an assertion a reviewer rejected (review_rejections, not lifted): outcome rejected,
--     reason review_rejected, and nothing is stored;
--   * a claim from a source whose trust ranks below the tenant's review_below_trust, or
--     less confident than its review_below_confidence: stored as a candidate in
--     review_candidates (outcome candidate), never in claims, so no read of claims,
--     search, context pack or graph evidence sees it until a reviewer approves it.
-- Claims below the confidence floor, or of a retracted assertion, are left to the write
-- path, which drops or refuses them as before.

CREATE OR REPLACE FUNCTION @schema@_internal.candidate_claim(c @schema@_internal.claim_input)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The claim as ingest takes it, with the valid_from the write path resolved (so an
    -- approval writes the range the source asserted); absent fields left out.
    RETURN (SELECT pg_catalog.jsonb_object_agg(f.key, f.value)
              FROM pg_catalog.jsonb_each(pg_catalog.jsonb_build_object(
                       'subject', c.subject, 'predicate', c.predicate, 'object', c.object,
                       'object_entity', c.object_entity, 'text', c.text,
                       'confidence', c.confidence, 'valid_from', c.valid_from,
                       'valid_to', c.valid_to, 'locator', c.locator, 'quote', c.quote,
                       'replaces', c.replaces)) AS f
             WHERE f.value <> 'null'::jsonb);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.candidate_claim(@schema@_internal.claim_input) IS
'A checked claim as the JSON claim ingest takes (valid_from resolved, absent fields left '
'out): what a review candidate keeps and its approval writes.';

CREATE OR REPLACE FUNCTION @schema@_internal.review_gate(
    tenant text, episode @schema@_internal.episodes, claims @schema@_internal.claim_input [],
    floor real
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    below_trust integer := (@schema@_internal.setting(tenant, 'review_below_trust'))::integer;
    below_confidence real := (@schema@_internal.setting(tenant, 'review_below_confidence'))::real;
    low_trust boolean := @schema@_internal.trust_rank(episode.trust) < below_trust;
    -- The operator's own writes (override, operator-trust ingests) never wait for review.
    reviewable boolean := episode.trust <> 'operator';
    refused jsonb;
    held jsonb;
BEGIN
    SELECT pg_catalog.jsonb_object_agg(c.position::text, '{"outcome": "rejected",
               "reason": "review_rejected"}'::jsonb)
      INTO refused
      FROM pg_catalog.unnest(claims) AS c
     WHERE c.confidence >= floor AND NOT c.retracted
       AND EXISTS (SELECT 1 FROM @schema@_internal.review_rejections AS r
                    WHERE r.tenant = tenant AND r.assertion = c.assertion
                      AND r.lifted_at IS NULL);
    -- An approval's own write (approve_claim) is the one this transaction approved.
    IF NOT reviewable OR (NOT low_trust AND below_confidence = 0)
       OR EXISTS (SELECT 1 FROM @schema@_internal.review_candidates AS a
                   WHERE a.tenant = tenant AND a.status = 'approved'
                     AND episode.content_hash = 'review:candidate:' || a.candidate_id::text
                     AND a.decision_xid = pg_catalog.pg_current_xact_id()) THEN
        RETURN coalesce(refused, '{}');
    END IF;
    WITH stored AS (
        INSERT INTO @schema@_internal.review_candidates AS rc (
            tenant, episode_id, claim_index, claim, subject_id, predicate, assertion,
            held_because, held_at)
        SELECT tenant, episode.episode_id, c.position, @schema@_internal.candidate_claim(c),
               c.subject, c.predicate, c.assertion,
               CASE WHEN low_trust THEN 'trust' ELSE 'confidence' END, pg_catalog.now()
          FROM pg_catalog.unnest(claims) AS c
         WHERE c.confidence >= floor AND NOT c.retracted
           AND NOT coalesce(refused ? c.position::text, false)
           AND (low_trust OR c.confidence < below_confidence)
         ORDER BY c.position
        RETURNING rc.claim_index, rc.candidate_id
    )
    SELECT pg_catalog.jsonb_object_agg(s.claim_index::text, pg_catalog.jsonb_build_object(
               'outcome', 'candidate', 'candidate_id', s.candidate_id))
      INTO held
      FROM stored AS s;
    RETURN coalesce(refused, '{}') || coalesce(held, '{}');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.review_gate(
    text, @schema@_internal.episodes, @schema@_internal.claim_input [], real) IS
'The review''s claim gate: refuses rejected assertions (outcome rejected, reason '
'review_rejected) and holds claims from sources below review_below_trust or below '
'review_below_confidence (never the operator''s own) as candidates (outcome candidate, '
'candidate_id); the rest pass.';

SELECT @schema@_internal.register_claim_gate('60_governance', '@schema@_internal.review_gate');
