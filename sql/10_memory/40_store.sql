-- store_fact / store_facts: the one write path for working-memory facts.

CREATE OR REPLACE FUNCTION @schema@_internal.write_facts(items jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- Validates every item first and writes nothing unless all are valid; then upserts them in
-- one statement. Returns the per-fact results in input order.
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.context_kind();
    session text := @schema@_internal.context_session();
    parent text := NULLIF(pg_catalog.current_setting('pgfacts.parent_session_id', true), '');
    agent text := NULLIF(pg_catalog.current_setting('pgfacts.agent_id', true), '');
    max_bytes bigint := (@schema@_internal.setting(tenant, 'value_max_bytes', '1048576'))::bigint;
    item jsonb;
    position int := 0;
    item_key text;
    item_shared boolean;
    value_bytes bigint;
    rows jsonb := '[]';
    duplicates text;
    needs_session boolean := false;
BEGIN
    IF kind = 'tuner' THEN
        RAISE EXCEPTION 'the tuner reads everything and writes nothing' USING ERRCODE = '42501';
    END IF;
    IF items IS NULL OR pg_catalog.jsonb_typeof(items) <> 'array' THEN
        RAISE EXCEPTION 'facts must be a JSON array of {key, value, tags?, shared?}'
            USING ERRCODE = '22023';
    END IF;
    IF pg_catalog.jsonb_array_length(items) > 1000 THEN
        RAISE EXCEPTION 'a batch holds at most 1000 facts, not %', pg_catalog.jsonb_array_length(items)
            USING ERRCODE = '22023', HINT = 'split the batch';
    END IF;
    FOR item IN SELECT e FROM pg_catalog.jsonb_array_elements(items) AS e LOOP
        position := position + 1;
        IF pg_catalog.jsonb_typeof(item) <> 'object' THEN
            RAISE EXCEPTION 'fact % is not an object', position USING ERRCODE = '22023';
        END IF;
        IF EXISTS (SELECT 1 FROM pg_catalog.jsonb_object_keys(item) AS k
                    WHERE k NOT IN ('key', 'value', 'tags', 'shared')) THEN
            RAISE EXCEPTION 'fact % has an unknown field', position
                USING ERRCODE = '22023', HINT = 'fields are key, value, tags, shared';
        END IF;
        IF pg_catalog.jsonb_typeof(item -> 'key') IS DISTINCT FROM 'string' THEN
            RAISE EXCEPTION 'fact %: key must be a string', position USING ERRCODE = '22023';
        END IF;
        item_key := @schema@_internal.check_key(item ->> 'key');
        IF NOT item ? 'value' THEN
            RAISE EXCEPTION 'fact % (%): value is missing', position, item_key
                USING ERRCODE = '22023', HINT = 'pass any JSON value; null is a value';
        END IF;
        IF item ? 'shared' AND pg_catalog.jsonb_typeof(item -> 'shared') NOT IN ('boolean', 'null') THEN
            RAISE EXCEPTION 'fact % (%): shared must be true or false', position, item_key
                USING ERRCODE = '22023';
        END IF;
        item_shared := coalesce((item ->> 'shared')::boolean, false);
        IF item ? 'tags' AND pg_catalog.jsonb_typeof(item -> 'tags') <> 'null' THEN
            IF pg_catalog.jsonb_typeof(item -> 'tags') <> 'array'
               OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(item -> 'tags') AS t
                           WHERE pg_catalog.jsonb_typeof(t) <> 'string' OR t #>> '{}' = ''
                              OR pg_catalog.length(t #>> '{}') > 100)
               OR pg_catalog.jsonb_array_length(item -> 'tags') > 64 THEN
                RAISE EXCEPTION 'fact % (%): tags must be an array of at most 64 non-empty strings '
                    'of at most 100 characters', position, item_key USING ERRCODE = '22023';
            END IF;
        END IF;
        IF @schema@_internal.key_access(item_key, kind) NOT IN ('write', 'all') THEN
            RAISE EXCEPTION 'agent kind % may not write key %', kind, item_key
                USING ERRCODE = '42501',
                      HINT = 'tools/ is reserved to the tool layer; config/facts-manager/ to the '
                             'facts manager';
        END IF;
        IF NOT item_shared THEN
            needs_session := true;
            IF session IS NULL THEN
                RAISE EXCEPTION 'fact % (%): a session-scoped fact needs a session in the caller context',
                    position, item_key
                    USING ERRCODE = '22023',
                          HINT = 'set_context(session_id => ...) or store it with shared => true';
            END IF;
        END IF;
        value_bytes := pg_catalog.octet_length((item -> 'value')::text);
        IF value_bytes > max_bytes THEN  -- measured as jsonb's own text form
            RAISE EXCEPTION 'fact % (%): value is % bytes, over the cap of % bytes', position,
                item_key, value_bytes, max_bytes
                USING ERRCODE = '22023', HINT = 'store a reference instead, or ask an operator to '
                                                'raise value_max_bytes';
        END IF;
    END LOOP;

    WITH input AS (
        SELECT e.ord, e.item ->> 'key' AS key,
               coalesce((e.item ->> 'shared')::boolean, false) AS shared
          FROM pg_catalog.jsonb_array_elements(items) WITH ORDINALITY AS e (item, ord)
    )
    SELECT pg_catalog.string_agg(d.key, ', ' ORDER BY d.key) INTO duplicates
      FROM (SELECT CASE WHEN i.shared THEN 'shared:' ELSE 'session:' END || i.key AS key
              FROM input AS i GROUP BY 1 HAVING pg_catalog.count(*) > 1) AS d;
    IF duplicates IS NOT NULL THEN
        RAISE EXCEPTION 'the batch stores the same key in the same scope more than once'
            USING ERRCODE = '22023', DETAIL = 'repeated: ' || duplicates,
                  HINT = 'keep one entry per key and scope';
    END IF;

    IF session IS NOT NULL AND needs_session THEN
        PERFORM @schema@_internal.ensure_session(tenant, session, parent, agent, true);
    END IF;

    WITH input AS (
        SELECT e.ord, e.item ->> 'key' AS key, e.item -> 'value' AS value,
               coalesce((e.item ->> 'shared')::boolean, false) AS shared,
               coalesce(ARRAY(SELECT DISTINCT t FROM pg_catalog.jsonb_array_elements_text(
                   CASE WHEN pg_catalog.jsonb_typeof(e.item -> 'tags') = 'array'
                        THEN e.item -> 'tags' ELSE '[]' END) AS t ORDER BY t), '{}') AS tags
          FROM pg_catalog.jsonb_array_elements(items) WITH ORDINALITY AS e (item, ord)
    ),
    upserted AS (
        INSERT INTO @schema@_internal.facts AS f (
            tenant, scope_key, key, value, shared, session_id, agent_id, tags,
            created_at, updated_at, system_time)
        SELECT tenant,
               CASE WHEN i.shared THEN 'shared:' || i.key ELSE 'session:' || session || ':' || i.key END,
               i.key, i.value, i.shared, session, agent, i.tags,
               pg_catalog.clock_timestamp(), pg_catalog.clock_timestamp(),
               pg_catalog.tstzrange(pg_catalog.clock_timestamp(), NULL)
          FROM input AS i
         -- One lock order for every writer (and delete_session): concurrent batches
         -- touching the same keys wait for each other instead of deadlocking.
         ORDER BY 2
        ON CONFLICT ON CONSTRAINT facts_scope_key_key DO UPDATE
           SET value = excluded.value, tags = excluded.tags, agent_id = excluded.agent_id,
               session_id = excluded.session_id, deleted_at = NULL
         WHERE (f.value, f.tags, f.agent_id, f.session_id, f.deleted_at IS NULL)
               IS DISTINCT FROM
               (excluded.value, excluded.tags, excluded.agent_id, excluded.session_id, true)
        RETURNING f.key
    )
    SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'key', i.key, 'shared', i.shared,
               'scope', CASE WHEN i.shared THEN 'shared' ELSE 'session' END,
               'stored', true) ORDER BY i.ord)
      INTO rows
      FROM input AS i;  -- a data-modifying CTE runs whether or not it is read
    RETURN coalesce(rows, '[]');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.write_facts(jsonb) IS
