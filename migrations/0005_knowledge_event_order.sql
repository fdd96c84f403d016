SET LOCAL ROLE @schema@_owner;

-- Every write of a slot (an episode's claims, a retraction, a restore) draws a number from
-- one sequence while it holds the slot's lock, so the number orders the writes of a slot
-- exactly as they happened, even several in one transaction at one clock instant. The purge
-- replay (rebuild_slot) follows that order.
CREATE SEQUENCE @schema@_internal.knowledge_event_seq;
COMMENT ON SEQUENCE @schema@_internal.knowledge_event_seq IS
'The order of knowledge writes: episodes, retractions and restores';

-- An episode keeps the claims it had accepted (in its own order, valid_from resolved, a
-- `replaces` kept as the assertion it ended) and the instant they were written at: the
-- replay feeds them to the write path again, as one call per slot, so what one claim of
-- the episode did to an earlier one happens again. They go with the episode when its
-- source is purged. (A typed array: about half the bytes of the same claims as JSON.)
CREATE TYPE @schema@_internal.episode_claim AS (
    position integer,
    subject bigint,
    predicate text,
    object jsonb,
    object_entity bigint,
    text text,
    confidence real,
    valid_from timestamptz,
    valid_to timestamptz,
    locator jsonb,
    quote text,
    replaces_assertion text
);
ALTER TABLE @schema@_internal.episodes
    ADD COLUMN written @schema@_internal.episode_claim [],
    ADD COLUMN written_at timestamptz,
    ADD COLUMN event_seq bigint;

-- One write of a slot as the purge replay reads it: an episode (its row), a retraction or a
-- restore (the assertion, and when it was retracted), at its place in the order.
CREATE TYPE @schema@_internal.slot_event AS (
    kind text,
    seq bigint,
    episode @schema@_internal.episodes,
    at timestamptz,
    assertion text,
    retracted_at timestamptz
);

-- Retiring a row now says whether it was still live (a concurrent writer may have retired it
-- first), so the counts are of rows actually retired.
DROP FUNCTION IF EXISTS @schema@_internal.retire_claim(text, bigint, text, bigint, timestamptz);

-- The write path now inserts the episode itself, with what it wrote, after deciding it (one
-- insert, no update); it takes the episode as a row.
DROP FUNCTION IF EXISTS @schema@_internal.write_claims(
    text, bigint, integer, jsonb, real, timestamptz, timestamptz, boolean
);

-- A retraction names its slot and its place in the order; restore finds it by the claim id
-- it was made with, even after a purge rewrote the slot's rows with new ids.
ALTER TABLE @schema@_internal.retractions
    ADD COLUMN subject_id bigint,
    ADD COLUMN predicate text,
    ADD COLUMN retracted_seq bigint,
    ADD COLUMN restored_seq bigint;
CREATE INDEX retractions_slot_idx ON @schema@_internal.retractions (subject_id, predicate);

-- Existing knowledge: the claims each episode wrote, rebuilt from its source lines (each
-- with its own source's text and confidence, where the line has them; a `replaces` from the
-- row the claim's own row replaced), and an order from the recorded instants (ties:
-- episodes, then retractions, then restores; writes older data made in one transaction at
-- one instant keep that order only). Row level security is lifted for this transaction
-- only: the backfill spans every tenant.
ALTER TABLE @schema@_internal.episodes NO FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.retractions NO FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.claims NO FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.claim_sources NO FORCE ROW LEVEL SECURITY;

WITH replaced AS (
    SELECT
        r.tenant,
        r.superseded_by,
        pg_catalog.min(r.assertion) AS assertion
    FROM @schema@_internal.claims AS r
    WHERE r.retired_reason = 'replaced'
    GROUP BY r.tenant, r.superseded_by
),

source_line AS (
    SELECT DISTINCT ON (s.tenant, s.episode_id, c.assertion, s.asserted_valid)
        s.tenant,
        s.episode_id,
        s.added_at,
        c.claim_id,
        ROW(
            NULL, c.subject_id, c.predicate, c.object_value, c.object_entity_id,
            CASE WHEN s.confidence IS NULL THEN c.text ELSE s.text END,
            coalesce(s.confidence, c.confidence), pg_catalog.lower(s.asserted_valid),
            CASE WHEN c.cardinality <> 'event' THEN pg_catalog.upper(s.asserted_valid) END,
            s.locator, s.quote,
            -- (only the line that wrote the row said `replaces`, not a later corroboration)
            CASE WHEN s.added_at = pg_catalog.lower(c.system_time) THEN rp.assertion END
        )::@schema@_internal.episode_claim AS claim
    FROM @schema@_internal.claim_sources AS s
    INNER JOIN @schema@_internal.claims AS c ON s.tenant = c.tenant AND s.claim_id = c.claim_id
    LEFT JOIN replaced AS rp ON c.tenant = rp.tenant AND c.claim_id = rp.superseded_by
    ORDER BY s.tenant, s.episode_id, c.assertion, s.asserted_valid, c.claim_id
),

episode_lines AS (
    SELECT
        l.tenant,
        l.episode_id,
        pg_catalog.array_agg(l.claim ORDER BY l.added_at, l.claim_id) AS written,
        pg_catalog.min(l.added_at) AS written_at
    FROM source_line AS l
    GROUP BY l.tenant, l.episode_id
)

UPDATE @schema@_internal.episodes AS e
SET
    written = coalesce(w.written, '{}'),
    written_at = coalesce(w.written_at, e.recorded_at)
FROM @schema@_internal.episodes AS e2
LEFT JOIN episode_lines AS w ON e2.tenant = w.tenant AND e2.episode_id = w.episode_id
WHERE e2.tenant = e.tenant AND e2.episode_id = e.episode_id;

UPDATE @schema@_internal.retractions AS r
SET subject_id = c.subject_id, predicate = c.predicate
FROM @schema@_internal.claims AS c
WHERE c.tenant = r.tenant AND c.assertion = r.assertion;

CREATE TEMPORARY TABLE knowledge_event_order ON COMMIT DROP AS
WITH knowledge_event AS (
    SELECT
        'episode' AS kind,
        e.tenant,
        e.episode_id AS id,
        e.written_at AS at,
        1 AS kind_order
    FROM @schema@_internal.episodes AS e
    UNION ALL
    SELECT
        'retract' AS kind,
        r.tenant,
        r.retraction_id AS id,
        r.retracted_at AS at,
        2 AS kind_order
    FROM @schema@_internal.retractions AS r
    UNION ALL
    SELECT
        'restore' AS kind,
        r.tenant,
        r.retraction_id AS id,
        r.restored_at AS at,
        3 AS kind_order
    FROM @schema@_internal.retractions AS r
    WHERE r.restored_at IS NOT NULL
)

SELECT
    v.kind,
    v.tenant,
    v.id,
    pg_catalog.row_number() OVER (ORDER BY v.at, v.kind_order, v.id) AS seq
FROM knowledge_event AS v;

UPDATE @schema@_internal.episodes AS e
SET event_seq = o.seq
FROM knowledge_event_order AS o
WHERE o.kind = 'episode' AND o.tenant = e.tenant AND o.id = e.episode_id;

WITH retraction_order AS (
    SELECT
        o.tenant,
        o.id,
        pg_catalog.max(o.seq) FILTER (WHERE o.kind = 'retract') AS retracted_seq,
        pg_catalog.max(o.seq) FILTER (WHERE o.kind = 'restore') AS restored_seq
    FROM knowledge_event_order AS o
    WHERE o.kind IN ('retract', 'restore')
    GROUP BY o.tenant, o.id
)

UPDATE @schema@_internal.retractions AS r
SET retracted_seq = o.retracted_seq, restored_seq = o.restored_seq
FROM retraction_order AS o
WHERE o.tenant = r.tenant AND o.id = r.retraction_id;

SELECT pg_catalog.setval('@schema@_internal.knowledge_event_seq', GREATEST(pg_catalog.max(o.seq), 1))
FROM knowledge_event_order AS o;

-- The replay reads what a source said from its episode, so a source line needs no copy of
-- the text and confidence any more (migration 0004 added them for the old replay).
ALTER TABLE @schema@_internal.claim_sources DROP COLUMN text, DROP COLUMN confidence;

ALTER TABLE @schema@_internal.episodes FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.retractions FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.claims FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.claim_sources FORCE ROW LEVEL SECURITY;
