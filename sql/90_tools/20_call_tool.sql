-- call_tool: the agent tool contract (validation, defaults, return shapes) implemented once
-- for every caller: Python, the CLI, MCP, or any language that can run one SQL statement.
-- The tools themselves are registered by their layers (sql/<layer>/95_tools.sql).

CREATE OR REPLACE FUNCTION @schema@.call_tool(
    name text,
    args jsonb DEFAULT '{}',
    context jsonb DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    handler text;
    arguments text [];
    result jsonb;
BEGIN
    IF context IS NOT NULL THEN
        IF pg_catalog.jsonb_typeof(context) <> 'object' THEN
            RAISE EXCEPTION 'context must be a JSON object' USING ERRCODE = '22023';
        END IF;
        -- Assignments, not PERFORMs (queries): every tool call pays for these.
        context := @schema@_internal.tool_args('context', context,
            ARRAY['tenant', 'session_id', 'agent_id', 'agent_kind', 'parent_session_id',
                  'memory_scope']);
        result := @schema@.set_context(
            tenant => @schema@_internal.arg_text(context, 'tenant'),
            session_id => @schema@_internal.arg_text(context, 'session_id'),
            agent_id => @schema@_internal.arg_text(context, 'agent_id'),
            agent_kind => coalesce(@schema@_internal.arg_text(context, 'agent_kind'), 'agent'),
            parent_session_id => @schema@_internal.arg_text(context, 'parent_session_id'),
            memory_scope => coalesce(@schema@_internal.arg_text(context, 'memory_scope'),
                                     'agent'));
    END IF;

    IF pg_catalog.length(name) > 64 THEN
        PERFORM @schema@_internal.check_text(name, 'a tool name', 64);
    END IF;
    -- Only what dispatch needs: a registry row also holds the description and schema.
    SELECT t.handler, t.arguments INTO handler, arguments
      FROM @schema@_internal.tools AS t WHERE t.name = call_tool.name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tool %', @schema@_internal.shown(name)
            USING ERRCODE = '22023',
                  HINT = 'see ' || '@schema@' || '.tool_definitions() for the tools';
    END IF;
    -- The handler is a registered function name (register_tool checked it), never input.
    EXECUTE pg_catalog.format('SELECT %s($1)', handler)
       INTO result
      USING @schema@_internal.tool_args(name, args, arguments);
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.call_tool(text, jsonb, jsonb) IS
'Run an agent tool by name with JSON arguments, exactly as the tool contract specifies '
'(validation, defaults, return shape); tool_definitions() lists the tools. context '
'(optional) sets the caller context first: {tenant, session_id, agent_id, agent_kind, '
'parent_session_id, memory_scope}, so one statement is one round trip.';
