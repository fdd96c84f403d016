-- A source line holds every range its episode asserted for the row, not one: an episode
-- may say a value twice ("A from Jan 21", "A from Jan 11 to Jan 31"), both claims
-- corroborate one row, and a later version of the source must retire only the valid time
-- neither claim said. The line's range becomes a multirange (the union of its episode's
-- claims' ranges). Row level security is lifted for this transaction only: the rewrite
-- spans every tenant. (The column is added, filled and renamed rather than changed in
-- place: the write path's in-memory types embed the table's row type, which forbids
-- ALTER COLUMN ... TYPE.)
SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.claim_sources NO FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.claim_sources ADD COLUMN asserted tstzmultirange;
UPDATE @schema@_internal.claim_sources SET asserted = pg_catalog.tstzmultirange(asserted_valid);
ALTER TABLE @schema@_internal.claim_sources ALTER COLUMN asserted SET NOT NULL;
ALTER TABLE @schema@_internal.claim_sources DROP COLUMN asserted_valid;
ALTER TABLE @schema@_internal.claim_sources RENAME COLUMN asserted TO asserted_valid;
ALTER TABLE @schema@_internal.claim_sources FORCE ROW LEVEL SECURITY;
