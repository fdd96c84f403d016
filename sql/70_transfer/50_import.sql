-- An import's steps, each a call of its own so each batch commits with its checkpoint:
-- import_open (a new import, or the open one of the same file to resume), the client's
-- COPY of the file's lines into pg_temp.transfer_input, import_staged (the lines into
-- transfer_lines, numbered), import_batch until it says finished, and import_abandon to
-- end an import without finishing it.

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_import_answer(
    import @schema@_internal.transfer_imports
) RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN pg_catalog.jsonb_build_object(
        'import_id', import.import_id, 'family', import.family, 'file_name', import.file_name,
        'staged', import.total_lines IS NOT NULL, 'total_lines', import.total_lines,
        'lines_done', import.lines_done, 'finished', import.finished_at IS NOT NULL,
        'inserted', import.inserted, 'superseded', import.superseded,
        'duplicate', import.duplicate, 'rejected', import.rejected,
        'rejects_through', import.rejects_through, 'rejects_bytes', import.rejects_bytes);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_import_answer(@schema@_internal.transfer_imports) IS
'What the import functions answer about an import: its id, family, file name, whether its '
'lines are staged, total_lines, lines_done (the checkpoint), finished, its counts, and '
'rejects_through and rejects_bytes (the line through which the client''s rejects file holds '
'the rejected lines, and its length then, as the client last reported them).';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_family(first_line text)
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    header jsonb;
BEGIN
    IF first_line IS NULL OR NOT pg_catalog.pg_input_is_valid(first_line, 'jsonb') THEN
        RETURN 'plain';  -- its lines are judged one by one
    END IF;
    header := first_line::jsonb;
    IF pg_catalog.jsonb_typeof(header) <> 'object' OR header ->> 'type' <> 'pgfacts_export' THEN
        RETURN 'plain';
    END IF;
    IF header -> 'version' IS DISTINCT FROM '1' THEN
        RAISE EXCEPTION 'export format version % is not supported',
            @schema@_internal.shown(header ->> 'version')
            USING ERRCODE = '22023', HINT = 'this install reads version 1 exports';
    END IF;
    RETURN 'lossless';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_family(text) IS
