-- store_fact / store_facts: the one write path for working-memory facts. write_facts
-- applies its named rules in order: fact_problem (what is wrong with one fact, as a code;
-- fact_problem_words words it), the batch rules, then upsert_facts.

-- Inlinable (no SET clause, every name qualified; tests/lint_sql.py lists it) and free of
-- sub-selects, so write_facts checks a whole batch in one statement. The CASE tries the
-- rules in the order their errors take precedence; a later WHEN may rely on earlier ones.
CREATE OR REPLACE FUNCTION @schema@_internal.fact_problem(
    item jsonb, kind text, session text, max_bytes bigint
) RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN pg_catalog.jsonb_typeof(item) OPERATOR(pg_catalog.<>) 'object' THEN 'not_object'
        WHEN item OPERATOR(pg_catalog.-) '{key,value,tags,shared,ttl_seconds}'::text []
             OPERATOR(pg_catalog.<>) '{}'::jsonb THEN 'unknown_field'
        WHEN pg_catalog.jsonb_typeof(item OPERATOR(pg_catalog.->) 'key')
             IS DISTINCT FROM 'string' THEN 'key_not_string'
        WHEN @schema@_internal.key_problem(item OPERATOR(pg_catalog.->>) 'key') IS NOT NULL
            THEN 'bad_key'
        WHEN NOT item OPERATOR(pg_catalog.?) 'value' THEN 'value_missing'
        WHEN pg_catalog.jsonb_typeof(item OPERATOR(pg_catalog.->) 'shared')
             OPERATOR(pg_catalog.<>) ALL (ARRAY['boolean', 'null']) THEN 'shared_not_boolean'
        WHEN coalesce(pg_catalog.jsonb_typeof(item OPERATOR(pg_catalog.->) 'tags'), 'null')
             OPERATOR(pg_catalog.<>) 'null'
             AND CASE
                 WHEN pg_catalog.jsonb_typeof(item OPERATOR(pg_catalog.->) 'tags')
                      OPERATOR(pg_catalog.<>) 'array' THEN true
                 WHEN pg_catalog.jsonb_array_length(item OPERATOR(pg_catalog.->) 'tags')
                      OPERATOR(pg_catalog.>) 64 THEN true
                 -- a tag that is not a string, is empty or has over 100 characters; the
                 -- length (a like_regex, about 2 us a record) only asked when the tags'
                 -- text is long enough to hold such a tag (a character takes a byte of it
                 -- at least)
                 WHEN pg_catalog.octet_length((item OPERATOR(pg_catalog.->) 'tags')::text)
                      OPERATOR(pg_catalog.<=) 100
                 THEN pg_catalog.jsonb_path_exists(item OPERATOR(pg_catalog.->) 'tags',
                     'strict $[*] ? (@.type() != "string" || @ == "")')
                 ELSE pg_catalog.jsonb_path_exists(item OPERATOR(pg_catalog.->) 'tags',
                     'strict $[*] ? (@.type() != "string" || @ == "" '
                     '|| @ like_regex "^.{101}" flag "s")')
             END THEN 'bad_tags'
        -- a whole number of seconds from 1 (no floor beyond that: an hour, a day)
        WHEN coalesce(pg_catalog.jsonb_typeof(item OPERATOR(pg_catalog.->) 'ttl_seconds'), 'null')
             OPERATOR(pg_catalog.<>) 'null'
             AND CASE
                 WHEN pg_catalog.jsonb_typeof(item OPERATOR(pg_catalog.->) 'ttl_seconds')
                      OPERATOR(pg_catalog.<>) 'number' THEN true
                 ELSE NOT (item OPERATOR(pg_catalog.->>) 'ttl_seconds')
                      OPERATOR(pg_catalog.~) '^[1-9][0-9]{0,8}$'
             END THEN 'bad_ttl'
        WHEN @schema@_internal.key_access(item OPERATOR(pg_catalog.->>) 'key', kind)
             OPERATOR(pg_catalog.<>) ALL (ARRAY['write', 'all']) THEN 'key_not_writable'
        WHEN session IS NULL
             AND NOT coalesce((item OPERATOR(pg_catalog.->>) 'shared')::boolean, false)
            THEN 'no_session'
        -- measured as jsonb's own text form
        WHEN pg_catalog.octet_length((item OPERATOR(pg_catalog.->) 'value')::text)
             OPERATOR(pg_catalog.>) max_bytes THEN 'value_too_large'
        -- over 64 levels of arrays and objects (a container at level 64, the value being
        -- level 0): such a value breaks readers' recursive JSON decoders
        WHEN pg_catalog.jsonb_path_exists(item OPERATOR(pg_catalog.->) 'value',
                 'strict $.**{64} ? (@.type() == "array" || @.type() == "object")')
            THEN 'value_too_deep'
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_problem(jsonb, text, text, bigint) IS
'What is wrong with one fact of a batch {key, value, tags?, shared?, ttl_seconds?} written '
'by this kind and session under the value cap, as a problem code (not_object, '
'unknown_field, key_not_string, bad_key, value_missing, shared_not_boolean, bad_tags, '
'bad_ttl, key_not_writable, '
'no_session, value_too_large, value_too_deep), or NULL. fact_problem_words words it. (inlined)';

