-- Layer: 70_transfer
--
-- An import's rejected lines kept until the client says its rejects file holds them (issue
-- 26's review): they were handed out once, in the answer of the call whose commit moved
-- the checkpoint over them, and a client that lost that answer (its connection dropped
-- after the commit) lost them. Now each committed batch's rejected lines are kept by line
-- number in transfer_rejects; every import_batch answers those after the line through which
-- the client has written its rejects file (transfer_imports.rejects_through, which the
-- client reports with the file's length, rejects_bytes), and they are removed once it has
-- written them, or when the import finishes or is abandoned. transfer_batches keeps only
-- which batches committed ahead of the checkpoint.

SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.transfer_imports
ADD COLUMN rejects_through bigint NOT NULL DEFAULT 0,
ADD COLUMN rejects_bytes bigint;
COMMENT ON COLUMN @schema@_internal.transfer_imports.rejects_through IS
'The line through which the client has written the rejected lines to its rejects file';
COMMENT ON COLUMN @schema@_internal.transfer_imports.rejects_bytes IS
'The length of the client''s rejects file when it held the rejects through rejects_through '
'(NULL: not reported); a resumed import cuts the file back to it';

CREATE TABLE @schema@_internal.transfer_rejects (
    tenant text NOT NULL,
    import_id bigint NOT NULL,
    line_no bigint NOT NULL,
    reason text NOT NULL,
    message text,
    -- the line of the rejects file: the record with _error (valid input again)
    line text NOT NULL,
    CONSTRAINT transfer_rejects_pkey PRIMARY KEY (tenant, import_id, line_no),
    CONSTRAINT transfer_rejects_import_fkey FOREIGN KEY (tenant, import_id)
        REFERENCES @schema@_internal.transfer_imports (tenant, import_id) ON DELETE CASCADE,
    CONSTRAINT transfer_rejects_line_check CHECK (line_no >= 1)
);
COMMENT ON TABLE @schema@_internal.transfer_rejects IS
'The rejected lines of an open import''s committed batches not yet written to the client''s '
'rejects file; removed when it has written them, or when the import finishes or is abandoned';

ALTER TABLE @schema@_internal.transfer_rejects ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.transfer_rejects FORCE ROW LEVEL SECURITY;

-- An open import's rejects behind its checkpoint were handed out by the version before;
-- those of batches ahead of it move here.
UPDATE @schema@_internal.transfer_imports AS i SET rejects_through = i.lines_done
 WHERE i.finished_at IS NULL;

INSERT INTO @schema@_internal.transfer_rejects (tenant, import_id, line_no, reason, message, line)
SELECT
    b.tenant,
    b.import_id,
    r.line_no,
    r.reason,
    r.message,
    r.line
FROM @schema@_internal.transfer_batches AS b
CROSS JOIN LATERAL pg_catalog.jsonb_to_recordset(b.rejects)
    AS r (line_no bigint, reason text, message text, line text);

ALTER TABLE @schema@_internal.transfer_batches DROP COLUMN rejects;
COMMENT ON TABLE @schema@_internal.transfer_batches IS
'Committed batches of an open import past its checkpoint (a batch written while an earlier '
'one was still in progress); removed as the checkpoint passes them';