'The family of a file by its first line: lossless for an export header '
'{type: pgfacts_export, version: 1}, plain otherwise; 22023 for another export version.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_new_import(
    for_tenant text, sha256 text, named text, of_family text
) RETURNS @schema@_internal.transfer_imports
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    import @schema@_internal.transfer_imports;
BEGIN
    -- Two sessions opening at once: the one that loses gets no row (and waits for the
    -- other's commit), never a unique violation.
    INSERT INTO @schema@_internal.transfer_imports AS i (tenant, file_sha256, file_name, family)
    VALUES (for_tenant, sha256, named, of_family)
    ON CONFLICT (tenant) WHERE finished_at IS NULL DO NOTHING
    RETURNING i.* INTO import;
    RETURN import;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_new_import(text, text, text, text) IS
'A new open import of tenant, or an empty row when the tenant already has an open one.';

CREATE OR REPLACE FUNCTION @schema@.import_open(
    file_sha256 text, first_line text, file_name text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    family text;
    holder text;
    import @schema@_internal.transfer_imports;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'import_open');
    IF file_sha256 IS NULL OR file_sha256 !~ '^[0-9a-f]{64}$' THEN
        RAISE EXCEPTION 'file_sha256 must be 64 lowercase hexadecimal digits, not %',
            @schema@_internal.shown(file_sha256) USING ERRCODE = '22023',
            HINT = 'the sha256 of the file''s bytes (sha256sum)';
    END IF;
    PERFORM @schema@_internal.check_text(file_name, 'file_name', 1000);
    SELECT i.* INTO import FROM @schema@_internal.transfer_imports AS i
     WHERE i.tenant = tenant AND i.finished_at IS NULL FOR UPDATE;
    IF FOUND AND import.file_sha256 <> file_sha256 THEN
        RAISE EXCEPTION 'another import into this tenant is open'
            USING ERRCODE = 'PT002',
                  DETAIL = pg_catalog.format('import %s of %s, %s of %s lines done',
                      import.import_id, @schema@_internal.shown(import.file_name),
                      import.lines_done, coalesce(import.total_lines::text, 'unstaged')),
                  HINT = 'run the import of that file again to finish it, or end it with '
                         'pgfacts import --abandon';
    END IF;
    IF NOT FOUND THEN
        family := @schema@_internal.transfer_family(first_line);
        holder := CASE WHEN family = 'lossless'
                       THEN @schema@_internal.transfer_tenant_holds_rows(tenant) END;
        IF holder IS NOT NULL THEN
            RAISE EXCEPTION 'a pgfacts export is restored into an empty tenant only'
                USING ERRCODE = 'PT001',
                      DETAIL = pg_catalog.format('tenant %s holds rows in %s',
                                                 @schema@_internal.shown(tenant), holder),
                      HINT = 'import it under a new tenant name (--tenant); plain lines are '
                             'written through the write rules into any tenant';
        END IF;
        import := @schema@_internal.transfer_new_import(tenant, file_sha256, file_name, family);
        IF import.import_id IS NULL THEN
            -- Another session opened one meanwhile: judged as if it had been there.
            RETURN @schema@.import_open(file_sha256, first_line, file_name);
        END IF;
    END IF;
    IF import.total_lines IS NULL THEN
        -- Where the client COPYs the file (a COPY cannot write a table with row level
        -- security): this session's own, for its login only.
        CREATE TEMP TABLE IF NOT EXISTS transfer_input (line text);
        EXECUTE 'TRUNCATE pg_temp.transfer_input';
        EXECUTE pg_catalog.format('GRANT INSERT ON pg_temp.transfer_input TO %I', SESSION_USER);
    END IF;
    RETURN @schema@_internal.transfer_import_answer(import)
        || pg_catalog.jsonb_build_object('resumed', import.opened_at < pg_catalog.now());
END
$fn$;

COMMENT ON FUNCTION @schema@.import_open(text, text, text) IS
'Operator only: open an import of a file (its sha256, its first line, its name) into the '
'caller''s tenant, or resume the open import of the same file. A file whose first line is '
'an export header is lossless and needs an empty tenant (PT001); any other file is plain. '
'PT002 while an import of another file is open. Until the lines are staged, the client '
'COPYs them into pg_temp.transfer_input (line) and calls import_staged. Returns {import_id, '
'family, file_name, staged, total_lines, lines_done, finished, inserted, superseded, '
'duplicate, rejected, resumed}.';

-- Its signature was (text) until batches ran side by side: a batch reads the row unlocked.
DROP FUNCTION IF EXISTS @schema@_internal.transfer_open_import(text);
CREATE OR REPLACE FUNCTION @schema@_internal.transfer_open_import(
    tenant text, for_batch boolean DEFAULT false
) RETURNS @schema@_internal.transfer_imports
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    import @schema@_internal.transfer_imports;
BEGIN
    -- A batch takes no lock here: batches of one import run side by side (each claims its
    -- own slice, transfer_claim_batch), and each takes the row's lock at its checkpoint.
    IF for_batch THEN
        SELECT i.* INTO import FROM @schema@_internal.transfer_imports AS i
         WHERE i.tenant = tenant AND i.finished_at IS NULL;
    ELSE
        SELECT i.* INTO import FROM @schema@_internal.transfer_imports AS i
         WHERE i.tenant = tenant AND i.finished_at IS NULL FOR UPDATE;
    END IF;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no import into this tenant is open' USING ERRCODE = 'P0002',
            HINT = 'pgfacts import FILE opens one (import_open)';
    END IF;
    RETURN import;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_open_import(text, boolean) IS
'The tenant''s open import, locked FOR UPDATE unless for a batch (batches run side by side '
'and lock it at their checkpoint); P0002 when there is none.';

-- Its signature was () until a file could be staged in parts, side by side (import_file's
-- two sessions each COPY half of it).
DROP FUNCTION IF EXISTS @schema@.import_staged();
CREATE OR REPLACE FUNCTION @schema@.import_staged(
    first_line bigint DEFAULT 1, last_part boolean DEFAULT true
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    import @schema@_internal.transfer_imports;
    staging regclass;
    part_lines bigint;
    replaced bigint;
    last_staged bigint;
    staged bigint;
    through bigint;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'import_staged');
    IF first_line IS NULL OR first_line < 1 OR last_part IS NULL THEN
        RAISE EXCEPTION 'first_line must be 1 or more and last_part true or false'
            USING ERRCODE = '22023',
                  HINT = 'a part''s first line is its line number in the file (1 for the whole '
                         'file), last_part whether it ends the file';
    END IF;
    -- Not locked yet: parts are staged side by side, and the row is locked after the lines.
    import := @schema@_internal.transfer_open_import(tenant, true);
    IF import.total_lines IS NOT NULL THEN
        RETURN @schema@_internal.transfer_import_answer(import);  -- staged before
    END IF;
    staging := pg_catalog.to_regclass('pg_temp.transfer_input');
    IF staging IS NULL THEN
        RAISE EXCEPTION 'no lines were copied in this session' USING ERRCODE = '55000',
            HINT = 'call import_open, then COPY the file into pg_temp.transfer_input (line)';
    END IF;
    -- Numbered from first_line in the order COPY wrote them (a fresh temporary table's
    -- physical order; named at run time: the table exists in the calling session only).
    -- Lines staged before under these numbers are replaced: a part staged again after an
    -- interruption (the same file: import_open checked its sha256).
    EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s', staging) INTO part_lines;
    DELETE FROM @schema@_internal.transfer_lines AS l
     WHERE l.tenant = tenant AND l.line_no BETWEEN first_line AND first_line + part_lines - 1;
    GET DIAGNOSTICS replaced = ROW_COUNT;
    BEGIN
        EXECUTE pg_catalog.format(
            'INSERT INTO @schema@_internal.transfer_lines (tenant, line_no, line) '
            'SELECT $1, $2 - 1 + pg_catalog.row_number() OVER (ORDER BY t.ctid), '
            'coalesce(t.line, '''') FROM %s AS t', staging) USING tenant, first_line;
    EXCEPTION WHEN unique_violation THEN
        RAISE EXCEPTION 'another session is staging some of lines % to %', first_line,
            first_line + part_lines - 1 USING ERRCODE = '55000',
            HINT = 'stage each part of the file in one session';
    END;
    EXECUTE pg_catalog.format('TRUNCATE %s', staging);
    -- One part at a time from here (the row's lock, held to the commit): each sees the
    -- parts committed before it, so whichever commits last finds the file complete. It is
    -- when the lines staged are exactly 1 to the last part's last line (unique numbers,
    -- from 1, as many as that line's number, none after it).
    import := @schema@_internal.transfer_open_import(tenant);
    IF import.total_lines IS NOT NULL THEN
        RETURN @schema@_internal.transfer_import_answer(import);
    END IF;
    SELECT pg_catalog.max(l.line_no) INTO last_staged
      FROM @schema@_internal.transfer_lines AS l WHERE l.tenant = tenant;
    staged := import.staged_lines - replaced + part_lines;
    through := CASE WHEN last_part THEN first_line + part_lines - 1 ELSE import.staged_through END;
    UPDATE @schema@_internal.transfer_imports AS i
       SET staged_lines = staged, staged_through = through,
           total_lines = CASE WHEN staged = through AND coalesce(last_staged, 0) = through
                              THEN through END
     WHERE i.tenant = tenant AND i.import_id = import.import_id
    RETURNING i.* INTO import;
    RETURN @schema@_internal.transfer_import_answer(import);
END
$fn$;

COMMENT ON FUNCTION @schema@.import_staged(bigint, boolean) IS
'Operator only: number the lines this session COPYed into pg_temp.transfer_input from '
'first_line (default 1) and keep them with the open import (so a later session can resume '
'it); last_part (default true) says they end the file. A file may be staged in parts, by '
'several sessions at once (each opens the import and COPYs its part); it is staged once '
'its lines 1 to the last part''s last line are all kept (a part staged again replaces its '
'lines). Returns what import_open does (staged: whether the file is complete); 55000 '
'when nothing was copied or another session is staging the same lines, P0002 when no import '
'is open, 22023 for a first_line below 1.';