-- The one wording of each fact_problem code, naming no position (a bulk failure file fed
-- back must give the same file): store_facts' errors prefix the fact's position and key,
-- bulk_store_facts' failures carry it as the record's message.
CREATE OR REPLACE FUNCTION @schema@_internal.fact_problem_words(
    problem text, item jsonb, kind text, max_bytes bigint, OUT message text, OUT hint text
)
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    CASE problem
    WHEN 'not_object' THEN
        message := 'not a JSON object';
        hint := 'a fact is {key, value, tags?, shared?, ttl_seconds?}';
    WHEN 'unknown_field' THEN
        message := pg_catalog.format('unknown field(s) %s',
            @schema@_internal.shown((SELECT pg_catalog.string_agg(f, ', ' ORDER BY f)
                                       FROM pg_catalog.jsonb_object_keys(
                                            item - '{key,value,tags,shared,ttl_seconds}'::text []) AS f)));
        hint := 'fields are key, value, tags, shared, ttl_seconds';
    WHEN 'key_not_string' THEN
        message := 'key is missing or not a string';
    WHEN 'bad_key' THEN
        message := @schema@_internal.key_problem_words(
            @schema@_internal.key_problem(item ->> 'key'), 'key');
    WHEN 'value_missing' THEN
        message := 'value is missing';
        hint := 'pass any JSON value; null is a value';
    WHEN 'shared_not_boolean' THEN
        message := 'shared must be true or false';
    WHEN 'bad_tags' THEN
        message := 'tags must be an array of at most 64 non-empty strings of at most 100 characters';
    WHEN 'bad_ttl' THEN
        message := 'ttl_seconds must be a whole number of seconds from 1 to 999999999';
        hint := 'omit it (or pass null) for a fact that does not expire';
    WHEN 'key_not_writable' THEN
        message := pg_catalog.format('the %s key namespace is reserved: agent kind %s may not write it',
            @schema@_internal.shown(@schema@_internal.reserved_prefix(item ->> 'key')), kind);
    WHEN 'no_session' THEN
        message := 'a session-scoped fact needs a session in the caller context';
        hint := 'set_context(session_id => ...) or store it with shared => true';
    WHEN 'value_too_large' THEN
        message := pg_catalog.format('value is %s bytes, over the cap of %s bytes',
            pg_catalog.octet_length((item -> 'value')::text), max_bytes);
        hint := 'store a reference instead, or ask an operator to raise value_max_bytes';
    WHEN 'value_too_deep' THEN
        message := 'value nests arrays and objects over 64 levels deep';
        hint := 'flatten the value; 64 levels is the limit';
    ELSE
        -- Unreachable: fact_problem returns only the problems above. An internal assertion,
        -- so XX000 (no caller can reach it; the fuzz test would report it).
        RAISE EXCEPTION 'unknown fact problem %', pg_catalog.quote_nullable(problem)
            USING ERRCODE = 'XX000';
    END CASE;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_problem_words(text, jsonb, text, bigint) IS
'What a fact_problem code means for one fact, as a message and a hint that name no position '
'and show at most 64 characters of input.';

CREATE OR REPLACE FUNCTION @schema@_internal.raise_fact_problem(
    problem text, fact_position bigint, item jsonb, kind text, max_bytes bigint
) RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    words record;
    named text;
BEGIN
    -- A key's own rules raise with their details (its lengths; 42501 for a reserved one).
    IF problem = 'bad_key' THEN
        PERFORM @schema@_internal.check_key(item ->> 'key');
    ELSIF problem = 'key_not_writable' THEN
        PERFORM @schema@_internal.raise_reserved_key(item ->> 'key', kind, 'write');
    END IF;
    words := @schema@_internal.fact_problem_words(problem, item, kind, max_bytes);
    named := fact_position || CASE WHEN pg_catalog.jsonb_typeof(item -> 'key') = 'string'
                                   THEN ' (' || @schema@_internal.shown(item ->> 'key') || ')'
                                   ELSE '' END;
    IF words.hint IS NULL THEN
        RAISE EXCEPTION 'fact %: %', named, words.message USING ERRCODE = '22023';
    END IF;
    RAISE EXCEPTION 'fact %: %', named, words.message USING ERRCODE = '22023', HINT = words.hint;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.raise_fact_problem(text, bigint, jsonb, text, bigint) IS
