-- The slot index no longer ends with claim_id. With the id in the key every entry is
-- unique, so B-tree deduplication never applies and the index held one 24-byte tuple per
-- claim row: 4.4 MiB for the knowledge bench's 66,781 rows. On (tenant, subject_id,
-- predicate) a slot's versions share one posting list: 0.9 MiB, 57 bytes a row less, and
-- the reads that probe it (as_of, claim_history, current_claims, the write path's slot
-- reads) are as fast or faster; each sorts a slot's few rows itself. It still leads with
-- the tenant (migration 0015: another tenant's slot costs no heap fetch).
SET LOCAL ROLE @schema@_owner;

CREATE INDEX claims_slot_versions_idx ON @schema@_internal.claims (tenant, subject_id, predicate);
DROP INDEX @schema@_internal.claims_tenant_slot_idx;
