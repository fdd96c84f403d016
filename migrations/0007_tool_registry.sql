SET LOCAL ROLE @schema@_owner;

-- The agent tools each layer registers (sql/<layer>/95_tools.sql): call_tool dispatches by
-- this table and tool_definitions() renders it. It describes the install, not a tenant, so
-- it has no tenant column; the definitions refill it whenever they are applied.
CREATE TABLE @schema@_internal.tools (
    name text NOT NULL,
    layer text NOT NULL,
    position integer NOT NULL,
    -- Function name of the handler, which takes the checked arguments and returns jsonb.
    handler text NOT NULL,
    -- The API functions the handler calls: the agent kinds allowed to run every one of them
    -- are the tool's kinds (tool_definitions), so a tool's kinds are its grants.
    api_functions text [] NOT NULL,
    arguments text [] NOT NULL,
    description text NOT NULL,
    input_schema jsonb NOT NULL,
    CONSTRAINT tools_pkey PRIMARY KEY (name),
    CONSTRAINT tools_position_key UNIQUE (position),
    CONSTRAINT tools_input_schema_object CHECK (pg_catalog.jsonb_typeof(input_schema) = 'object')
);

COMMENT ON TABLE @schema@_internal.tools IS
'The agent tools of this install, one row per tool, written by register_tool() from each '
'layer''s definitions; read by call_tool and tool_definitions.';