'Raise the error (22023, or 42501 for a key the kind may not write) that a fact_problem '
'code stands for, naming the fact by its position in the batch and its key '
'(fact_problem_words words it).';

-- The rows upsert_facts' two inserts write, one a checked item, with its position. Inlined
-- (STABLE: a set-returning SQL function is inlined only when not volatile; the expiry's
-- clock_timestamp is still read for every row), every name qualified, no SET clause.
CREATE OR REPLACE FUNCTION @schema@_internal.fact_rows(
    items jsonb [], for_tenant text, session text, agent text
) RETURNS TABLE (
    ord bigint, tenant text, scope_key text, key text, value jsonb, shared boolean,
    session_id text, agent_id text, tags text [], writer_kind text, expires_at timestamptz
)
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT i.ord, for_tenant, @schema@_internal.scope_key_of(i.shared, session, i.key), i.key,
           i.value, i.shared, session, agent, i.tags,
           -- write_facts checked this kind against the login (context_kind)
           coalesce(NULLIF(pg_catalog.current_setting('pgfacts.agent_kind', true), ''), 'agent'),
           i.expires_at
      FROM (SELECT e.ord, e.item OPERATOR(pg_catalog.->>) 'key' AS key,
                   e.item OPERATOR(pg_catalog.->) 'value' AS value,
                   coalesce((e.item OPERATOR(pg_catalog.->>) 'shared')::boolean, false) AS shared,
                   coalesce(ARRAY(SELECT DISTINCT t FROM pg_catalog.jsonb_array_elements_text(
                       CASE WHEN pg_catalog.jsonb_typeof(e.item OPERATOR(pg_catalog.->) 'tags')
                                 OPERATOR(pg_catalog.=) 'array'
                            THEN e.item OPERATOR(pg_catalog.->) 'tags' ELSE '[]' END) AS t
                                  ORDER BY t), '{}') AS tags,
                   pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) pg_catalog.make_interval(
                       secs => (e.item OPERATOR(pg_catalog.->>) 'ttl_seconds')::integer)
                       AS expires_at
              FROM pg_catalog.unnest(items) WITH ORDINALITY AS e (item, ord)) AS i
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_rows(jsonb [], text, text, text) IS
'The facts rows of checked items {key, value, tags?, shared?, ttl_seconds?} written by agent '
'in session: scope key, sorted distinct tags, the writer''s kind, the expiry ttl_seconds from '
'now; with each item''s position (ord). (inlined)';

