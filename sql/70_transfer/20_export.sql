-- export_tenant: every row of the caller's tenant as JSON Lines, history included, in an
-- order a restore can insert them. The same data gives the same bytes: the settings that
-- shape a value's text (time zone, date style, float digits) are pinned, rows come in
-- primary key order and jsonb's text form is canonical.

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_header(embeddings boolean, audit boolean)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- No tenant, no instant: the same data exported twice, or restored under another
    -- name and exported again, gives the same file.
    RETURN pg_catalog.jsonb_build_object('type', 'pgfacts_export', 'version', 1,
                                         'embeddings', embeddings, 'audit', audit);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_header(boolean, boolean) IS
'The first line of an export: {type: pgfacts_export, version: 1, embeddings, audit}.';

CREATE OR REPLACE FUNCTION @schema@.export_tenant(
    embeddings boolean DEFAULT false, audit boolean DEFAULT false
) RETURNS SETOF text
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET timezone = 'UTC'
SET datestyle = 'ISO, YMD'
SET intervalstyle = 'iso_8601'
SET extra_float_digits = 1
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    skipped text [] := @schema@_internal.transfer_optional_tables(
        coalesce(embeddings, false), coalesce(audit, false));
    exported record;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'export_tenant');
    RETURN NEXT @schema@_internal.transfer_header(
        coalesce(embeddings, false), coalesce(audit, false))::text;
    FOR exported IN
        SELECT t.table_name, t.key_columns FROM @schema@_internal.transfer_tables() AS t
         WHERE t.table_name <> ALL (skipped)
    LOOP
        RETURN QUERY EXECUTE pg_catalog.format(
            'SELECT pg_catalog.jsonb_build_object(''type'', ''row'', ''table'', %L, '
            '''row'', pg_catalog.to_jsonb(r) OPERATOR(pg_catalog.-) ''tenant''::text)::text '
            'FROM %I.%I AS r WHERE r.tenant OPERATOR(pg_catalog.=) $1 ORDER BY %s',
            exported.table_name, '@schema@_internal', exported.table_name,
            -- A table keyed by tenant alone holds one row: its line orders it.
            coalesce((SELECT pg_catalog.string_agg(pg_catalog.format('r.%I', k), ', ')
                        FROM pg_catalog.unnest(exported.key_columns) AS k), '1'))
        USING tenant;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@.export_tenant(boolean, boolean) IS
'Operator only: the caller''s tenant as JSON Lines, one text per line: a header {type: '
'pgfacts_export, version: 1, embeddings, audit}, then {type: row, table, row} for every row '
'of every tenant table (facts and their versions, sessions, predicates, entities, episodes, '
'claims and their sources, retractions, graph nodes, edges and evidence, settings, ...; the '
'row as the table holds it, system times included, without tenant), a table after those it '
'references, rows in primary key order. embeddings adds the vectors, audit the audit log. '
'The same data gives the same bytes; import_open restores it into an empty tenant.';
