-- Grants, re-applied with every definition change so new functions are never left out.
--
-- The API schema is usable by every agent kind; internal tables are not granted here:
-- each layer grants exactly what its kinds need in its own file.

GRANT USAGE ON SCHEMA @schema@ TO
    @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_tuner, @schema@_operator;
GRANT USAGE ON SCHEMA @schema@_internal TO
    @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_tuner, @schema@_operator;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA @schema@ FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA @schema@_internal FROM PUBLIC;

GRANT EXECUTE ON FUNCTION
    @schema@.set_context(text, text, text, text, text),
    @schema@.current_context(),
    @schema@.schema_version(),
    @schema@_internal.context_tenant()
TO @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_tuner, @schema@_operator;
