-- What a recorded memory must be: its lines, and who may give it which trust.

CREATE OR REPLACE FUNCTION @schema@_internal.check_memory_lines(lines jsonb)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    bad record;
BEGIN
    IF lines IS NULL OR pg_catalog.jsonb_typeof(lines) <> 'array'
       OR pg_catalog.jsonb_array_length(lines) NOT BETWEEN 1 AND 1000 THEN
        RAISE EXCEPTION 'lines must be an array of 1 to 1000 lines {id, text}'
            USING ERRCODE = '22023';
    END IF;
    SELECT e.ord INTO bad
      FROM pg_catalog.jsonb_array_elements(lines) WITH ORDINALITY AS e (line, ord)
     WHERE pg_catalog.jsonb_typeof(e.line) IS DISTINCT FROM 'object'
        OR e.line - '{id,text}'::text [] <> '{}'::jsonb
        OR pg_catalog.jsonb_typeof(e.line -> 'id') IS DISTINCT FROM 'string'
        OR pg_catalog.jsonb_typeof(e.line -> 'text') IS DISTINCT FROM 'string'
        OR pg_catalog.length(e.line ->> 'id') NOT BETWEEN 1 AND 100
        OR pg_catalog.length(e.line ->> 'text') > 10000
        OR (e.line ->> 'id') ~ '[[:cntrl:]]'
     ORDER BY e.ord
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'line % is not {id, text}: id 1 to 100 characters without control '
            'characters, text a string of at most 10000 characters', bad.ord
            USING ERRCODE = '22023';
    END IF;
    SELECT d.id INTO bad
      FROM (SELECT e ->> 'id' AS id FROM pg_catalog.jsonb_array_elements(lines) AS e) AS d
     GROUP BY d.id
    HAVING pg_catalog.count(*) > 1
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'line id % appears twice', @schema@_internal.shown(bad.id)
            USING ERRCODE = '22023', HINT = 'each line needs an id of its own (claims cite it)';
    END IF;
    RETURN lines;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_memory_lines(jsonb) IS
'A memory''s lines, returned when they are 1 to 1000 objects {id, text} with distinct ids of '
'1 to 100 characters and texts of at most 10,000; else 22023 naming the first bad line.';

CREATE OR REPLACE FUNCTION @schema@_internal.memory_content_hash(lines jsonb)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- jsonb's text form is canonical (keys sorted, one spacing), so the same lines give the
    -- same hash whatever the caller's JSON looked like.
    SELECT 'sha256:' || pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(lines::text, 'UTF8')), 'hex')
$fn$;

COMMENT ON FUNCTION @schema@_internal.memory_content_hash(jsonb) IS
'The content hash of a memory recorded without one: sha256 of its lines'' canonical JSON.';
