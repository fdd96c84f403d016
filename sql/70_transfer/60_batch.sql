-- import_batch: the next lines of the open import, written and checkpointed in one
-- transaction, so a batch is either done and counted or not begun.

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_next_lines(
    tenant text, after bigint, batch_size integer
) RETURNS TABLE (line_no bigint, line text, record jsonb)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    nos bigint [];
    texts text [];
    parsed jsonb [];
BEGIN
    SELECT pg_catalog.array_agg(l.line_no ORDER BY l.line_no), pg_catalog.array_agg(l.line ORDER BY l.line_no)
      INTO nos, texts
      FROM (SELECT s.line_no, s.line FROM @schema@_internal.transfer_lines AS s
             WHERE s.tenant = tenant AND s.line_no > after
             ORDER BY s.line_no LIMIT batch_size) AS l;
    -- Each line parsed once. Cast as they are when every line is JSON (an empty line has
    -- no record either way); else, the cast having failed somewhere, each line is checked
    -- before its cast (pg_input_is_valid parses it too, so only a batch holding a line
    -- that is not JSON pays twice). A line that is not a JSON object has no record.
    BEGIN
        parsed := ARRAY(SELECT NULLIF(t.line, '')::jsonb
                          FROM pg_catalog.unnest(texts) WITH ORDINALITY AS t (line, n) ORDER BY t.n);
    EXCEPTION WHEN OTHERS THEN
        parsed := ARRAY(SELECT CASE WHEN pg_catalog.pg_input_is_valid(t.line, 'jsonb') THEN t.line::jsonb END
                          FROM pg_catalog.unnest(texts) WITH ORDINALITY AS t (line, n) ORDER BY t.n);
    END;
    RETURN QUERY
        SELECT p.line_no, p.line, CASE WHEN pg_catalog.jsonb_typeof(p.value) = 'object' THEN p.value END
          FROM ROWS FROM (pg_catalog.unnest(nos), pg_catalog.unnest(texts), pg_catalog.unnest(parsed))
               AS p (line_no, line, value);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_next_lines(text, bigint, integer) IS
'The next batch_size staged lines of tenant after line after, each with its JSON object '
'(NULL when the line is not one).';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_reject_line(
    line text, record jsonb, reason text, message text
) RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The line of the rejects file: the record with its reason under _error, which an
    -- import ignores, so the file is valid input; a line that is no object as it came.
    IF record IS NULL THEN
        RETURN line;
    END IF;
    RETURN (record || pg_catalog.jsonb_build_object('_error', pg_catalog.jsonb_build_object(
        'reason', reason, 'message', message)))::text;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_reject_line(text, jsonb, text, text) IS
'A rejected line as the rejects file holds it: the object with _error {reason, message} '
'(ignored on import), or the line as it came when it is not a JSON object.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_lossless_lines(batch jsonb)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    bad record;
BEGIN
    -- batch: [{line_no, line, record}]. The header is line 1; every other line a row.
    SELECT b.line_no INTO bad
      FROM pg_catalog.jsonb_to_recordset(batch) AS b (line_no bigint, line text, record jsonb)
     WHERE b.line <> '' AND (b.record IS NULL OR (b.line_no > 1 AND b.record ->> 'type' IS DISTINCT FROM 'row'))
     ORDER BY b.line_no LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'line % of the export is not a row', bad.line_no USING ERRCODE = 'PT003',
            HINT = 'an export holds its header, then {"type": "row", "table": ..., "row": {...}} '
                   'lines; nothing of this batch was written';
    END IF;
    RETURN coalesce((SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                                'line_no', b.line_no, 'record', b.record))
                       FROM pg_catalog.jsonb_to_recordset(batch) AS b (line_no bigint, line text, record jsonb)
                      WHERE b.line_no > 1 AND b.line <> ''), '[]');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_lossless_lines(jsonb) IS
'The row lines of a batch of an export [{line_no, record}]; PT003 for a line that is not '
'a row (the header aside).';

