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

CREATE OR REPLACE FUNCTION @schema@_internal.tool_available(available_when text, tenant text)
RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    available boolean;
BEGIN
    IF available_when IS NULL THEN
        RETURN true;
    END IF;
    -- A function name register_tool checked, never input.
    EXECUTE pg_catalog.format('SELECT %s($1)', available_when) INTO available USING tenant;
    RETURN coalesce(available, false);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.tool_available(text, text) IS
'Whether a tool''s capability check (its available_when function) holds for the tenant; '
'true for a tool without one.';

CREATE OR REPLACE FUNCTION @schema@.available_tools()
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.context_kind();
BEGIN
    -- The one rule of what a caller is offered: its kind's grants (tool_definitions' kinds)
    -- and the tenant's capabilities; an MCP server lists exactly this.
    RETURN (SELECT coalesce(pg_catalog.jsonb_agg(d.value - 'kinds' - 'requires' ORDER BY d.ord), '[]')
              FROM pg_catalog.jsonb_array_elements(@schema@.tool_definitions())
                   WITH ORDINALITY AS d (value, ord)
             WHERE d.value -> 'kinds' ? kind
               AND @schema@_internal.tool_available(d.value ->> 'requires', tenant));
END
$fn$;

COMMENT ON FUNCTION @schema@.available_tools() IS
'The tools the caller context may use: tool_definitions() (without kinds and requires) '
'for the tools its agent kind may call and its tenant''s data supports (facts_similar '
'needs an embedding model). Needs a context (42501 without a tenant).';
