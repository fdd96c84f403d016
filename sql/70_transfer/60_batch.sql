-- import_batch: the next lines of the open import, written and checkpointed in one
-- transaction, so a batch is either done and counted or not begun.

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_next_lines(
    tenant text, after bigint, batch_size integer
) RETURNS TABLE (line_no bigint, line text, record jsonb)
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Each line parsed without raising (checked, then parsed once: MATERIALIZED keeps the
    -- cast from being repeated where the object is tested and returned): a line that is
    -- not a JSON object has no record.
    WITH parsed AS MATERIALIZED (
        SELECT l.line_no, l.line,
               CASE WHEN pg_catalog.pg_input_is_valid(l.line, 'jsonb') THEN l.line::jsonb END AS value
          FROM @schema@_internal.transfer_lines AS l
         WHERE l.tenant = transfer_next_lines.tenant AND l.line_no > transfer_next_lines.after
         ORDER BY l.line_no
         LIMIT transfer_next_lines.batch_size
    )
    SELECT p.line_no, p.line,
           CASE WHEN pg_catalog.jsonb_typeof(p.value) = 'object' THEN p.value END
      FROM parsed AS p
     ORDER BY p.line_no
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

CREATE OR REPLACE FUNCTION @schema@.import_batch(batch_size integer DEFAULT 5000)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    import @schema@_internal.transfer_imports;
    batch jsonb;
    line_nos bigint [];
    records jsonb [];
    unparsed bigint [];
    last_line bigint;
    outcome jsonb;
    rejects jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'import_batch');
    IF batch_size IS NULL OR batch_size NOT BETWEEN 1 AND 100000 THEN
        RAISE EXCEPTION 'batch_size must be 1 to 100000' USING ERRCODE = '22023';
    END IF;
    import := @schema@_internal.transfer_open_import(tenant);
    IF import.total_lines IS NULL THEN
        RAISE EXCEPTION 'the import''s lines are not staged yet' USING ERRCODE = '55000',
            HINT = 'COPY the file into pg_temp.transfer_input (line), then call import_staged';
    END IF;
    IF import.family = 'lossless' THEN
        SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(n) ORDER BY n.line_no), pg_catalog.max(n.line_no)
          INTO batch, last_line
          FROM @schema@_internal.transfer_next_lines(tenant, import.lines_done, batch_size) AS n;
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
               pg_catalog.max(n.line_no)
          INTO line_nos, records, unparsed, last_line
          FROM @schema@_internal.transfer_next_lines(tenant, import.lines_done, batch_size) AS n;
        IF line_nos IS NULL THEN
            outcome := '{}';
        ELSE
            outcome := @schema@_internal.transfer_plain_batch(tenant, line_nos, records);
            outcome := outcome || pg_catalog.jsonb_build_object('rejects', (outcome -> 'rejects') || coalesce((
                SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                           'line_no', u.line_no, 'reason', 'not_json_object',
                           'message', 'the line is not a JSON object'))
                  FROM pg_catalog.unnest(unparsed) AS u (line_no)), '[]'));
        END IF;
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

    UPDATE @schema@_internal.transfer_imports AS i
       SET lines_done = coalesce(last_line, i.total_lines),
           inserted = i.inserted + coalesce((outcome ->> 'inserted')::bigint, 0),
           superseded = i.superseded + coalesce((outcome ->> 'superseded')::bigint, 0),
           duplicate = i.duplicate + coalesce((outcome ->> 'duplicate')::bigint, 0),
           rejected = i.rejected + coalesce((outcome ->> 'rejected')::bigint, 0)
                      + pg_catalog.jsonb_array_length(rejects),
           finished_at = CASE WHEN coalesce(last_line, i.total_lines) >= i.total_lines
                              THEN pg_catalog.clock_timestamp() END
     WHERE i.tenant = tenant AND i.import_id = import.import_id
    RETURNING i.* INTO import;
    IF import.finished_at IS NOT NULL THEN
        DELETE FROM @schema@_internal.transfer_lines AS l WHERE l.tenant = tenant;
    END IF;
    RETURN @schema@_internal.transfer_import_answer(import)
        || pg_catalog.jsonb_build_object('rejects', rejects);
END
$fn$;

COMMENT ON FUNCTION @schema@.import_batch(integer) IS
'Operator only: write the next batch_size (1 to 100000, default 5000) staged lines of the '
'open import and move its checkpoint past them, in one transaction. An export''s rows are '
'restored as they are (PT003 for a line that is not one: nothing of the batch is written); '
'plain lines go through the write rules, each inserted, superseded, duplicate or rejected. '
'Returns what import_open does plus rejects: [{line_no, reason, message, line}] (line: the '
'record with _error, valid input again); finished once every line is done.';

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
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'import_abandon');
    import := @schema@_internal.transfer_open_import(tenant);
    DELETE FROM @schema@_internal.transfer_lines AS l WHERE l.tenant = tenant;
    UPDATE @schema@_internal.transfer_imports AS i
       SET finished_at = pg_catalog.clock_timestamp(), abandoned = true
     WHERE i.tenant = tenant AND i.import_id = import.import_id
    RETURNING i.* INTO import;
    RETURN @schema@_internal.transfer_import_answer(import) || '{"abandoned": true}';
END
$fn$;

COMMENT ON FUNCTION @schema@.import_abandon() IS
'Operator only: end the open import without finishing it (what its batches wrote stays); '
'its staged lines are removed. P0002 when no import is open.';
