-- Argument checks for call_tool: JSON tool arguments to typed SQL values, with clear errors.

CREATE OR REPLACE FUNCTION @schema@_internal.tool_args(tool text, args jsonb, allowed text [])
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    unknown text;
BEGIN
    IF args IS NULL OR pg_catalog.jsonb_typeof(args) = 'null' THEN
        RETURN '{}';
    END IF;
    IF pg_catalog.jsonb_typeof(args) <> 'object' THEN
        RAISE EXCEPTION '% arguments must be a JSON object', tool USING ERRCODE = '22023';
    END IF;
    -- Every name allowed (the common case, every call): an expression, no query.
    IF args OPERATOR(pg_catalog.-) allowed = '{}'::jsonb THEN
        RETURN args;
    END IF;
    IF EXISTS (SELECT 1 FROM pg_catalog.jsonb_object_keys(args) AS k WHERE pg_catalog.length(k) > 64) THEN
        RAISE EXCEPTION '% argument names are at most 64 characters', tool
            USING ERRCODE = '22023', HINT = 'arguments: ' || pg_catalog.array_to_string(allowed, ', ');
    END IF;
    SELECT pg_catalog.string_agg(k, ', ' ORDER BY k) INTO unknown
      FROM pg_catalog.jsonb_object_keys(args) AS k WHERE NOT k = ANY (allowed);
    IF unknown IS NOT NULL THEN
        RAISE EXCEPTION '% does not take argument(s) %', tool, @schema@_internal.shown(unknown)
            USING ERRCODE = '22023', HINT = 'arguments: ' || pg_catalog.array_to_string(allowed, ', ');
    END IF;
    RETURN args;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.tool_args(text, jsonb, text []) IS
'Check that tool arguments are an object with only the allowed names.';

-- The scalar argument readers are inlinable: a tool call reads several, so each is an
-- expression with no function frame; only a wrong type takes raise_argument_type. STABLE,
-- not IMMUTABLE: the planner folds an immutable call with constant arguments, and would
-- raise the error of a CASE branch that is never taken.
CREATE OR REPLACE FUNCTION @schema@_internal.raise_argument_type(message text, type_of anyelement)
RETURNS anyelement
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RAISE EXCEPTION '%', message USING ERRCODE = '22023';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.raise_argument_type(text, anyelement) IS
'The argument readers'' slow path: raise 22023 with the message (type_of only types the '
'result).';

-- The rule every scalar argument follows: absent or a JSON null is NULL (the argument's
-- default applies), the expected JSON type is its text, any other type is refused.
CREATE OR REPLACE FUNCTION @schema@_internal.arg_scalar(
    args jsonb, name text, json_type text, expected text
) RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN coalesce(pg_catalog.jsonb_typeof(args OPERATOR(pg_catalog.->) name), 'null')
             OPERATOR(pg_catalog.=) 'null' THEN NULL
        WHEN pg_catalog.jsonb_typeof(args OPERATOR(pg_catalog.->) name) OPERATOR(pg_catalog.=) json_type
        THEN args OPERATOR(pg_catalog.->>) name
        ELSE @schema@_internal.raise_argument_type(
                 pg_catalog.format('argument %s must be %s', name, expected), NULL::text)
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.arg_scalar(jsonb, text, text, text) IS
'A scalar tool argument of a JSON type as text (NULL when absent or null; 22023 "argument '
'<name> must be <expected>" for another type). (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.arg_text(args jsonb, name text)
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT @schema@_internal.arg_scalar(args, name, 'string', 'a string')
$fn$;

COMMENT ON FUNCTION @schema@_internal.arg_text(jsonb, text) IS
'A string tool argument (NULL when absent; 22023 when another JSON type). (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.arg_bool(args jsonb, name text)
RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT (@schema@_internal.arg_scalar(args, name, 'boolean', 'true or false'))::boolean
$fn$;

COMMENT ON FUNCTION @schema@_internal.arg_bool(jsonb, text) IS
'A boolean tool argument (NULL when absent; 22023 when another JSON type). (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.arg_int(args jsonb, name text)
RETURNS integer
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN coalesce(pg_catalog.jsonb_typeof(args OPERATOR(pg_catalog.->) name), 'null')
             OPERATOR(pg_catalog.=) 'null' THEN NULL
        WHEN pg_catalog.jsonb_typeof(args OPERATOR(pg_catalog.->) name) OPERATOR(pg_catalog.=) 'number'
             AND (args OPERATOR(pg_catalog.->>) name) OPERATOR(pg_catalog.~) '^-?[0-9]{1,9}$'
        THEN (args OPERATOR(pg_catalog.->>) name)::integer
        ELSE @schema@_internal.raise_argument_type(
                 pg_catalog.format('argument %s must be an integer, not %s', name,
                     @schema@_internal.shown((args OPERATOR(pg_catalog.->) name)::text)),
                 NULL::integer)
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.arg_int(jsonb, text) IS
'An integer tool argument (NULL when absent; 22023 for fractions, strings or huge numbers). '
'(inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.arg_text_array(args jsonb, name text)
RETURNS text []
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.jsonb_typeof(args -> name) IS NULL OR pg_catalog.jsonb_typeof(args -> name) = 'null' THEN
        RETURN NULL;  -- absent, or a JSON null: the argument's default applies
    END IF;
    IF pg_catalog.jsonb_typeof(args -> name) <> 'array'
       OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(args -> name) AS e
                   WHERE pg_catalog.jsonb_typeof(e) <> 'string') THEN
        RAISE EXCEPTION 'argument % must be an array of strings', name USING ERRCODE = '22023';
    END IF;
    RETURN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(args -> name));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.arg_text_array(jsonb, text) IS
