-- A read of another tenant's entity id (as_of, claim_history,
-- current_claims) must do the same work as one of an id that exists nowhere. The slot
-- index did not lead with the tenant, so such a read fetched the other tenant's rows from
-- the heap and dropped them by the tenant condition: measured with 219 rows in the slot,
-- 219 heap fetches against 0 and about 1.3x the time under a forced generic plan. Leading
-- with the tenant, the index condition excludes them before any row is read.
SET LOCAL ROLE @schema@_owner;

CREATE INDEX claims_tenant_slot_idx ON @schema@_internal.claims (tenant, subject_id, predicate, claim_id);
DROP INDEX @schema@_internal.claims_slot_idx;
