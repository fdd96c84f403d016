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
    -- open_world is false for every tool: each one reads and writes this database only.
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
               'input_schema', t.input_schema,
               'output_schema', t.output_schema,
               'hints', pg_catalog.jsonb_build_object(
                   'read_only', t.read_only, 'destructive', t.destructive,
                   'idempotent', t.idempotent, 'open_world', false),
               'requires', t.available_when) ORDER BY t.position), '[]')
      FROM @schema@_internal.tools AS t
$fn$;

COMMENT ON FUNCTION @schema@.tool_definitions() IS
'The agent tools call_tool implements: [{name, kinds, description, input_schema, '
'output_schema, hints: {read_only, destructive, idempotent, open_world}, requires}] with '
'JSON Schema arguments and results; kinds lists the agent kinds that may call the tool '
'(those granted every API function it calls); requires names the check of the tenant the '
'tool needs beyond the kind (null: none), which available_tools() applies.';

-- SECURITY DEFINER: a capability check reads tables no agent kind may read (whether the
-- tenant has an embedding model), for the context's own tenant only. It runs the check
-- the registry names for the tool, so no caller chooses what runs.
CREATE OR REPLACE FUNCTION @schema@_internal.tool_available(tool text)
RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    check_function text;
    available boolean;
BEGIN
    SELECT t.available_when INTO check_function
      FROM @schema@_internal.tools AS t WHERE t.name = tool_available.tool;
    IF check_function IS NULL THEN
        RETURN FOUND;  -- no check: available; no such tool: not
    END IF;
    EXECUTE pg_catalog.format('SELECT %s($1)', check_function)
       INTO available USING @schema@_internal.context_tenant();
    RETURN coalesce(available, false);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.tool_available(text) IS
'Whether the tool''s capability check (its registered available_when function) holds for '
'the context''s tenant; true for a tool without one, false for an unknown tool.';

CREATE OR REPLACE FUNCTION @schema@.available_tools()
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    kind text := @schema@_internal.context_kind();
BEGIN
    PERFORM @schema@_internal.context_tenant();  -- 42501 without a tenant, before any check
    -- The one rule of what a caller is offered: its kind's grants (tool_definitions' kinds)
    -- and the tenant's capabilities; an MCP server lists exactly this.
    RETURN (SELECT coalesce(pg_catalog.jsonb_agg(d.value - 'kinds' - 'requires' ORDER BY d.ord), '[]')
              FROM pg_catalog.jsonb_array_elements(@schema@.tool_definitions())
                   WITH ORDINALITY AS d (value, ord)
             WHERE d.value -> 'kinds' ? kind
               AND @schema@_internal.tool_available(d.value ->> 'name'));
END
$fn$;

COMMENT ON FUNCTION @schema@.available_tools() IS
'The tools the caller context may use: tool_definitions() (without kinds and requires) '
'for the tools its agent kind may call and its tenant''s data supports (facts_similar '
'needs an embedding model). Needs a context (42501 without a tenant).';
