-- The tool entry point and the tool definitions: every kind. What a tool may do is decided
-- by the grants of the API functions its handler calls (each layer's 99_grants.sql).

SELECT @schema@_internal.register_api('@schema@.call_tool(text,jsonb,jsonb)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.tool_definitions()', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.agent_prompt(integer)', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.available_tools()', @schema@_internal.agent_kinds());

SELECT @schema@_internal.grant_internal_functions();