-- answer added: bulk_write discards the per-fact results, which cost a few us a fact.
-- items an array: bulk_write's chunks are slices of one, which a jsonb array would be built
-- from and taken apart again (about 1.5 us a fact of an import).
-- fresh added: an import's new keys are inserted without ON CONFLICT (bulk_write).
DROP FUNCTION IF EXISTS @schema@_internal.upsert_facts(jsonb, text, text, text);
DROP FUNCTION IF EXISTS @schema@_internal.upsert_facts(jsonb, text, text, text, boolean);
DROP FUNCTION IF EXISTS @schema@_internal.upsert_facts(jsonb [], text, text, text, boolean);
CREATE OR REPLACE FUNCTION @schema@_internal.upsert_facts(
    items jsonb [], for_tenant text, session text, agent text, answer boolean DEFAULT true,
    fresh boolean DEFAULT false
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- items are already checked (write_facts). Returns the per-fact results in input order,
-- or (answer false) an empty array: the write is the same.
DECLARE
    rows jsonb;
BEGIN
    IF fresh THEN
        -- Keys the caller found free (an import's new facts): a plain insert, without the
        -- arbiter's probe and speculative insertion of every row (an import's batch took
        -- 7% less time). A key another writer took meanwhile fails the statement (23505),
        -- and the caller writes the rows again without fresh.
        INSERT INTO @schema@_internal.facts (
            tenant, scope_key, key, value, shared, session_id, agent_id, tags, writer_kind,
            expires_at)
        SELECT r.tenant, r.scope_key, r.key, r.value, r.shared, r.session_id, r.agent_id,
               r.tags, r.writer_kind, r.expires_at
          FROM @schema@_internal.fact_rows(items, for_tenant, session, agent) AS r
         ORDER BY r.scope_key;
        RETURN '[]';
    END IF;
    -- The triggers set each row's times (facts_before_insert, facts_before_update).
    WITH input AS (
        SELECT * FROM @schema@_internal.fact_rows(items, for_tenant, session, agent)
    ),
    upserted AS (
        INSERT INTO @schema@_internal.facts AS f (
            tenant, scope_key, key, value, shared, session_id, agent_id, tags, writer_kind,
            expires_at)
        SELECT i.tenant, i.scope_key, i.key, i.value, i.shared, i.session_id, i.agent_id,
               i.tags, i.writer_kind, i.expires_at
          FROM input AS i
         -- One lock order for every writer (and delete_session): concurrent batches
         -- touching the same keys wait for each other instead of deadlocking.
         ORDER BY i.scope_key
        ON CONFLICT (tenant, @schema@_internal.fact_scope(shared, session_id), key) DO UPDATE
           SET value = excluded.value, tags = excluded.tags, agent_id = excluded.agent_id,
               session_id = excluded.session_id, deleted_at = NULL,
               writer_kind = excluded.writer_kind, expires_at = excluded.expires_at
         -- (A store with a ttl always sets a new expiry; one without ends an expiry.)
         WHERE (f.value, f.tags, f.agent_id, f.session_id, f.deleted_at IS NULL, f.expires_at)
               IS DISTINCT FROM
               (excluded.value, excluded.tags, excluded.agent_id, excluded.session_id, true,
                excluded.expires_at)
        RETURNING f.key, f.shared
    )
    -- A row the write did not reach is unchanged (what is stored equals it: stored all
    -- the same) or held: a later layer's trigger kept it out (human review), and what is
    -- stored, as this statement's snapshot still shows, differs from it.
    SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'key', i.key, 'shared', i.shared,
               'scope', CASE WHEN i.shared THEN 'shared' ELSE 'session' END,
               'stored', NOT coalesce(h.held, false))
               || CASE WHEN h.held THEN '{"held": true}'::jsonb ELSE '{}' END ORDER BY i.ord)
      INTO rows
      FROM input AS i
      LEFT JOIN upserted AS w ON w.key = i.key AND w.shared = i.shared
      -- Looked up for a row the write did not reach only: a CASE, since the planner ran a
      -- lateral's "WHERE w.key IS NULL" as a join filter after the probe, for every row.
      CROSS JOIN LATERAL (
          SELECT CASE WHEN w.key IS NULL THEN NOT EXISTS (
                     SELECT 1 FROM @schema@_internal.facts AS f
                      WHERE f.tenant = for_tenant
                        AND @schema@_internal.fact_scope(f.shared, f.session_id)
                            = @schema@_internal.fact_scope(i.shared, session)
                        AND f.key = i.key AND f.deleted_at IS NULL
                        AND (f.value, f.tags, f.agent_id, f.session_id, f.expires_at)
                            IS NOT DISTINCT FROM (i.value, i.tags, agent, session, i.expires_at))
                 END AS held) AS h
     -- The insert runs to its end either way (a data-modifying WITH always does).
     WHERE answer;
    RETURN coalesce(rows, '[]');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.upsert_facts(jsonb [], text, text, text, boolean, boolean) IS
'Insert or overwrite a checked batch of facts in one statement, in scope-key order (the one '
'lock order of every writer), each expiring ttl_seconds from now when given; an unchanged '
'fact is left as it is. Returns {key, shared, '
'scope, stored} per fact, in input order; a fact a later layer held (human review) has '
'stored false and held true. With answer false it returns [] (the same write). fresh: the '
'caller found none of the keys held (an import''s new facts): inserted without ON CONFLICT, '
'a key taken meanwhile failing the statement (23505); it returns [].';