-- Batches side by side. An import's lines are cut into slices of batch_lines (set by its
-- first batch); each batch_import claims the first slice past the checkpoint that is
-- neither committed nor being written, under an advisory lock held until it commits. A
-- slice waits for an earlier one still being written only when their order matters: the
-- earlier holds a key it writes too (a later line of a key supersedes an earlier one), or
-- either holds a line other than a fact (an episode, a graph assertion, a restored row:
-- they read what earlier lines wrote). The checkpoint moves over committed slices in line
-- order only, and a slice committed ahead of it waits in transfer_batches with its
-- rejected lines, which are handed out in line order when the checkpoint passes them.

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_batch_key(
    tenant text, import_id bigint, first_line bigint
) RETURNS bigint
LANGUAGE sql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT @schema@_internal.lock_key(pg_catalog.concat_ws(
        ':', '@schema@:import-batch', tenant, import_id, first_line))
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_batch_key(text, bigint, bigint) IS
'The advisory lock a session holds while it writes the batch of an import starting at '
'first_line.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_batch_done(
    tenant text, import_id bigint, first_line bigint
) RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Behind the checkpoint, or committed ahead of it.
    SELECT i.lines_done >= transfer_batch_done.first_line
           OR EXISTS (SELECT 1 FROM @schema@_internal.transfer_batches AS b
                       WHERE b.tenant = i.tenant AND b.import_id = i.import_id
                         AND b.first_line = transfer_batch_done.first_line)
      FROM @schema@_internal.transfer_imports AS i
     WHERE i.tenant = transfer_batch_done.tenant AND i.import_id = transfer_batch_done.import_id
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_batch_done(text, bigint, bigint) IS
'Whether the batch of an import starting at first_line has committed (behind the checkpoint '
'or in transfer_batches), as the calling statement''s snapshot sees it.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_claim_batch(
    import @schema@_internal.transfer_imports
) RETURNS bigint
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    first_line bigint := import.lines_done + 1;
BEGIN
    -- The first slice past the checkpoint neither committed nor locked by another session;
    -- its lock is held to the end of this transaction. Asked again once locked, in a
    -- statement of its own: the session that held it may have committed it just before,
    -- and only a statement begun after the lock was taken has a snapshot that shows it
    -- (asked in the same expression, a slice committed meanwhile was written twice).
    WHILE first_line <= import.total_lines LOOP
        IF NOT @schema@_internal.transfer_batch_done(import.tenant, import.import_id, first_line)
           AND pg_catalog.pg_try_advisory_xact_lock(
                   @schema@_internal.transfer_batch_key(import.tenant, import.import_id, first_line))
        THEN
            IF NOT @schema@_internal.transfer_batch_done(import.tenant, import.import_id, first_line)
            THEN
                RETURN first_line;
            END IF;
        END IF;
        first_line := first_line + import.batch_lines;
    END LOOP;
    RETURN NULL;  -- every slice left is being written by another session
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_claim_batch(@schema@_internal.transfer_imports) IS
'Claim the first batch of the import past its checkpoint that is neither committed nor being '
'written (its advisory lock, to the end of the transaction); its first line, or NULL.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_batch_touches(
    tenant text, first_line bigint, last_line bigint, keys text []
) RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- The staged lines read as the batch itself reads them (transfer_next_lines): a JSON
    -- object that is no fact, or a fact of one of keys (whatever its scope: an order kept
    -- needlessly costs a wait, never an answer).
    SELECT EXISTS (
        SELECT 1
          FROM @schema@_internal.transfer_next_lines(
                   transfer_batch_touches.tenant, transfer_batch_touches.first_line - 1,
                   (transfer_batch_touches.last_line - transfer_batch_touches.first_line + 1)::integer)
               AS n
         WHERE n.record IS NOT NULL  -- a line that is no JSON object is only rejected
           AND (n.record ->> 'type' IS DISTINCT FROM 'fact'
                OR n.record ->> 'key' IN (SELECT k.key FROM pg_catalog.unnest(keys) AS k (key))))
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_batch_touches(text, bigint, bigint, text []) IS
'Whether the staged lines first_line to last_line hold a JSON object that is not a fact, or '
'a fact whose key is one of keys: a later batch then waits for them.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_await_earlier(
    import @schema@_internal.transfer_imports, first_line bigint, wait_all boolean, keys text []
) RETURNS boolean
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    earlier bigint := import.lines_done + 1;
BEGIN
    -- Each earlier batch not committed whose order with this one matters: wait until its
    -- session ends. Committed, it is seen by this batch's next statements; not (its write
    -- failed, or its session is gone), this batch must not go first: false. The wait takes
    -- the batch's lock shared: held to this transaction's end like any advisory xact lock,
    -- an exclusive one would make the other sessions waiting for the same batch wait for
    -- this one too, and a third session waiting for this batch's own slice deadlock with
    -- it. Claiming a batch only ever tries its lock, so it never queues behind a waiter.
    WHILE earlier < first_line LOOP
        IF NOT @schema@_internal.transfer_batch_done(import.tenant, import.import_id, earlier)
           AND (wait_all OR @schema@_internal.transfer_batch_touches(
                    import.tenant, earlier, earlier + import.batch_lines - 1, keys)) THEN
            PERFORM pg_catalog.pg_advisory_xact_lock_shared(
                @schema@_internal.transfer_batch_key(import.tenant, import.import_id, earlier));
            IF NOT @schema@_internal.transfer_batch_done(import.tenant, import.import_id, earlier) THEN
                RETURN false;
            END IF;
        END IF;
        earlier := earlier + import.batch_lines;
    END LOOP;
    RETURN true;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_await_earlier(
    @schema@_internal.transfer_imports, bigint, boolean, text []) IS
