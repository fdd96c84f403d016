-- call_tool: the agent tool contract (validation, defaults, return shapes) implemented once
-- for every caller: Python, the CLI, MCP, or any language that can run one SQL statement.

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
    a jsonb;
    result jsonb;
BEGIN
    IF context IS NOT NULL THEN
        IF pg_catalog.jsonb_typeof(context) <> 'object' THEN
            RAISE EXCEPTION 'context must be a JSON object' USING ERRCODE = '22023';
        END IF;
        PERFORM @schema@_internal.tool_args('context', context,
            ARRAY['tenant', 'session_id', 'agent_id', 'agent_kind', 'parent_session_id']);
        PERFORM @schema@.set_context(
            tenant => @schema@_internal.arg_text(context, 'tenant'),
            session_id => @schema@_internal.arg_text(context, 'session_id'),
            agent_id => @schema@_internal.arg_text(context, 'agent_id'),
            agent_kind => coalesce(@schema@_internal.arg_text(context, 'agent_kind'), 'agent'),
            parent_session_id => @schema@_internal.arg_text(context, 'parent_session_id'));
    END IF;

    CASE name
    WHEN 'store_fact' THEN
        a := @schema@_internal.tool_args(name, args, ARRAY['key', 'value', 'tags', 'shared', 'facts']);
        IF pg_catalog.jsonb_typeof(a -> 'facts') IS NOT NULL AND pg_catalog.jsonb_typeof(a -> 'facts') <> 'null' THEN
            -- The batch form: top-level key and value are ignored, as the contract says.
            result := @schema@.store_facts(facts => a -> 'facts');
        ELSE
            IF NOT (a ? 'key' AND a ? 'value') THEN
                RAISE EXCEPTION 'store_fact needs {key, value} or facts: [{key, value}, ...]'
                    USING ERRCODE = '22023';
            END IF;
            result := @schema@.store_fact(
                key => @schema@_internal.arg_text(a, 'key'),
                value => a -> 'value',
                tags => @schema@_internal.arg_text_array(a, 'tags'),
                shared => coalesce(@schema@_internal.arg_bool(a, 'shared'), false));
        END IF;
    WHEN 'read_facts' THEN
        a := @schema@_internal.tool_args(name, args,
            ARRAY['key_pattern', 'tags', 'session_id', 'agent_id', 'limit', 'scope', 'known_at']);
        SELECT pg_catalog.jsonb_build_object(
                   'count', pg_catalog.count(*),
                   'facts', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'key', r.key, 'value', r.value, 'scopeKey', r.scope_key,
                       'shared', r.shared, 'sessionId', r.fact_session_id,
                       'agentId', r.fact_agent_id, 'tags', r.fact_tags,
                       'createdAt', r.created_at, 'updatedAt', r.updated_at, 'etag', r.etag)
                       ORDER BY r.ord), '[]'))
          INTO result
          FROM @schema@.read_facts(
                   key_pattern => @schema@_internal.arg_text(a, 'key_pattern'),
                   tags => @schema@_internal.arg_text_array(a, 'tags'),
                   session_id => @schema@_internal.arg_text(a, 'session_id'),
                   agent_id => @schema@_internal.arg_text(a, 'agent_id'),
                   "limit" => coalesce(@schema@_internal.arg_int(a, 'limit'), 50),
                   scope => coalesce(@schema@_internal.arg_text(a, 'scope'), 'accessible'),
                   known_at => @schema@_internal.arg_timestamp(a, 'known_at'))
               WITH ORDINALITY AS r (scope_key, key, value, shared, fact_session_id, fact_agent_id,
                                     fact_tags, created_at, updated_at, etag, ord);
    WHEN 'delete_fact' THEN
        a := @schema@_internal.tool_args(name, args, ARRAY['key', 'shared', 'pattern', 'scope']);
        result := @schema@.delete_fact(
            key => @schema@_internal.arg_text(a, 'key'),
            shared => coalesce(@schema@_internal.arg_bool(a, 'shared'), false),
            pattern => coalesce(@schema@_internal.arg_bool(a, 'pattern'), false),
            scope => @schema@_internal.arg_text(a, 'scope'));
    WHEN 'delete_session' THEN
        a := @schema@_internal.tool_args(name, args, ARRAY['session_id']);
        result := @schema@.delete_session(session_id => @schema@_internal.arg_text(a, 'session_id'));
    WHEN 'fact_history' THEN
        a := @schema@_internal.tool_args(name, args, ARRAY['key', 'shared', 'session_id']);
        SELECT pg_catalog.jsonb_build_object(
                   'key', @schema@_internal.arg_text(a, 'key'),
                   'versions', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'value', h.value, 'tags', h.fact_tags, 'agentId', h.fact_agent_id,
                       'etag', h.etag, 'deleted', h.deleted, 'knownFrom', h.known_from,
                       'knownTo', h.known_to, 'current', h.current) ORDER BY h.ord), '[]'))
          INTO result
          FROM @schema@.fact_history(
                   key => @schema@_internal.arg_text(a, 'key'),
                   shared => coalesce(@schema@_internal.arg_bool(a, 'shared'), false),
                   session_id => @schema@_internal.arg_text(a, 'session_id'))
               WITH ORDINALITY AS h (scope_key, value, fact_tags, fact_agent_id, etag, deleted,
                                     known_from, known_to, current, ord);
    WHEN 'facts_read_uncrawled' THEN
        a := @schema@_internal.tool_args(name, args, ARRAY['keyPrefix', 'limit']);
        result := @schema@.facts_read_uncrawled(
            key_prefix => @schema@_internal.arg_text(a, 'keyPrefix'),
            "limit" => coalesce(@schema@_internal.arg_int(a, 'limit'), 20));
    WHEN 'facts_set_crawled' THEN
        a := @schema@_internal.tool_args(name, args, ARRAY['scopeKeys', 'keyPrefix', 'crawled']);
        IF pg_catalog.jsonb_typeof(a -> 'scopeKeys') = 'null' THEN
            a := a - 'scopeKeys';
        END IF;
        result := @schema@.facts_set_crawled(
            scope_keys => a -> 'scopeKeys',
            key_prefix => @schema@_internal.arg_text(a, 'keyPrefix'),
            crawled => coalesce(@schema@_internal.arg_bool(a, 'crawled'), true));
    ELSE
        RAISE EXCEPTION 'unknown tool %', pg_catalog.quote_nullable(name)
            USING ERRCODE = '22023',
                  HINT = 'see ' || '@schema@' || '.tool_definitions() for the tools';
    END CASE;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.call_tool(text, jsonb, jsonb) IS
'Run an agent tool by name with JSON arguments, exactly as the tool contract specifies '
'(validation, defaults, return shape): store_fact, read_facts, delete_fact, delete_session, '
'fact_history, facts_read_uncrawled, facts_set_crawled. context (optional) sets the caller '
'context first: {tenant, session_id, agent_id, agent_kind, parent_session_id}, so one '
'statement is one round trip.';
