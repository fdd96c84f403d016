-- Input limits shared by every layer: each free-text argument has a documented cap
-- (docs/errors.md, "Limits") and a bad one is a 22023 that names the limit. Error messages
-- never echo more than a short prefix of what the caller sent (shown()).

CREATE OR REPLACE FUNCTION @schema@_internal.doubled_when_quoted(input text)
RETURNS integer
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
SECURITY INVOKER
AS $fn$
    -- The characters quote_literal doubles: quotes and backslashes.
    SELECT pg_catalog.length(input) - pg_catalog.length(pg_catalog.translate(input, '''\', ''))
$fn$;

COMMENT ON FUNCTION @schema@_internal.doubled_when_quoted(text) IS
'How many characters of input quote_literal doubles (quotes and backslashes). (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.shown(input text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    cut integer;
BEGIN
    -- At most 64 characters of a caller's input in a message, quoted, '...' when cut: 63
    -- and the closing quote, which may be the input's next character. quote_literal
    -- doubles each quote and backslash, so those count twice (else a run of them would
    -- show more than 64 characters of the input as escaped JSON or SQL spells it).
    IF input IS NULL OR pg_catalog.length(input)
           + @schema@_internal.doubled_when_quoted(pg_catalog.left(input, 65)) <= 64 THEN
        RETURN pg_catalog.quote_nullable(input);
    END IF;
    cut := 63;
    WHILE cut > 0
          AND cut + @schema@_internal.doubled_when_quoted(pg_catalog.left(input, cut)) > 63 LOOP
        cut := cut - 1;
    END LOOP;
    RETURN pg_catalog.quote_literal(pg_catalog.left(input, cut)) || '...';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.shown(text) IS
'A caller''s input as an error message shows it: quoted, cut to 64 characters.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_text(input text, what text, max_chars integer)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.length(input) > max_chars THEN
        RAISE EXCEPTION '% is longer than % characters', what, max_chars
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('length %s', pg_catalog.length(input)),
                  HINT = 'see "Limits" in docs/errors.md';
    END IF;
    RETURN input;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_text(text, text, integer) IS
'Raise 22023 naming the limit when a free-text argument is longer than max_chars (NULL '
'passes); returns it.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_bytes(input text, what text, max_bytes integer)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- For text that lands in a btree index: its limit (2704 bytes a row) is in bytes.
    IF pg_catalog.octet_length(input) > max_bytes THEN
        RAISE EXCEPTION '% is longer than % bytes', what, max_bytes
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('%s bytes', pg_catalog.octet_length(input)),
                  HINT = 'see "Limits" in docs/errors.md';
    END IF;
    RETURN input;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_bytes(text, text, integer) IS
'Raise 22023 naming the limit when a free-text argument is longer than max_bytes in UTF-8 '
'(NULL passes); returns it.';

-- Inlinable: the caller context's agent id is checked on every call (context_agent), and
-- only a bad one takes check_agent_id, which says what is wrong.
CREATE OR REPLACE FUNCTION @schema@_internal.agent_id_ok(agent_id text)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT agent_id IS NULL
        OR (pg_catalog.length(agent_id) OPERATOR(pg_catalog.<=) 200
            AND agent_id OPERATOR(pg_catalog.!~) '[[:cntrl:]]')
$fn$;

COMMENT ON FUNCTION @schema@_internal.agent_id_ok(text) IS
'Whether an agent id is NULL or at most 200 characters without control characters '
'(inlined); check_agent_id raises. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.check_agent_id(agent_id text, what text DEFAULT 'agent_id')
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF NOT @schema@_internal.agent_id_ok(agent_id) THEN
        PERFORM @schema@_internal.check_text(agent_id, what, 200);
        RAISE EXCEPTION '% contains a control character', what USING ERRCODE = '22023';
    END IF;
    RETURN agent_id;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_agent_id(text, text) IS
'Raise 22023 unless an agent id is at most 200 characters without control characters '
'(NULL passes).';

-- The one tag cap: check_tags checks it, tags_schema shows it to agents (maxItems).
CREATE OR REPLACE FUNCTION @schema@_internal.tag_limits(OUT max_tags integer, OUT max_chars integer)
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    max_tags := 64;
    max_chars := 100;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.tag_limits() IS
'The tag caps: at most 64 tags (a fact''s or a filter''s), each 1 to 100 characters.';

CREATE OR REPLACE FUNCTION @schema@_internal.tags_schema(description text)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    caps record := @schema@_internal.tag_limits();
BEGIN
    RETURN pg_catalog.jsonb_build_object(
        'type', 'array', 'maxItems', caps.max_tags,
        'items', pg_catalog.jsonb_build_object('type', 'string', 'minLength', 1,
                                               'maxLength', caps.max_chars),
        'description', description);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.tags_schema(text) IS
'The JSON schema of a tag list argument of a tool, with the caps check_tags checks.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_tags(tags text [], what text DEFAULT 'tags')
RETURNS text []
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    caps record := @schema@_internal.tag_limits();
BEGIN
    IF pg_catalog.cardinality(tags) > caps.max_tags
       OR EXISTS (SELECT 1 FROM pg_catalog.unnest(tags) AS t
                   WHERE t IS NULL OR t = '' OR pg_catalog.length(t) > caps.max_chars) THEN
        RAISE EXCEPTION '% must be at most 64 tags, each a non-empty string of at most 100 '
            'characters', what USING ERRCODE = '22023', HINT = 'see "Limits" in docs/errors.md';
    END IF;
    RETURN tags;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_tags(text [], text) IS
'Raise 22023 unless a tag list (a filter or a fact''s tags) has at most 64 non-empty tags of '
'at most 100 characters (NULL passes).';

-- The one tenant name pattern (also a CHECK on the settings and binding tables, 0009).
-- Inlinable (tests/lint_sql.py lists it): the context check of every call evaluates it.
-- The length is checked apart: PostgreSQL's regex engine unrolls a bounded repeat such as
-- {0,127}, which made a 5-character name cost 3 us and a 125-character one 42 us a call;
-- an unbounded one costs 0.4 and 1.2.
CREATE OR REPLACE FUNCTION @schema@_internal.tenant_name_ok(tenant text)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.octet_length(tenant) OPERATOR(pg_catalog.<=) 128
       AND tenant OPERATOR(pg_catalog.~) '^[A-Za-z0-9][A-Za-z0-9._:@-]*$'
$fn$;

COMMENT ON FUNCTION @schema@_internal.tenant_name_ok(text) IS
'Whether tenant is a valid tenant name (inlined): 1 to 128 ASCII letters, digits and '
'. _ : @ -, starting with a letter or digit. check_tenant says what is wrong.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_tenant(tenant text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF tenant IS NULL OR pg_catalog.btrim(tenant) = '' THEN
        RAISE EXCEPTION 'tenant must be a non-empty string'
            USING ERRCODE = '22023', HINT = 'pass the tenant this caller acts for';
    END IF;
    IF pg_catalog.length(tenant) > 128 THEN
        RAISE EXCEPTION 'tenant is longer than 128 characters' USING ERRCODE = '22023';
    END IF;
    IF NOT @schema@_internal.tenant_name_ok(tenant) THEN
        RAISE EXCEPTION 'tenant % is not a valid tenant name', @schema@_internal.shown(tenant)
            USING ERRCODE = '22023',
                  HINT = '1 to 128 ASCII letters, digits and . _ : @ -, starting with a letter '
                         'or digit';
    END IF;
    RETURN tenant;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_tenant(text) IS
'Raise 22023 unless tenant matches ^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$ (so no ''*'', '
'spaces, quotes, wildcards or control characters).';

CREATE OR REPLACE FUNCTION @schema@_internal.raise_known_at_in_future(known_at timestamptz)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Every layer's readers of a known instant test known_at > clock_timestamp() inline (a
    -- call on every read costs more than the test) and raise through here.
    RAISE EXCEPTION 'known_at % is in the future', known_at
        USING ERRCODE = '22023', HINT = 'the database cannot know what it will believe';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.raise_known_at_in_future(timestamptz) IS
'Raise 22023 for a known_at past the clock (known_at > clock_timestamp()): what no reader of '
'facts or claims can answer.';

CREATE OR REPLACE FUNCTION @schema@_internal.raise_bad_limit(
    value integer, name text, low integer, high integer
) RETURNS integer
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RAISE EXCEPTION '% must be an integer from % to %, not %', name, low, high,
        coalesce(value::text, 'null')
        USING ERRCODE = '22023', HINT = 'see "Limits" in docs/errors.md';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.raise_bad_limit(integer, text, integer, integer) IS
'check_limit''s refusal: 22023, "<name> must be an integer from <low> to <high>, not <value>".';

-- Inlined (no SET clause): a count argument is checked on every call of a read.
CREATE OR REPLACE FUNCTION @schema@_internal.check_limit(
    value integer, name text, low integer, high integer
) RETURNS integer
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE WHEN value OPERATOR(pg_catalog.>=) low AND value OPERATOR(pg_catalog.<=) high
                THEN value
                ELSE @schema@_internal.raise_bad_limit(value, name, low, high) END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_limit(integer, text, integer, integer) IS
'A count argument (a limit, k, a batch size) within [low, high], returned; else 22023 '
'naming the argument and its range (raise_bad_limit). (inlined)';