'Wait for each earlier batch of the import still in progress that the batch at first_line '
'must follow (all of them when wait_all; else those holding a non-fact line or a fact of '
'keys); false when one of them did not commit.';

-- Its signature was (text, bigint, bigint, bigint, jsonb, jsonb) until the rejected lines
-- were kept until the client wrote them (transfer_rejects).
DROP FUNCTION IF EXISTS @schema@_internal.transfer_checkpoint(text, bigint, bigint, bigint, jsonb, jsonb);
CREATE OR REPLACE FUNCTION @schema@_internal.transfer_checkpoint(
    tenant text, import_id bigint, first_line bigint, last_line bigint, outcome jsonb,
    rejects jsonb, rejects_through bigint, rejects_bytes bigint
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    import @schema@_internal.transfer_imports;
    before bigint;
    done bigint;
    reported bigint;
    after bigint;
    passed record;
    released jsonb;
BEGIN
    -- The batch (when one was written) as committed with this transaction, its rejected
    -- lines kept by line number; then, under the import's row lock (one checkpoint at a
    -- time, each statement after it seeing the batches committed before), the checkpoint
    -- moves over the committed batches that follow it. The client's report (its rejects
    -- file holds the rejects through line rejects_through, and is rejects_bytes long) is
    -- kept and the rejects it covers removed; the answer holds the rejects after it up to
    -- the checkpoint, in line order, however many earlier answers held them already (one
    -- may have been lost with its connection after its commit).
    SELECT i.* INTO import FROM @schema@_internal.transfer_imports AS i
     WHERE i.tenant = tenant AND i.import_id = import_id FOR NO KEY UPDATE;
    IF import.finished_at IS NOT NULL AND first_line IS NOT NULL THEN
        -- only import_abandon ends an import with a batch in progress
        RAISE EXCEPTION 'the import was ended while this batch was written' USING ERRCODE = '55000',
            DETAIL = pg_catalog.format('import %s, abandoned', import_id),
            HINT = 'nothing of this batch was written; import the file again to start over';
    END IF;
    IF import.finished_at IS NOT NULL THEN
        RETURN @schema@_internal.transfer_import_answer(import)
            || pg_catalog.jsonb_build_object('rejects', '[]'::jsonb, 'rejects_after', import.lines_done);
    END IF;
    before := import.lines_done;
    IF first_line IS NOT NULL THEN
        INSERT INTO @schema@_internal.transfer_batches (tenant, import_id, first_line, last_line)
        VALUES (tenant, import_id, first_line, last_line);
        INSERT INTO @schema@_internal.transfer_rejects (tenant, import_id, line_no, reason, message, line)
        SELECT tenant, import_id, r.line_no, r.reason, r.message, r.line
          FROM pg_catalog.jsonb_to_recordset(rejects) AS r (line_no bigint, reason text, message text, line text);
    END IF;
    done := before;
    FOR passed IN
        SELECT b.first_line, b.last_line FROM @schema@_internal.transfer_batches AS b
         WHERE b.tenant = tenant AND b.import_id = import_id AND b.first_line > before
         ORDER BY b.first_line
    LOOP
        EXIT WHEN passed.first_line <> done + 1;
        done := passed.last_line;
    END LOOP;
    DELETE FROM @schema@_internal.transfer_batches AS b
     WHERE b.tenant = tenant AND b.import_id = import_id AND b.first_line <= done;
    -- A client cannot have written rejects past the checkpoint it was told of. (LEAST
    -- ignores a NULL: no report is no report.)
    reported := CASE WHEN rejects_through IS NOT NULL THEN LEAST(rejects_through, before) END;
    IF reported IS NOT NULL AND reported >= import.rejects_through THEN
        DELETE FROM @schema@_internal.transfer_rejects AS r
         WHERE r.tenant = tenant AND r.import_id = import_id AND r.line_no <= reported;
    ELSE
        reported := NULL;  -- no report, or an older one than the import holds: kept as it is
    END IF;
    -- A caller that reports nothing is answered as before: the rejects the checkpoint
    -- passed in this call (kept until the import ends).
    after := coalesce(LEAST(rejects_through, before), before);  -- before when no report
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'line_no', r.line_no, 'reason', r.reason, 'message', r.message, 'line', r.line)
               ORDER BY r.line_no), '[]')
      INTO released
      FROM @schema@_internal.transfer_rejects AS r
     WHERE r.tenant = tenant AND r.import_id = import_id
       AND r.line_no > after AND r.line_no <= done;
    UPDATE @schema@_internal.transfer_imports AS i
       SET lines_done = done,
           inserted = i.inserted + coalesce((outcome ->> 'inserted')::bigint, 0),
           superseded = i.superseded + coalesce((outcome ->> 'superseded')::bigint, 0),
           duplicate = i.duplicate + coalesce((outcome ->> 'duplicate')::bigint, 0),
           rejected = i.rejected + coalesce((outcome ->> 'rejected')::bigint, 0)
                      + pg_catalog.jsonb_array_length(rejects),
           rejects_through = coalesce(reported, i.rejects_through),
           rejects_bytes = CASE WHEN reported IS NULL THEN i.rejects_bytes ELSE rejects_bytes END,
           finished_at = CASE WHEN done >= i.total_lines THEN pg_catalog.clock_timestamp() END
     WHERE i.tenant = tenant AND i.import_id = import_id
    RETURNING i.* INTO import;
    IF import.finished_at IS NOT NULL THEN
        -- every rejected line is in this answer
        DELETE FROM @schema@_internal.transfer_lines AS l WHERE l.tenant = tenant;
        DELETE FROM @schema@_internal.transfer_rejects AS r
         WHERE r.tenant = tenant AND r.import_id = import_id;
    END IF;
    RETURN @schema@_internal.transfer_import_answer(import)
        || pg_catalog.jsonb_build_object('rejects', released, 'rejects_after', after);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_checkpoint(
    text, bigint, bigint, bigint, jsonb, jsonb, bigint, bigint) IS
