SET LOCAL ROLE @schema@_owner;

-- Knowledge writes take their system time when their transaction commits, not when it
-- began (sql/20_knowledge/25_commit_instants.sql). A write stamps its rows with a
-- provisional instant and notes it here; at commit a deferred trigger moves every noted
-- instant of the transaction to the commit instant and deletes the notes. The table is
-- empty outside transactions that are writing knowledge.
CREATE TABLE @schema@_internal.knowledge_pending_writes (
    tenant text NOT NULL,
    writer xid8 NOT NULL DEFAULT pg_catalog.pg_current_xact_id(),
    write_at timestamptz NOT NULL,
    subjects bigint [] NOT NULL,
    predicates text [] NOT NULL,
    episode_id bigint
);
CREATE INDEX knowledge_pending_writes_writer_idx
    ON @schema@_internal.knowledge_pending_writes (writer);
COMMENT ON TABLE @schema@_internal.knowledge_pending_writes IS
'Provisional instants of the knowledge writes of transactions not yet committed';
ALTER TABLE @schema@_internal.knowledge_pending_writes ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.knowledge_pending_writes FORCE ROW LEVEL SECURITY;
