-- A source line no longer keeps the instant it was added: it always equalled its episode's
-- written_at (a line is added by its episode's write, at that write's instant, and copies
-- and a purge replay keep it), and nothing read it. The commit stamp moved it to the commit
-- instant with an update of every line the transaction wrote; that update is gone with it.
-- DROP COLUMN does not rewrite the table: rows give the space back as they are written again.
SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.claim_sources DROP COLUMN added_at;