'Record a written batch (first_line to last_line, its outcome counts and rejects, kept in '
'transfer_rejects; none when first_line is NULL), move the import''s checkpoint over the '
'committed batches that follow it, keep the client''s report that its rejects file holds '
'the rejects through line rejects_through (rejects_bytes long; removing those), and finish '
'the import at its last line. Returns the import''s answer with rejects: the rejected lines '
'after rejects_through (or, with no report, after the checkpoint before this call) up to '
'the checkpoint, in line order, and rejects_after: the line they follow.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_write_batch(
    import @schema@_internal.transfer_imports, first_line bigint
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := import.tenant;
    batch jsonb;
    line_nos bigint [];
    records jsonb [];
    unparsed bigint [];
    keys text [];
    others boolean;
    outcome jsonb;
    rejects jsonb;
BEGIN
    -- The claimed batch written once the earlier ones it must follow have committed.
    -- Returns {outcome, rejects}, or NULL when one of them did not commit (nothing written).
    IF import.family = 'lossless' THEN
        IF NOT @schema@_internal.transfer_await_earlier(import, first_line, true, NULL) THEN
            RETURN NULL;
        END IF;
        SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(n) ORDER BY n.line_no) INTO batch
          FROM @schema@_internal.transfer_next_lines(tenant, first_line - 1, import.batch_lines) AS n;
        outcome := CASE WHEN batch IS NULL THEN '{}'::jsonb ELSE pg_catalog.jsonb_build_object(
            'inserted', @schema@_internal.transfer_restore_batch(
                tenant, @schema@_internal.transfer_lossless_lines(batch))) END;
    ELSE
        -- Plain lines as arrays (a jsonb of the batch would be built and taken apart again
        -- by every step). A line that is no JSON object is rejected here, an empty one
        -- skipped; the others go to the write rules.
        SELECT pg_catalog.array_agg(n.line_no ORDER BY n.line_no),
               pg_catalog.array_agg(n.record ORDER BY n.line_no),
               pg_catalog.array_agg(n.line_no ORDER BY n.line_no)
                   FILTER (WHERE n.record IS NULL AND n.line <> ''),
               pg_catalog.array_agg(n.record ->> 'key') FILTER (WHERE n.record ->> 'type' = 'fact'),
               coalesce(pg_catalog.bool_or(n.record ->> 'type' IS DISTINCT FROM 'fact')
                            FILTER (WHERE n.record IS NOT NULL), false)
          INTO line_nos, records, unparsed, keys, others
          FROM @schema@_internal.transfer_next_lines(tenant, first_line - 1, import.batch_lines) AS n;
        IF NOT @schema@_internal.transfer_await_earlier(import, first_line, others, keys) THEN
            RETURN NULL;
        END IF;
        outcome := @schema@_internal.transfer_plain_batch(tenant, line_nos, records);
        outcome := outcome || pg_catalog.jsonb_build_object('rejects', (outcome -> 'rejects') || coalesce((
            SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'line_no', u.line_no, 'reason', 'not_json_object',
                       'message', 'the line is not a JSON object'))
              FROM pg_catalog.unnest(unparsed) AS u (line_no)), '[]'));
    END IF;
    -- The rejected lines' text is read again from the staging table (few lines, by key).
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'line_no', r.line_no, 'reason', r.reason, 'message', r.message,
               'line', @schema@_internal.transfer_reject_line(l.line, p.record, r.reason, r.message))
               ORDER BY r.line_no), '[]')
      INTO rejects
      FROM pg_catalog.jsonb_to_recordset(coalesce(outcome -> 'rejects', '[]'))
           AS r (line_no bigint, reason text, message text)
      JOIN @schema@_internal.transfer_lines AS l ON l.tenant = tenant AND l.line_no = r.line_no
     CROSS JOIN LATERAL (
         SELECT CASE WHEN pg_catalog.pg_input_is_valid(l.line, 'jsonb')
                      AND pg_catalog.jsonb_typeof(l.line::jsonb) = 'object'
                     THEN l.line::jsonb END AS record) AS p;
    RETURN pg_catalog.jsonb_build_object('outcome', outcome - 'rejects', 'rejects', rejects);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_write_batch(@schema@_internal.transfer_imports, bigint) IS
