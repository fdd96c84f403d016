-- The registry every layer declares its API through, from its own folder:
-- * register_api(function, kinds) in sql/<layer>/99_grants.sql: who may call a function;
-- * register_tool(...) in sql/<layer>/95_tools.sql: an agent tool, its handler and schema.
-- The catalog test (tests/test_api_catalog.py) checks every registration against the SQL
-- comments, the Python client and docs/sql-api.md.

CREATE OR REPLACE FUNCTION @schema@_internal.register_api(signature text, kinds text [])
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    fn regprocedure := pg_catalog.to_regprocedure(signature);
    kind text;
BEGIN
    IF fn IS NULL THEN
        RAISE EXCEPTION 'register_api: no function %', signature USING ERRCODE = '42883';
    END IF;
    IF kinds IS NULL OR NOT kinds <@ @schema@_internal.agent_kinds() THEN
        RAISE EXCEPTION 'register_api: % names an unknown agent kind in %', signature, kinds
            USING ERRCODE = '22023';
    END IF;
    -- Exactly these kinds, whatever an earlier version of the definitions granted, granted
    -- in one order so an upgraded install's ACL reads like a fresh one's.
    EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM PUBLIC, %s', fn,
                              @schema@_internal.kind_roles(@schema@_internal.agent_kinds()));
    FOREACH kind IN ARRAY @schema@_internal.agent_kinds() LOOP
        IF kind = ANY (kinds) THEN
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %I', fn, '@schema@_' || kind);
        END IF;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.register_api(text, text []) IS
'Definitions only: make an API function callable by exactly these agent kinds (none: a DBA '
'function) and by nobody else.';

CREATE OR REPLACE FUNCTION @schema@_internal.register_tool(
    layer text, name text, handler text, api_functions text [], description text,
    input_schema jsonb, output_schema jsonb, read_only boolean, destructive boolean,
    idempotent boolean, available_when text DEFAULT NULL
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    api_function text;
BEGIN
    IF pg_catalog.to_regprocedure(handler || '(jsonb)') IS NULL THEN
        RAISE EXCEPTION 'register_tool: % has no handler %(jsonb)', name, handler
            USING ERRCODE = '42883';
    END IF;
    FOREACH api_function IN ARRAY api_functions LOOP
        IF pg_catalog.to_regprocedure(api_function) IS NULL THEN
            RAISE EXCEPTION 'register_tool: % calls no function %', name, api_function
                USING ERRCODE = '42883';
        END IF;
    END LOOP;
    -- Hosts read the hints as promises, so none may be left to a default.
    IF read_only IS NULL OR destructive IS NULL OR idempotent IS NULL THEN
        RAISE EXCEPTION 'register_tool: % needs read_only, destructive and idempotent', name
            USING ERRCODE = '22004';
    END IF;
    IF output_schema IS NULL OR pg_catalog.jsonb_typeof(output_schema) <> 'object'
       OR output_schema ->> 'type' IS DISTINCT FROM 'object' THEN
        RAISE EXCEPTION 'register_tool: % needs an output_schema with type object at its root', name
            USING ERRCODE = '22023';
    END IF;
    IF available_when IS NOT NULL
       AND pg_catalog.to_regprocedure(available_when || '(text)') IS NULL THEN
        RAISE EXCEPTION 'register_tool: % has no capability check %(text)', name, available_when
            USING ERRCODE = '42883';
    END IF;
    INSERT INTO @schema@_internal.tools AS t (
        name, layer, position, handler, api_functions, arguments, description, input_schema,
        output_schema, read_only, destructive, idempotent, available_when)
    VALUES (name, layer,
            (SELECT coalesce(pg_catalog.max(o.position), 0) + 1 FROM @schema@_internal.tools AS o),
            handler, api_functions,
            ARRAY(SELECT pg_catalog.jsonb_object_keys(input_schema -> 'properties')),
            description, input_schema, output_schema, read_only, destructive, idempotent,
            available_when);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.register_tool(
    text, text, text, text [], text, jsonb, jsonb, boolean, boolean, boolean, text
) IS
'Definitions only: declare an agent tool. call_tool accepts the input_schema''s properties '
'and passes them to handler(jsonb); the tool''s kinds are those allowed to run every one of '
'api_functions. output_schema describes its result; read_only, destructive and idempotent '
'are its hints for hosts; available_when (a function of the tenant) must hold for the tool '
'to be offered.';

CREATE OR REPLACE FUNCTION @schema@_internal.grant_internal_functions()
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    fn regprocedure;
BEGIN
    -- Internal helpers run inside API functions as the caller (invoker), so every kind and
    -- the maintainer may execute them; PUBLIC may not. The definition-time helpers above run
    -- as the owner only, and so do the advisory lock key functions (15_lock_keys.sql and
    -- the *_lock_key functions built on it: a key hashes the install secret; only SECURITY
    -- DEFINER functions call them), and renewing that secret. The maintainer's own
    -- function keeps the grants it set itself.
    FOR fn IN
        SELECT p.oid::regprocedure FROM pg_catalog.pg_proc AS p
         WHERE p.pronamespace = '@schema@_internal'::regnamespace
           AND p.proowner = '@schema@_owner'::regrole
    LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', fn);
        IF fn::text ~ '\.(register_api|register_tool|register_setting|grant_internal_functions|isolate_tenants|renew_lock_key_secret|[a-z_]*lock_key)\(' THEN
            EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM %s', fn,
                @schema@_internal.kind_roles(@schema@_internal.agent_kinds()) || ', @schema@_maintainer');
        ELSE
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s', fn,
                @schema@_internal.kind_roles(@schema@_internal.agent_kinds()) || ', @schema@_maintainer');
        END IF;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.grant_internal_functions() IS
'Definitions only: let every agent kind and the maintainer run the internal helpers (not '
'PUBLIC, not the definition-time helpers); each layer''s grants file calls it last.';

-- The definitions are applied together in one transaction: the layers register their tools
-- again below, so a tool removed from the definitions leaves the registry too.
DELETE FROM @schema@_internal.tools;