'A string-array tool argument (NULL when absent; 22023 otherwise malformed).';

CREATE OR REPLACE FUNCTION @schema@_internal.arg_timestamp(args jsonb, name text)
RETURNS timestamptz
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.jsonb_typeof(args -> name) IS NULL OR pg_catalog.jsonb_typeof(args -> name) = 'null' THEN
        RETURN NULL;  -- absent, or a JSON null: the argument's default applies
    END IF;
    IF pg_catalog.jsonb_typeof(args -> name) <> 'string' THEN
        RAISE EXCEPTION 'argument % must be an ISO 8601 timestamp string', name USING ERRCODE = '22023';
    END IF;
    BEGIN
        RETURN (args ->> name)::timestamptz;
    EXCEPTION WHEN others THEN
        RAISE EXCEPTION 'argument % is not a timestamp: %', name,
            @schema@_internal.shown(args ->> name)
            USING ERRCODE = '22023', HINT = 'use ISO 8601, e.g. 2026-03-01T12:00:00Z';
    END;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.arg_timestamp(jsonb, text) IS
'A timestamp tool argument given as an ISO 8601 string.';

-- The tools answer in camelCase (PilotSwarm's contract); a layer whose API answers jsonb
-- with snake_case keys passes it through camel_keys.
CREATE OR REPLACE FUNCTION @schema@_internal.camel_case(name text)
RETURNS text
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
SECURITY INVOKER
AS $fn$
    -- node_key is nodeKey: each part after an underscore capitalised (initcap on the parts
    -- as words; the names are lower-case ASCII letters and digits), the first kept.
    SELECT pg_catalog.left(name, 1)
           || pg_catalog.substr(pg_catalog.replace(
                  pg_catalog.initcap(pg_catalog.replace(name, '_', ' ')), ' ', ''), 2)
$fn$;

COMMENT ON FUNCTION @schema@_internal.camel_case(text) IS
'A snake_case name of lower-case letters and digits in camelCase (node_key: nodeKey), as '
'the tools answer. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.camel_keys(doc jsonb)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    text_doc text;
    key text;
    camel text;
BEGIN
    -- Object keys only (values, node keys among them, are kept), at every depth. The keys
    -- come from the document's objects (jsonpath walks them in C); each is replaced in the
    -- document's canonical text, where a key is '{"name": ' or ', "name": ' and nothing
    -- inside a string can look like one: a '"' inside a string is escaped, so an unescaped
    -- '{"' or ', "' either opens a key or closes a string, and a closing quote is never
    -- followed by a name and '": '. A walk of the document by functions took a call per
    -- value (~20 ms for a neighbourhood of 50 nodes); a regular expression over its text
    -- ~1.3 ms; this ~0.8 ms, and ~18 us for a write's answer.
    FOR key IN SELECT DISTINCT k
                 FROM pg_catalog.jsonb_path_query(doc, 'strict $.** ? (@.type() == "object")') AS o,
                      pg_catalog.jsonb_object_keys(o) AS k
                WHERE k ~ '^[a-z0-9]+(_[a-z0-9]+)+$' LOOP
        text_doc := coalesce(text_doc, doc::text);
        camel := @schema@_internal.camel_case(key);
        text_doc := pg_catalog.replace(pg_catalog.replace(text_doc,
                        '{"' || key || '": ', '{"' || camel || '": '),
                        ', "' || key || '": ', ', "' || camel || '": ');
    END LOOP;
    RETURN coalesce(text_doc::jsonb, doc);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.camel_keys(jsonb) IS
'An API function''s jsonb answer with every object key in camelCase (the tools'' contract).';

CREATE OR REPLACE FUNCTION @schema@_internal.arg_number(args jsonb, name text)
RETURNS double precision
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT (@schema@_internal.arg_scalar(args, name, 'number', 'a number'))::double precision
$fn$;

COMMENT ON FUNCTION @schema@_internal.arg_number(jsonb, text) IS
'A number tool argument (NULL when absent; 22023 when another JSON type). (inlined)';
