-- The lossless family: rows written as an export holds them. The earlier layers' triggers
-- would give each row a new system time, etag and audit entry, so the rows are written
-- with user triggers off (session_replication_role = replica, for this call only; the
-- owner alone may set it, migration 0047). Checks, keys and exclusion constraints still
-- hold; what a trigger would have derived (search documents) travels in the rows.

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_sequence_columns()
RETURNS TABLE (table_name text, column_name text, sequence_name text)
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Numbers drawn from a shared sequence by a trigger or a write path rather than by an
    -- identity column: a restore moves the sequence past the restored numbers.
    VALUES ('facts', 'etag', 'facts_etag_seq'),
           ('fact_versions', 'etag', 'facts_etag_seq'),
           ('episodes', 'event_seq', 'knowledge_event_seq'),
           ('retractions', 'retracted_seq', 'knowledge_event_seq'),
           ('retractions', 'restored_seq', 'knowledge_event_seq')
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_sequence_columns() IS
'The columns whose numbers come from a shared sequence other than an identity column.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_advance_sequences(
    table_name text, restored jsonb
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    numbered record;
BEGIN
    -- Sequences are shared by all tenants and only ever move forward here, so a later
    -- write of the restored tenant never draws a number its rows already hold.
    FOR numbered IN
        SELECT c.column_name,
               pg_catalog.pg_get_serial_sequence(
                   pg_catalog.format('%I.%I', '@schema@_internal', table_name), c.column_name)
                   AS sequence_name
          FROM @schema@_internal.transfer_row_columns(table_name) AS c WHERE c.is_identity
        UNION ALL
        SELECT s.column_name, pg_catalog.format('%I.%I', '@schema@_internal', s.sequence_name)
          FROM @schema@_internal.transfer_sequence_columns() AS s
         WHERE s.table_name = table_name
    LOOP
        PERFORM pg_catalog.setval(numbered.sequence_name::regclass, m.top)
           FROM (SELECT pg_catalog.max((e.item ->> numbered.column_name)::bigint) AS top
                   FROM pg_catalog.jsonb_array_elements(restored) AS e (item)) AS m
          WHERE m.top > coalesce(pg_catalog.pg_sequence_last_value(numbered.sequence_name::regclass), 0);
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_advance_sequences(text, jsonb) IS
'Move the sequences of a table''s identity and sequence-drawn columns past the largest '
'number the restored rows hold (never back).';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_restore_table(
    tenant text, table_name text, restored jsonb
) RETURNS bigint
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET session_replication_role = 'replica'
AS $fn$
DECLARE
    given text [];
    known text [];
    unknown text;
    written bigint;
BEGIN
    SELECT pg_catalog.array_agg(DISTINCT k.key) INTO given
      FROM pg_catalog.jsonb_array_elements(restored) AS e (item)
     CROSS JOIN LATERAL pg_catalog.jsonb_object_keys(e.item) AS k (key);
    SELECT pg_catalog.array_agg(c.column_name ORDER BY c.column_name) INTO known
      FROM @schema@_internal.transfer_row_columns(table_name) AS c;
    SELECT g INTO unknown FROM pg_catalog.unnest(given) AS g WHERE g <> ALL (known) LIMIT 1;
    IF unknown IS NOT NULL THEN
        RAISE EXCEPTION 'table % has no column %', table_name, @schema@_internal.shown(unknown)
            USING ERRCODE = 'PT003',
                  HINT = 'the export comes from a newer install: migrate this one first';
    END IF;
    -- A column the rows leave out (an export from before it existed) takes its default.
    EXECUTE pg_catalog.format(
        'INSERT INTO %1$I.%2$I (tenant, %3$s) OVERRIDING SYSTEM VALUE '
        'SELECT $1, %4$s FROM pg_catalog.jsonb_array_elements($2) AS e (item) '
        'CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::%1$I.%2$I, e.item) AS r',
        '@schema@_internal', table_name,
        (SELECT pg_catalog.string_agg(pg_catalog.format('%I', g), ', ' ORDER BY g)
           FROM pg_catalog.unnest(given) AS g),
        (SELECT pg_catalog.string_agg(pg_catalog.format('r.%I', g), ', ' ORDER BY g)
           FROM pg_catalog.unnest(given) AS g))
    USING tenant, restored;
    GET DIAGNOSTICS written = ROW_COUNT;
    PERFORM @schema@_internal.transfer_advance_sequences(table_name, restored);
    RETURN written;
EXCEPTION
    WHEN integrity_constraint_violation OR data_exception THEN
        RAISE EXCEPTION 'a row of table % cannot be restored', table_name
            USING ERRCODE = 'PT003', DETAIL = @schema@_internal.shown(SQLERRM),
                  HINT = 'the file is not an unchanged pgfacts export; nothing of this batch '
                         'was written (pgfacts import --abandon ends the import)';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_restore_table(text, text, jsonb) IS
'Insert exported rows of one table into tenant as they are (ids, system times, etags), '
'with user triggers off; PT003 for a column the table lacks or a row it refuses.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_restore_batch(tenant text, lines jsonb)
RETURNS bigint
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tables text [] := ARRAY(SELECT t.table_name FROM @schema@_internal.transfer_tables() AS t);
    part record;
    written bigint := 0;
BEGIN
    -- lines: [{line_no, record}] in file order; each table's rows in one statement, the
    -- tables in the order the file has them (an export's: referenced tables first).
    FOR part IN
        SELECT l.record ->> 'table' AS table_name,
               pg_catalog.jsonb_agg(l.record -> 'row' ORDER BY l.line_no) AS restored,
               pg_catalog.min(l.line_no) AS first_line,
               pg_catalog.bool_and(pg_catalog.jsonb_typeof(l.record -> 'row') = 'object') AS shaped
          FROM pg_catalog.jsonb_to_recordset(lines) AS l (line_no bigint, record jsonb)
         GROUP BY 1 ORDER BY 3
    LOOP
        IF part.table_name IS NULL OR part.table_name <> ALL (tables) OR NOT part.shaped THEN
            RAISE EXCEPTION 'line % is not a row of a table an export holds', part.first_line
                USING ERRCODE = 'PT003',
                      DETAIL = pg_catalog.format('table %s', @schema@_internal.shown(part.table_name)),
                      HINT = 'a line of an export is {"type": "row", "table": ..., "row": {...}}';
        END IF;
        written := written + @schema@_internal.transfer_restore_table(
            tenant, part.table_name, part.restored);
    END LOOP;
    RETURN written;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_restore_batch(text, jsonb) IS
'Restore a batch of export lines [{line_no, record}] into tenant, table by table in file '
'order; returns the rows written. PT003 for a line that is not a row of an exported table.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_tenant_holds_rows(tenant text)
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    exported record;
    found boolean;
BEGIN
    -- The audit does not count: binding a login to the new tenant already wrote to it.
    FOR exported IN
        SELECT t.table_name FROM @schema@_internal.transfer_tables() AS t
         WHERE t.table_name <> 'audit_log' ORDER BY t.depth, t.table_name
    LOOP
        EXECUTE pg_catalog.format('SELECT EXISTS (SELECT 1 FROM %I.%I AS r WHERE r.tenant = $1)',
                                  '@schema@_internal', exported.table_name)
           INTO found USING tenant;
        IF found THEN
            RETURN exported.table_name;
        END IF;
    END LOOP;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_tenant_holds_rows(text) IS
'The first exported table (the audit aside) holding a row of tenant, or NULL when it is empty.';
