-- Which tables a tenant's export holds, in an order a restore can insert them (a table
-- after every table it references), each with the columns that order its rows (its
-- primary key). Read from the catalog, so a table or column another layer adds travels
-- without a change here; the exclusions are the only list.

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_excluded_tables()
RETURNS text []
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN ARRAY[
        -- the install's bindings of logins, not the tenant's memory
        'tenant_logins',
        -- this layer's own staging and checkpoints
        'transfer_imports', 'transfer_lines', 'transfer_batches', 'transfer_rejects',
        -- the AGE projection's state: rebuilt from graph_nodes and graph_edges after a
        -- restore (rebuild_graph_projection)
        'graph_projections', 'graph_projection_changes'];
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_excluded_tables() IS
'The tenant tables an export leaves out, each for a reason given in its body.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_optional_tables(
    embeddings boolean, audit boolean
) RETURNS text []
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Left out unless asked for: vectors are large and can be computed again; the audit
    -- is the source install's record.
    RETURN CASE WHEN embeddings THEN '{}'::text [] ELSE ARRAY['embeddings', 'replaced_fact_embeddings'] END
        || CASE WHEN audit THEN '{}'::text [] ELSE ARRAY['audit_log'] END;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_optional_tables(boolean, boolean) IS
'The tables an export leaves out unless asked: embeddings (the vectors) and audit_log.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_tables()
RETURNS TABLE (table_name text, depth integer, key_columns text [])
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH RECURSIVE tenant_tables AS (
        SELECT c.oid, c.relname::text AS table_name
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE n.nspname = '@schema@_internal' AND c.relkind = 'r'
           AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS a
                        WHERE a.attrelid = c.oid AND a.attname = 'tenant' AND NOT a.attisdropped)
           AND c.relname <> ALL (@schema@_internal.transfer_excluded_tables())
    ),
    refs AS (
        SELECT DISTINCT k.conrelid AS child, k.confrelid AS parent
          FROM pg_catalog.pg_constraint AS k
         WHERE k.contype = 'f' AND k.conrelid <> k.confrelid
           AND k.conrelid IN (SELECT t.oid FROM tenant_tables AS t)
           AND k.confrelid IN (SELECT t.oid FROM tenant_tables AS t)
    ),
    depths (oid, depth) AS (
        SELECT t.oid, 0 FROM tenant_tables AS t
        UNION ALL
        SELECT r.child, d.depth + 1 FROM depths AS d JOIN refs AS r ON r.parent = d.oid
         WHERE d.depth < 50
    )
    SELECT t.table_name, (SELECT pg_catalog.max(d.depth) FROM depths AS d WHERE d.oid = t.oid),
           ARRAY(SELECT a.attname::text
                   FROM pg_catalog.pg_index AS i
                   CROSS JOIN LATERAL pg_catalog.unnest(i.indkey) WITH ORDINALITY AS k (attnum, ord)
                   JOIN pg_catalog.pg_attribute AS a
                     ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                  WHERE i.indrelid = t.oid AND i.indisprimary AND a.attname <> 'tenant'
                  ORDER BY k.ord)
      FROM tenant_tables AS t
     ORDER BY 2, 1
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_tables() IS
'Every internal table with a tenant column but the excluded ones, by depth (a table after '
'the tables it references) and name, with its primary key''s columns but tenant.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_row_columns(table_name text)
RETURNS TABLE (column_name text, is_identity boolean)
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Columns a restore writes: all but tenant (the target's) and generated ones.
    SELECT a.attname::text, a.attidentity <> ''
      FROM pg_catalog.pg_attribute AS a
     WHERE a.attrelid = pg_catalog.format('%I.%I', '@schema@_internal', transfer_row_columns.table_name)::regclass
       AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
       AND a.attname <> 'tenant'
     ORDER BY a.attnum
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_row_columns(text) IS
'The columns of an exported table a restore writes (not tenant, not generated), in order, '
'and whether each is an identity column.';