'Write the claimed batch of the import starting at first_line (an export''s rows restored, '
'plain lines through the write rules), after the earlier batches it must follow. Returns '
'{outcome: counts, rejects: [{line_no, reason, message, line}]}, or NULL when an earlier '
'batch it must follow did not commit (nothing written).';

-- Its signature was (integer DEFAULT 5000) until the client reported what its rejects file
-- holds, and a resumed import kept its own batch size unless told another (PT004).
DROP FUNCTION IF EXISTS @schema@.import_batch(integer);
CREATE OR REPLACE FUNCTION @schema@.import_batch(
    batch_size integer DEFAULT NULL, rejects_through bigint DEFAULT NULL,
    rejects_bytes bigint DEFAULT NULL
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
    first_line bigint;
    written jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'import_batch');
    -- Batches written side by side see each other's commits through the fresh snapshot
    -- each statement takes under READ COMMITTED.
    PERFORM @schema@_internal.require_read_committed('import_batch');
    IF batch_size NOT BETWEEN 1 AND 100000 THEN
        RAISE EXCEPTION 'batch_size must be 1 to 100000' USING ERRCODE = '22023';
    END IF;
    IF rejects_through < 0 OR rejects_bytes < 0 THEN
        RAISE EXCEPTION 'rejects_through and rejects_bytes must not be negative'
            USING ERRCODE = '22023';
    END IF;
    import := @schema@_internal.transfer_open_import(tenant, true);
    IF import.total_lines IS NULL THEN
        RAISE EXCEPTION 'the import''s lines are not staged yet' USING ERRCODE = '55000',
            HINT = 'COPY the file into pg_temp.transfer_input (line), then call import_staged';
    END IF;
    IF import.batch_lines IS NULL THEN
        -- The first batch sets the slices every session cuts (another session's first
        -- batch may have set them meanwhile: it wins). Under a lock of its own, taken
        -- before the row is read again: an UPDATE that waited for another's and found its
        -- condition gone would keep the row locked, and a checkpoint would wait on it.
        PERFORM pg_catalog.pg_advisory_xact_lock(
            @schema@_internal.transfer_batch_key(tenant, import.import_id, 0));
        UPDATE @schema@_internal.transfer_imports AS i SET batch_lines = coalesce(batch_size, 5000)
         WHERE i.tenant = tenant AND i.import_id = import.import_id AND i.batch_lines IS NULL;
        SELECT i.* INTO import FROM @schema@_internal.transfer_imports AS i
         WHERE i.tenant = tenant AND i.import_id = import.import_id;
    END IF;
    IF batch_size <> import.batch_lines THEN
        -- Slices are cut once: a resumed import keeps its size, and is not told another.
        RAISE EXCEPTION 'the import''s batches hold % lines, not %', import.batch_lines, batch_size
            USING ERRCODE = 'PT004',
                  DETAIL = pg_catalog.format('import %s of %s, %s of %s lines done',
                      import.import_id, @schema@_internal.shown(import.file_name),
                      import.lines_done, import.total_lines),
                  HINT = pg_catalog.format('omit the batch size (--batch-size) to go on with %s '
                      'lines a batch, or end the import with pgfacts import --abandon and '
                      'import the file again', import.batch_lines);
    END IF;
    first_line := @schema@_internal.transfer_claim_batch(import);
    IF first_line IS NOT NULL THEN
        written := @schema@_internal.transfer_write_batch(import, first_line);
    ELSE
        -- Every batch left is being written by another session: wait for the first of
        -- them to end, then answer where the import stands.
        first_line := import.lines_done + 1;
        WHILE first_line <= import.total_lines
              AND @schema@_internal.transfer_batch_done(tenant, import.import_id, first_line) LOOP
            first_line := first_line + import.batch_lines;
        END LOOP;
        IF first_line <= import.total_lines THEN
            PERFORM pg_catalog.pg_advisory_xact_lock_shared(  -- shared, as transfer_await_earlier
                @schema@_internal.transfer_batch_key(tenant, import.import_id, first_line));
        END IF;
        first_line := NULL;
    END IF;
    IF written IS NULL THEN
        first_line := NULL;  -- nothing written
    END IF;
    RETURN @schema@_internal.transfer_checkpoint(
        tenant, import.import_id, first_line,
        LEAST(first_line + import.batch_lines - 1, import.total_lines),
        coalesce(written -> 'outcome', '{}'), coalesce(written -> 'rejects', '[]'),
        rejects_through, rejects_bytes)
        || pg_catalog.jsonb_build_object('written', first_line IS NOT NULL);
