-- A memory scope per run (issue 25): under memory_scope none (incognito, set_context) every
-- durable write is refused with PF011, and reads still work. Statement triggers of this
-- layer on every table that holds memory refuse any INSERT, UPDATE or DELETE while the
-- caller context says none; their WHEN clause is one comparison a statement, so a run in
-- another scope pays nothing measurable. The refusal names the API function the call
-- stack shows (the outermost), else the table. The session registry is not memory but who
-- is in which spawn tree: reads register the caller's session too (its visibility is its
-- tree's), so it is left out, and an incognito run's reads see its tree.

CREATE OR REPLACE FUNCTION @schema@_internal.refuse_incognito_write()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    stack text;
    api text;
BEGIN
    GET DIAGNOSTICS stack = PG_CONTEXT;
    -- The outermost API function of the stack: the last one it names.
    SELECT m[1] INTO api
      FROM pg_catalog.regexp_matches(stack, 'function @schema@\.([a-z_0-9]+)\(', 'g')
           WITH ORDINALITY AS r (m, n)
     ORDER BY r.n DESC
     LIMIT 1;
    RAISE EXCEPTION '% is a durable write, and this run''s memory scope is none (incognito)',
                    coalesce(api, TG_OP || ' on ' || TG_TABLE_NAME)
        USING ERRCODE = 'PF011',
              DETAIL = pg_catalog.format('it would write %s', TG_TABLE_NAME),
              HINT = 'under memory_scope none reads work and nothing is stored; set the '
                     'context with memory_scope => ''agent'' (or ''swarm'') to store';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.refuse_incognito_write() IS
'Statement trigger on the memory tables: PF011 for a write while the caller context''s memory '
'scope is none, naming the API function that wrote.';

CREATE OR REPLACE FUNCTION @schema@_internal.guard_incognito_tables(tables text [])
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    table_name text;
BEGIN
    FOREACH table_name IN ARRAY tables LOOP
        EXECUTE pg_catalog.format(
            'CREATE OR REPLACE TRIGGER %I BEFORE INSERT OR UPDATE OR DELETE ON %I.%I '
            'FOR EACH STATEMENT WHEN (@schema@_internal.context_memory_scope() = ''none'') '
            'EXECUTE FUNCTION @schema@_internal.refuse_incognito_write()',
            table_name || '_incognito', '@schema@_internal', table_name);
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.guard_incognito_tables(text []) IS
'Definitions only: (re)create the incognito trigger (refuse_incognito_write) on each named '
'internal table.';

-- Every table that holds a tenant's memory or what shapes it: working memory, knowledge and its vocabulary, the pipeline's memories and events, the graph,
-- embeddings, settings and redaction placeholders.
SELECT @schema@_internal.guard_incognito_tables(ARRAY[
    'facts', 'episodes', 'claims', 'claim_sources', 'entities', 'predicates',
    'retractions', 'override_requests', 'memories', 'extraction_events', 'graph_nodes',
    'graph_node_names', 'graph_edges', 'graph_node_evidence', 'graph_edge_evidence',
    'embedding_models', 'embeddings', 'settings', 'redaction_placeholders']);
