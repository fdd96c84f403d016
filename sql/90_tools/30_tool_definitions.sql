-- The tool definitions: the one source from which the OpenAI, Anthropic and MCP formats are
-- generated (pgfacts.tools in Python), readable by any language with one SELECT.

CREATE OR REPLACE FUNCTION @schema@.tool_definitions()
RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- A tool's kinds are the agent kinds allowed to run every API function it calls.
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'name', t.name,
               'kinds', (SELECT coalesce(pg_catalog.jsonb_agg(k.kind ORDER BY k.ord), '[]')
                           FROM pg_catalog.unnest(@schema@_internal.agent_kinds())
                                WITH ORDINALITY AS k (kind, ord)
                          WHERE NOT EXISTS (
                                SELECT 1 FROM pg_catalog.unnest(t.api_functions) AS f
                                 WHERE NOT pg_catalog.has_function_privilege(
                                     '@schema@_' || k.kind, f::regprocedure, 'EXECUTE'))),
               'description', t.description,
               'input_schema', t.input_schema) ORDER BY t.position), '[]')
      FROM @schema@_internal.tools AS t
$fn$;

COMMENT ON FUNCTION @schema@.tool_definitions() IS
'The agent tools call_tool implements: [{name, kinds, description, input_schema}] with JSON '
'Schema arguments; kinds lists the agent kinds that may call the tool (those granted every '
'API function it calls).';
