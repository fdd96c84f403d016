SET LOCAL ROLE @schema@_owner;

-- Corroboration respects valid ranges (sql/20_knowledge/30_write_claims.sql): a claim
-- corroborates every live row of its assertion its extent overlaps, and the parts of its
-- extent no such row covers become rows of their own. A decision therefore names the rows
-- it corroborates and may write more than one new row:
ALTER TYPE @schema@_internal.claim_decision
    ADD ATTRIBUTE corroborates integer [],
    ADD ATTRIBUTE pieces tstzrange [];

-- corroboration now returns the rows it finds and the uncovered pieces of an extent, and
-- stale_claims the part of each row a source's other texts still support: both change
-- their result type, so the old definitions go (sql/ defines the new ones).
DROP FUNCTION IF EXISTS @schema@_internal.corroboration(
    @schema@_internal.slot_picture, @schema@_internal.claim_input
);
DROP FUNCTION IF EXISTS @schema@_internal.stale_claims(text, text, text, bigint);

-- A value may now have several live rows (the pieces of its extent): an episode's accepted
-- claim names the row it replaced by assertion and valid range, so the purge replay ends
-- the same row (episodes written before keep NULL: the newest row of the assertion).
ALTER TYPE @schema@_internal.episode_claim ADD ATTRIBUTE replaces_valid tstzrange;