END
$fn$;

COMMENT ON FUNCTION @schema@.import_batch(integer, bigint, bigint) IS
'Operator only: write the next batch of the open import not committed nor being written by '
'another session, and move its checkpoint over the committed batches, in one transaction. '
'An import''s batches hold batch_size (1 to 100000, default 5000) lines as its first batch '
'set it; a later call names no batch_size or the same one (PT004 otherwise). Several '
'sessions may call it at once: a batch waits for an earlier one in progress '
'that writes one of its keys or holds a line other than a fact. An export''s rows are '
'restored as they are (PT003 for a line that is not one: nothing of the batch is written); '
'plain lines go through the write rules, each inserted, superseded, duplicate or rejected. '
'rejects_through: the line through which the caller''s rejects file holds the rejected '
'lines it was handed, rejects_bytes: that file''s length (kept with the import, which '
'answers them on resume). Returns what import_open does plus written (false when no batch '
'was left to write), rejects: [{line_no, reason, message, line}] (line: the record with '
'_error, valid input again), in line order, of the lines after rejects_through (or, when '
'it is NULL, of the batches the checkpoint passed in this call) up to the checkpoint, and '
'rejects_after (the line they follow); finished once every line is done.';

CREATE OR REPLACE FUNCTION @schema@.import_abandon() RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    import @schema@_internal.transfer_imports;
    released jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'import_abandon');
    import := @schema@_internal.transfer_open_import(tenant);
    -- The rejected lines of committed batches not yet in the client's rejects file, those
    -- ahead of the checkpoint included (their batches' writes stay, and are counted).
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'line_no', r.line_no, 'reason', r.reason, 'message', r.message, 'line', r.line)
               ORDER BY r.line_no), '[]')
      INTO released
      FROM @schema@_internal.transfer_rejects AS r
     WHERE r.tenant = tenant AND r.import_id = import.import_id
       AND r.line_no > import.rejects_through;
    DELETE FROM @schema@_internal.transfer_lines AS l WHERE l.tenant = tenant;
    DELETE FROM @schema@_internal.transfer_batches AS b
     WHERE b.tenant = tenant AND b.import_id = import.import_id;
    DELETE FROM @schema@_internal.transfer_rejects AS r
     WHERE r.tenant = tenant AND r.import_id = import.import_id;
    UPDATE @schema@_internal.transfer_imports AS i
       SET finished_at = pg_catalog.clock_timestamp(), abandoned = true
     WHERE i.tenant = tenant AND i.import_id = import.import_id
    RETURNING i.* INTO import;
    RETURN @schema@_internal.transfer_import_answer(import) || pg_catalog.jsonb_build_object(
        'abandoned', true, 'rejects', released, 'rejects_after', import.rejects_through);
END
$fn$;

COMMENT ON FUNCTION @schema@.import_abandon() IS
'Operator only: end the open import without finishing it (what its batches wrote stays); '
'its staged lines are removed. Returns what import_open does plus abandoned, and rejects: '
'the rejected lines of its committed batches (those ahead of the checkpoint too) after '
'rejects_through, the line through which the client reported its rejects file to hold '
'them, in line order (rejects_after: that line; rejects_bytes: that file''s length then). '
'P0002 when no import is open.';
