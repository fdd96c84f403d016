-- Layer: 20_knowledge
--
-- A knowledge write notes the ids of the claim rows it recorded and retired, so the commit
-- stamp (sql/20_knowledge/25_commit_instants.sql) moves exactly those rows, each found by
-- its primary key, instead of reading every row of the slots the transaction wrote. A note
-- lives only until its transaction commits, so no row needs a value.
SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.knowledge_pending_writes
    ADD COLUMN claim_ids bigint [] NOT NULL DEFAULT '{}';
