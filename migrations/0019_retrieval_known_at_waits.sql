SET LOCAL ROLE @schema@_owner;

-- search and nearest now wait for knowledge commits being stamped before they answer for
-- a known instant (settle_known_at, sql/30_retrieval/45_nearest.sql), which replaces the
-- plain future-instant check; check_search no longer takes known_at.
DROP FUNCTION IF EXISTS @schema@_internal.check_known_at(timestamptz);
DROP FUNCTION IF EXISTS @schema@_internal.check_search(
    text, public.vector, text, integer, text [], timestamptz, real, real
);
