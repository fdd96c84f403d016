-- A claim row no longer repeats the valid range its first claim asserted. Which range each
-- source asserted is on that source's line (claim_sources.asserted_valid), where
-- corroboration, source versions and the purge replay read it; nothing read the row's
-- copy. It was 14 to 17 bytes of every claim row. DROP COLUMN does not rewrite the table:
-- rows give the space back as they are written again (VACUUM FULL or pg_repack at once).
SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.claims DROP COLUMN asserted_valid;
