-- Layer: 00_foundation
--
-- What a host needs besides a tool's arguments (issue 23): the JSON Schema of its result and
-- its behaviour hints (MCP's readOnly, destructive and idempotent annotations), and the
-- capability a tool needs from the tenant beyond the caller's kind (available_when: a
-- predicate function of the tenant, e.g. an embedding model for facts_similar). Every
-- register_tool call states them. The registry holds no tenant's data and the definitions
-- refill it after the migrations, so its rows are dropped here instead of given defaults
-- that no tool chose.

SET LOCAL ROLE @schema@_owner;

DELETE FROM @schema@_internal.tools;

DROP FUNCTION IF EXISTS @schema@_internal.register_tool(text, text, text, text [], text, jsonb);

ALTER TABLE @schema@_internal.tools
ADD COLUMN output_schema jsonb NOT NULL,
ADD COLUMN read_only boolean NOT NULL,
ADD COLUMN destructive boolean NOT NULL,
ADD COLUMN idempotent boolean NOT NULL,
ADD COLUMN available_when text,
ADD CONSTRAINT tools_output_schema_object CHECK (
    pg_catalog.jsonb_typeof(output_schema) = 'object' AND output_schema ->> 'type' = 'object'
),
ADD CONSTRAINT tools_read_only_not_destructive CHECK (NOT (read_only AND destructive));

COMMENT ON COLUMN @schema@_internal.tools.output_schema IS
'JSON Schema of the tool''s result, an object at the root (MCP outputSchema).';
COMMENT ON COLUMN @schema@_internal.tools.available_when IS
'A function (tenant text) -> boolean that must hold for the tool to be offered to the '
'tenant (available_tools), or NULL: always.';
