-- Layer: 70_transfer
--
-- Import and export of a tenant (issue 26). An import stages its file's lines in
-- transfer_lines and works through them in batches, each batch committing with its
-- checkpoint (transfer_imports.lines_done), so an interrupted import resumes where the
-- last committed batch ended.
--
-- As the migrating superuser first: a lossless restore writes rows as the export holds
-- them (system times, etags, ids), which the earlier layers' triggers would overwrite.
-- Its one function runs with session_replication_role = replica (user triggers off for
-- that call only, in that session only); the owner may set it, no login may.
-- (In a DO block: the SQL linter's parser does not know GRANT SET ON PARAMETER.) A
-- parameter's grants are the cluster's (pg_parameter_acl): installs migrating at once in
-- other databases take turns on one lock, and a grant already made is not made again (two
-- at once fail with "tuple concurrently updated").
DO $grant$
BEGIN
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('pgfacts: parameter grants'));
    IF NOT pg_catalog.has_parameter_privilege('@schema@_owner', 'session_replication_role', 'SET')
    THEN
        EXECUTE 'GRANT SET ON PARAMETER session_replication_role TO @schema@_owner';
    END IF;
END
$grant$;

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.transfer_imports (
    tenant text NOT NULL,
    import_id bigint GENERATED ALWAYS AS IDENTITY,
    file_sha256 text NOT NULL,
    file_name text,
    -- lossless (a pgfacts export into an empty tenant) or plain (through the write rules)
    family text,
    total_lines bigint,
    -- The checkpoint: the last staged line whose batch committed.
    lines_done bigint NOT NULL DEFAULT 0,
    inserted bigint NOT NULL DEFAULT 0,
    superseded bigint NOT NULL DEFAULT 0,
    duplicate bigint NOT NULL DEFAULT 0,
    rejected bigint NOT NULL DEFAULT 0,
    opened_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at timestamptz,
    abandoned boolean NOT NULL DEFAULT false,
    CONSTRAINT transfer_imports_pkey PRIMARY KEY (tenant, import_id),
    CONSTRAINT transfer_imports_sha256_shape CHECK (file_sha256 ~ '^[0-9a-f]{64}$'),
    CONSTRAINT transfer_imports_family_check CHECK (family IN ('lossless', 'plain'))
);
COMMENT ON TABLE @schema@_internal.transfer_imports IS
'One row per import of a file into a tenant: its checkpoint (lines_done) and counts; at most '
'one open (unfinished) import per tenant';

ALTER TABLE @schema@_internal.transfer_imports ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.transfer_imports FORCE ROW LEVEL SECURITY;

CREATE UNIQUE INDEX transfer_imports_one_open ON @schema@_internal.transfer_imports (tenant)
WHERE finished_at IS NULL;

CREATE TABLE @schema@_internal.transfer_lines (
    tenant text NOT NULL,
    line_no bigint NOT NULL,
    line text NOT NULL,
    CONSTRAINT transfer_lines_pkey PRIMARY KEY (tenant, line_no)
);
COMMENT ON TABLE @schema@_internal.transfer_lines IS
'The staged lines of a tenant''s open import, numbered from 1 in file order; removed when '
'the import finishes or is abandoned';

ALTER TABLE @schema@_internal.transfer_lines ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.transfer_lines FORCE ROW LEVEL SECURITY;
