-- Layer: 70_transfer
--
-- Batches of one import written by several sessions at once (issue 26's import speed):
-- each batch is a fixed slice of the staged lines (transfer_imports.batch_lines lines,
-- set by the import's first batch, so every session cuts the same slices), claimed under
-- an advisory lock while it is written. A batch that commits ahead of an earlier one still
-- in progress is kept in transfer_batches with its rejected lines until the checkpoint
-- (lines_done) reaches it: the checkpoint moves only over a contiguous run of committed
-- batches, and a resumed import writes exactly the batches not committed.

SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.transfer_imports ADD COLUMN batch_lines integer;
COMMENT ON COLUMN @schema@_internal.transfer_imports.batch_lines IS
'The lines of each batch of this import, set by its first batch (every session writing it '
'cuts the same slices)';

CREATE TABLE @schema@_internal.transfer_batches (
    tenant text NOT NULL,
    import_id bigint NOT NULL,
    first_line bigint NOT NULL,
    last_line bigint NOT NULL,
    -- [{line_no, reason, message, line}]: handed out when the checkpoint passes the batch
    rejects jsonb NOT NULL DEFAULT '[]',
    CONSTRAINT transfer_batches_pkey PRIMARY KEY (tenant, import_id, first_line),
    CONSTRAINT transfer_batches_import_fkey FOREIGN KEY (tenant, import_id)
        REFERENCES @schema@_internal.transfer_imports (tenant, import_id) ON DELETE CASCADE,
    CONSTRAINT transfer_batches_lines_check CHECK (first_line >= 1 AND last_line >= first_line)
);
COMMENT ON TABLE @schema@_internal.transfer_batches IS
'Committed batches of an open import past its checkpoint (a batch written while an earlier '
'one was still in progress), with their rejected lines; removed as the checkpoint passes them';

ALTER TABLE @schema@_internal.transfer_batches ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.transfer_batches FORCE ROW LEVEL SECURITY;