CREATE OR REPLACE FUNCTION @schema@_internal.write_facts(items jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- Checks every item first and writes nothing unless all are valid; then upserts them in
-- one statement. Returns the per-fact results in input order.
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.require_writer('writes');
    session text := @schema@_internal.context_session();
    parent text := @schema@_internal.context_parent();
    agent text := @schema@_internal.context_agent();
    max_bytes bigint := (@schema@_internal.setting(tenant, 'value_max_bytes'))::bigint;
    bad record;
    duplicates text;
    needs_session boolean;
BEGIN
    IF items IS NULL OR pg_catalog.jsonb_typeof(items) <> 'array' THEN
        RAISE EXCEPTION 'facts must be a JSON array of {key, value, tags?, shared?, ttl_seconds?}'
            USING ERRCODE = '22023';
    END IF;
    IF pg_catalog.jsonb_array_length(items) > 1000 THEN
        RAISE EXCEPTION 'a batch holds at most 1000 facts, not %', pg_catalog.jsonb_array_length(items)
            USING ERRCODE = '22023', HINT = 'split the batch';
    END IF;

    -- The first fact with a problem, in input order.
    SELECT p.ord, p.item, p.problem INTO bad
      FROM (SELECT e.ord, e.item,
                   @schema@_internal.fact_problem(e.item, kind, session, max_bytes) AS problem
              FROM pg_catalog.jsonb_array_elements(items) WITH ORDINALITY AS e (item, ord)) AS p
     WHERE p.problem IS NOT NULL
     ORDER BY p.ord
     LIMIT 1;
    IF FOUND THEN
        PERFORM @schema@_internal.raise_fact_problem(bad.problem, bad.ord, bad.item, kind,
                                                     max_bytes);
    END IF;

    -- One entry per key and scope; a session is needed (and registered) for session facts.
    -- A single fact cannot repeat itself: no query for it.
    IF pg_catalog.jsonb_array_length(items) = 1 THEN
        needs_session := NOT coalesce((items -> 0 ->> 'shared')::boolean, false);
    ELSE
        WITH input AS (
            SELECT e.item ->> 'key' AS key,
                   coalesce((e.item ->> 'shared')::boolean, false) AS shared
              FROM pg_catalog.jsonb_array_elements(items) AS e (item)
        )
        SELECT (SELECT pg_catalog.string_agg(d.key, ', ' ORDER BY d.key)
                  FROM (SELECT CASE WHEN i.shared THEN 'shared:' ELSE 'session:' END || i.key AS key
                          FROM input AS i GROUP BY 1 HAVING pg_catalog.count(*) > 1) AS d),
               coalesce((SELECT pg_catalog.bool_or(NOT i.shared) FROM input AS i), false)
          INTO duplicates, needs_session;
    END IF;
    IF duplicates IS NOT NULL THEN
        RAISE EXCEPTION 'the batch stores the same key in the same scope more than once'
            USING ERRCODE = '22023', DETAIL = 'repeated: ' || @schema@_internal.shown(duplicates),
                  HINT = 'keep one entry per key and scope';
    END IF;
    IF session IS NOT NULL AND needs_session THEN
        PERFORM @schema@_internal.ensure_session(tenant, session, parent, agent, true);
        -- Under memory_scope swarm the session facts are the execution's: its root's.
        session := @schema@_internal.memory_session(tenant, session);
    END IF;

    RETURN @schema@_internal.upsert_facts(
        ARRAY(SELECT e.item FROM pg_catalog.jsonb_array_elements(items) WITH ORDINALITY AS e (item, n)
               ORDER BY e.n),
        tenant, session, agent);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.write_facts(jsonb) IS
'The working-memory write path: check a batch of {key, value, tags?, shared?, ttl_seconds?} '
'against the '
'caller context (fact_problem), then upsert it all or nothing (upsert_facts).';

-- ttl_seconds added (a defaulted last parameter: every earlier call still binds to it).
DROP FUNCTION IF EXISTS @schema@.store_fact(text, jsonb, text [], boolean);
CREATE OR REPLACE FUNCTION @schema@.store_fact(
    key text,
    value jsonb,
    tags text [] DEFAULT NULL,
    shared boolean DEFAULT false,
    ttl_seconds integer DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- Checked first (an expression: every store pays for it), before the value.
    kind text := @schema@_internal.require_writer('writes');
BEGIN
    IF value IS NULL THEN
        RAISE EXCEPTION 'value is missing' USING ERRCODE = '22023',
            HINT = 'pass a JSON value; the JSON null is ''null''::jsonb';
    END IF;
    RETURN @schema@_internal.write_facts(pg_catalog.jsonb_build_array(
        pg_catalog.jsonb_build_object('key', key, 'value', value,
                                      'tags', pg_catalog.to_jsonb(tags), 'shared', shared,
                                      'ttl_seconds', ttl_seconds))) -> 0;
END
$fn$;

COMMENT ON FUNCTION @schema@.store_fact(text, jsonb, text [], boolean, integer) IS
'Store or overwrite one fact: session-scoped (key per caller session) unless shared; with '
'ttl_seconds (1 to 999999999) it expires that long after this store: every read then '
'treats it as absent and maintenance purges it (a later store sets or ends the expiry). '
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
'Store a batch [{key, value, tags?, shared?, ttl_seconds?}, ...] all or nothing (at most 1000; a key '
'repeated in one scope is refused naming it). Returns {stored, facts: [...]}.';