'The working-memory write path: validate a batch of {key, value, tags?, shared?} against '
'the caller context, then upsert it all or nothing.';

CREATE OR REPLACE FUNCTION @schema@.store_fact(
    key text,
    value jsonb,
    tags text [] DEFAULT NULL,
    shared boolean DEFAULT false
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF value IS NULL THEN
        RAISE EXCEPTION 'value is missing' USING ERRCODE = '22023',
            HINT = 'pass a JSON value; the JSON null is ''null''::jsonb';
    END IF;
    RETURN @schema@_internal.write_facts(pg_catalog.jsonb_build_array(
        pg_catalog.jsonb_build_object('key', key, 'value', value,
                                      'tags', pg_catalog.to_jsonb(tags), 'shared', shared))) -> 0;
END
$fn$;

COMMENT ON FUNCTION @schema@.store_fact(text, jsonb, text [], boolean) IS
'Store or overwrite one fact: session-scoped (key per caller session) unless shared. '
'Returns {key, shared, scope, stored}. The previous version is kept in the history; the '
'etag bumps and the fact is queued for crawl when key, value or deletion state change.';

CREATE OR REPLACE FUNCTION @schema@.store_facts(facts jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    stored jsonb := @schema@_internal.write_facts(facts);
BEGIN
    RETURN pg_catalog.jsonb_build_object('stored', pg_catalog.jsonb_array_length(stored), 'facts', stored);
END
$fn$;

COMMENT ON FUNCTION @schema@.store_facts(jsonb) IS
'Store a batch [{key, value, tags?, shared?}, ...] all or nothing (at most 1000; a key '
'repeated in one scope is refused naming it). Returns {stored, facts: [...]}.';
