-- bulk_store_facts: many facts in one call, from records inline or a file's bytes with its
-- sha256 (PilotSwarm's bulk tool). Unlike store_facts it is not all or nothing: the records
-- that pass store_facts' own checks (fact_problem) are written, the others are reported by
-- position with a reason, and the failed ones come back as a failure file that is itself
-- valid input. The named steps: bulk_input (whole-call refusals, the source), bulk_checks
-- (a reason per record), bulk_write (chunks, a poisoned chunk record by record),
-- bulk_report (the answer and the failure file).
--
-- One call is one transaction, the caller's: the chunks are savepoints inside it, never
-- commits, so what it writes becomes visible at its commit, at one system-time instant, or
-- not at all (a crash or a cancel mid-call leaves nothing; the same call can run again).

CREATE OR REPLACE FUNCTION @schema@_internal.bulk_parse_source(source bytea)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    decoded text;
    parsed jsonb;
    detail text;
BEGIN
    -- PostgreSQL's own errors here name a token or bytes of the input, of any length: each
    -- becomes a 22023 of its own, showing at most 64 characters of it.
    BEGIN
        decoded := pg_catalog.convert_from(source, 'UTF8');
    EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
        RAISE EXCEPTION 'source is not UTF-8 text' USING ERRCODE = '22023',
            DETAIL = @schema@_internal.shown(SQLERRM),
            HINT = 'a NUL byte or bytes that are not UTF-8: a source is a JSON array in UTF-8';
    END;
    BEGIN
        parsed := decoded::jsonb;
    EXCEPTION
        WHEN untranslatable_character THEN
            RAISE EXCEPTION 'source holds \u0000 or another escape jsonb cannot store'
                USING ERRCODE = '22023', HINT = 'a fact''s text cannot hold a NUL character';
        WHEN invalid_text_representation THEN
            GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
            RAISE EXCEPTION 'source is not valid JSON' USING ERRCODE = '22023',
                DETAIL = @schema@_internal.shown(detail),
                HINT = 'a source is one JSON array of records in UTF-8, without a byte order mark';
        WHEN statement_too_complex THEN
            RAISE EXCEPTION 'source nests arrays and objects too deeply to parse'
                USING ERRCODE = '22023', HINT = 'a value nests at most 64 levels';
    END;
    IF pg_catalog.jsonb_typeof(parsed) <> 'array' THEN
        RAISE EXCEPTION 'source must hold a JSON array of records, not %',
            pg_catalog.jsonb_typeof(parsed)
            USING ERRCODE = '22023', HINT = 'records are {key, value, tags?, shared?}';
    END IF;
    RETURN parsed;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.bulk_parse_source(bytea) IS
'A bulk source''s bytes as its JSON array of records; 22023 when they are not UTF-8 (a NUL '
'byte included), not JSON, nested past the parser''s depth or not an array.';

CREATE OR REPLACE FUNCTION @schema@_internal.bulk_input(
    tenant text, records jsonb, source bytea, sha256 text, expected_count integer,
    OUT items jsonb, OUT source_kind text, OUT digest text
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    max_records bigint := (@schema@_internal.setting(tenant, 'bulk_max_records'))::bigint;
    max_bytes bigint := (@schema@_internal.setting(tenant, 'bulk_max_bytes'))::bigint;
    input_bytes bigint;
BEGIN
    IF (records IS NULL) = (source IS NULL) THEN
        RAISE EXCEPTION 'bulk_store_facts takes exactly one of records and source'
            USING ERRCODE = '22023',
                  HINT = 'records: a JSON array of {key, value, tags?, shared?}; source: a '
                         'file''s bytes holding one, with its sha256';
    END IF;
    IF records IS NOT NULL THEN
        IF sha256 IS NOT NULL THEN
            RAISE EXCEPTION 'sha256 checks a source''s bytes; records inline have none'
                USING ERRCODE = '22023', HINT = 'pass the file as source, or leave sha256 out';
        END IF;
        IF pg_catalog.jsonb_typeof(records) <> 'array' THEN
            RAISE EXCEPTION 'records must be a JSON array of {key, value, tags?, shared?}'
                USING ERRCODE = '22023';
        END IF;
        input_bytes := pg_catalog.octet_length(records::text);
        source_kind := 'records';
    ELSE
        IF sha256 IS NULL THEN
            RAISE EXCEPTION 'a source needs its sha256' USING ERRCODE = '22023',
                HINT = 'the sha256 of the source''s bytes as 64 hexadecimal digits (sha256sum)';
        END IF;
        IF sha256 !~ '^[0-9A-Fa-f]{64}$' THEN
            RAISE EXCEPTION 'sha256 must be 64 hexadecimal digits, not %',
                @schema@_internal.shown(sha256) USING ERRCODE = '22023';
        END IF;
        input_bytes := pg_catalog.octet_length(source);
        source_kind := 'source';
    END IF;
    -- Before the source is hashed or parsed: the cap bounds that work too.
    IF input_bytes > max_bytes THEN
        RAISE EXCEPTION 'the % is % bytes, over the cap of % bytes', source_kind, input_bytes,
            max_bytes
            USING ERRCODE = '22023',
                  HINT = 'split it, or ask an operator to raise bulk_max_bytes';
    END IF;
    IF source IS NOT NULL THEN
        digest := pg_catalog.encode(pg_catalog.sha256(source), 'hex');
        IF digest <> pg_catalog.lower(sha256) THEN
            RAISE EXCEPTION 'source does not match its sha256' USING ERRCODE = '22023',
                DETAIL = pg_catalog.format('given %s, computed %s', pg_catalog.lower(sha256), digest),
                HINT = 'the file changed or is another file than the one hashed; nothing was written';
        END IF;
        items := @schema@_internal.bulk_parse_source(source);
    ELSE
        items := records;
    END IF;
    IF pg_catalog.jsonb_array_length(items) > max_records THEN
        RAISE EXCEPTION 'a bulk call takes at most % records, not %', max_records,
            pg_catalog.jsonb_array_length(items)
            USING ERRCODE = '22023',
                  HINT = 'split it, or ask an operator to raise bulk_max_records';
    END IF;
    IF expected_count IS DISTINCT FROM NULL
       AND expected_count <> pg_catalog.jsonb_array_length(items) THEN
        RAISE EXCEPTION 'expected_count is % but the input holds % records', expected_count,
            pg_catalog.jsonb_array_length(items)
            USING ERRCODE = '22023',
                  HINT = 'a record was lost or added on the way; nothing was written';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.bulk_input(text, jsonb, bytea, text, integer) IS
'bulk_store_facts'' whole-call refusals (22023): exactly one of records and source, a '
'source''s sha256 given and matching, the tenant''s bulk_max_bytes and bulk_max_records, '
'expected_count. Returns the records as a JSON array, the source kind (records | source) '
'and the source''s sha256.';

-- Inlined (no SET clause, every name qualified): bulk_store_facts asks it for every
-- record a chunk's write refuses.
CREATE OR REPLACE FUNCTION @schema@_internal.bulk_error_is_fatal(sqlstate text)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- About the transaction or the server, not one record's data: a deadlock or
    -- serialization failure, resources, an operator's intervention, a lock timeout,
    -- corruption; or the run itself, whose memory scope none refuses every write (PF011).
    -- These end the call, which can run again; any other error of a write is that record's.
    SELECT pg_catalog.left(sqlstate, 2) OPERATOR(pg_catalog.=) ANY (ARRAY['40', '53', '57', '58'])
        OR sqlstate OPERATOR(pg_catalog.=) ANY (ARRAY['55P03', 'XX001', 'XX002', 'PF011'])
$fn$;

COMMENT ON FUNCTION @schema@_internal.bulk_error_is_fatal(text) IS
'Whether an error of a bulk write ends the whole call (classes 40, 53, 57, 58, 55P03 lock '
'timeout, XX001/XX002 corruption, PF011 an incognito run) rather than failing one record. '
'(inlined)';

-- The records as an array (an import's lines come as one; a jsonb array of them would be
-- built only to be taken apart again, about 4 us a record).
CREATE OR REPLACE FUNCTION @schema@_internal.bulk_checks(
    items jsonb [], kind text, session text, max_bytes bigint, key_prefix text
) RETURNS TABLE (ord bigint, item jsonb, scope_key text, reason text)
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- A failure file's _error annotation is ignored on read, so the file is valid input.
    -- Both steps MATERIALIZED: fact_problem is inlined only over a plain column (an
    -- expression argument used many times is not), and its CASE then runs once a record,
    -- not once for each later reference (the window's sort, the window, the output).
    WITH input AS MATERIALIZED (
        SELECT e.ord,
               CASE WHEN pg_catalog.jsonb_typeof(e.item) = 'object' AND e.item ? '_error'
                    THEN e.item OPERATOR(pg_catalog.-) '_error'::text ELSE e.item END AS item
          FROM pg_catalog.unnest(items) WITH ORDINALITY AS e (item, ord)
    ),
    checked AS MATERIALIZED (
        -- store_facts' rules first, then the prefix (fact_problem saw a string key)
        SELECT i.ord, i.item,
               coalesce(@schema@_internal.fact_problem(i.item, kind, session, max_bytes),
                        CASE WHEN NOT pg_catalog.starts_with(i.item ->> 'key', key_prefix)
                             THEN 'prefix_violation' END) AS problem
          FROM input AS i
    ),
    keyed AS (
        SELECT c.ord, c.item, c.problem,
               CASE WHEN c.problem IS NULL THEN @schema@_internal.scope_key_of(
                   coalesce((c.item ->> 'shared')::boolean, false), session, c.item ->> 'key')
               END AS scope_key
          FROM checked AS c
    )
    -- The first valid record of a scope key wins; an invalid one takes no key.
    SELECT k.ord, k.item, k.scope_key,
           CASE WHEN k.problem IS NOT NULL THEN k.problem
                WHEN pg_catalog.row_number() OVER (PARTITION BY k.scope_key ORDER BY k.ord) > 1
                THEN 'duplicate_key' END
      FROM keyed AS k
$fn$;

COMMENT ON FUNCTION @schema@_internal.bulk_checks(jsonb [], text, text, bigint, text) IS
'Each record of a bulk call (its _error annotation dropped) with its scope key and the '
'reason it fails, or NULL: a fact_problem code, prefix_violation (key outside key_prefix) '
'or duplicate_key (a valid record earlier in the input has its scope key).';

CREATE OR REPLACE FUNCTION @schema@_internal.bulk_checks(
    items jsonb, kind text, session text, max_bytes bigint, key_prefix text
) RETURNS TABLE (ord bigint, item jsonb, scope_key text, reason text)
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT c.ord, c.item, c.scope_key, c.reason
      FROM @schema@_internal.bulk_checks(
               ARRAY(SELECT e.item FROM pg_catalog.jsonb_array_elements(bulk_checks.items)
                                        WITH ORDINALITY AS e (item, n) ORDER BY e.n),
               bulk_checks.kind, bulk_checks.session, bulk_checks.max_bytes,
               bulk_checks.key_prefix) AS c
$fn$;

COMMENT ON FUNCTION @schema@_internal.bulk_checks(jsonb, text, text, bigint, text) IS
'bulk_checks of the records of a JSON array (bulk_store_facts'' input).';

CREATE OR REPLACE FUNCTION @schema@_internal.bulk_failure_message(
    reason text, item jsonb, kind text, max_bytes bigint, key_prefix text
) RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    words record;
BEGIN
    IF reason IS NULL THEN
        RETURN NULL;  -- a valid record
    END IF;
    -- No position: a failure file fed back gives the same file, byte for byte.
    CASE reason
    WHEN 'prefix_violation' THEN
        RETURN pg_catalog.format('key does not start with key_prefix %s',
                                 @schema@_internal.shown(key_prefix));
    WHEN 'duplicate_key' THEN
        RETURN 'an earlier valid record has this key in the same scope (the first one wins)';
    ELSE
        -- A fact_problem code: store_facts' wording (fact_problem_words), its hint after it.
        words := @schema@_internal.fact_problem_words(reason, item, kind, max_bytes);
        RETURN words.message || coalesce(' (' || words.hint || ')', '');
    END CASE;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.bulk_failure_message(text, jsonb, text, bigint, text) IS
'What a bulk_checks reason means for one record, in words that name no position (a failure '
'file fed back gives the same file) and show at most 64 characters of input.';

-- fresh added: the runs of keys an import found free are inserted without ON CONFLICT.
DROP FUNCTION IF EXISTS @schema@_internal.bulk_write(jsonb [], bigint [], text, text, text);
CREATE OR REPLACE FUNCTION @schema@_internal.bulk_write(
    items jsonb [], ords bigint [], tenant text, session text, agent text,
    fresh boolean [] DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- items are checked and in scope-key order (one lock order with every writer), ords their
-- positions in the input, fresh whether the caller found each key free (NULL: none).
-- Returns [{ord, sqlstate, message, item}] for the records whose write failed.
DECLARE
    chunk_size constant integer := 500;
    n integer := coalesce(pg_catalog.cardinality(items), 0);
    low integer := 1;
    high integer;
    free boolean;
    written boolean;
    state text;
    message text;
    failures jsonb := '[]';
BEGIN
    WHILE low <= n LOOP
        -- A chunk: up to chunk_size records, all free keys or none, in order.
        free := coalesce(fresh[low], false);
        high := low;
        WHILE high < n AND high - low + 1 < chunk_size
              AND coalesce(fresh[high + 1], false) = free LOOP
            high := high + 1;
        END LOOP;
        -- Free keys inserted; one taken meanwhile (23505) makes it an upsert of the chunk.
        written := false;
        FOR attempt IN 1 .. CASE WHEN free THEN 2 ELSE 1 END LOOP
            BEGIN
                PERFORM @schema@_internal.upsert_facts(
                    items[low:high], tenant, session, agent, answer => false,
                    fresh => free AND attempt = 1);
                written := true;
            EXCEPTION WHEN OTHERS THEN
                GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE;
                IF @schema@_internal.bulk_error_is_fatal(state) THEN
                    RAISE;
                END IF;
            END;
            EXIT WHEN written OR state <> '23505';
        END LOOP;
        IF NOT written THEN
            -- A poisoned chunk: its set-based write was undone (the block is a savepoint);
            -- each record again in a savepoint of its own, so every valid one lands.
            FOR i IN low .. high LOOP
                BEGIN
                    PERFORM @schema@_internal.upsert_facts(
                        ARRAY[items[i]], tenant, session, agent, answer => false);
                EXCEPTION WHEN OTHERS THEN
                    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
                    IF @schema@_internal.bulk_error_is_fatal(state) THEN
                        RAISE;
                    END IF;
                    failures := failures || pg_catalog.jsonb_build_object(
                        'ord', ords[i], 'sqlstate', state, 'item', items[i],
                        'message', 'the write failed: ' || @schema@_internal.shown(message));
                END;
            END LOOP;
        END IF;
        low := high + 1;
    END LOOP;
    RETURN failures;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.bulk_write(jsonb [], bigint [], text, text, text, boolean []) IS
'Write checked records in chunks of up to 500 (upsert_facts), each chunk in a savepoint; a '
'run of records whose keys the caller found free (fresh) is inserted without ON CONFLICT, '
'and upserted when one was taken meanwhile. A chunk whose write fails is written again '
'record by record, each in its own savepoint. Returns [{ord, sqlstate, message, item}] for '
'the records that still failed.';

CREATE OR REPLACE FUNCTION @schema@_internal.bulk_report(
    input_count integer, source_kind text, digest text, accepted integer,
    failed_ords bigint [], failed_reasons text [], failed_messages text [], failed_items jsonb [],
    write_failures jsonb
) RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    report jsonb;
    failed_file text;
BEGIN
    WITH failure AS (
        SELECT f.ord, f.item, pg_catalog.jsonb_build_object('reason', f.reason,
                                                            'message', f.message) AS error
          FROM ROWS FROM (pg_catalog.unnest(failed_ords), pg_catalog.unnest(failed_reasons),
                          pg_catalog.unnest(failed_messages), pg_catalog.unnest(failed_items))
               AS f (ord, reason, message, item)
        UNION ALL
        SELECT (w ->> 'ord')::bigint, w -> 'item',
               pg_catalog.jsonb_build_object('reason', 'write_failed', 'sqlstate', w -> 'sqlstate',
                                             'message', w -> 'message')
          FROM pg_catalog.jsonb_array_elements(write_failures) AS w
    )
    SELECT pg_catalog.jsonb_build_object(
               'failures', coalesce(pg_catalog.jsonb_agg(
                   pg_catalog.jsonb_build_object('position', f.ord) || f.error ORDER BY f.ord), '[]'),
               'failed_sample', coalesce((
                   SELECT pg_catalog.jsonb_agg(s.key ORDER BY s.ord)
                     FROM (SELECT g.ord, pg_catalog.left(g.item ->> 'key', 64) AS key
                             FROM failure AS g
                            WHERE pg_catalog.jsonb_typeof(g.item -> 'key') = 'string'
                            ORDER BY g.ord LIMIT 5) AS s), '[]')),
           -- One record a line, in input order; jsonb's text form is canonical, so the same
           -- failures give the same bytes. A record that is not an object cannot carry
           -- _error: it is written as it came (failures gives its reason).
           E'[\n' || pg_catalog.string_agg(
               CASE WHEN pg_catalog.jsonb_typeof(f.item) = 'object'
                    THEN f.item || pg_catalog.jsonb_build_object('_error', f.error)
                    ELSE f.item END::text, E',\n' ORDER BY f.ord) || E'\n]\n'
      INTO report, failed_file
      FROM failure AS f;
    RETURN pg_catalog.jsonb_build_object(
        'source', source_kind, 'sha256', digest, 'record_count', input_count,
        'accepted_count', accepted,
        'committed_count', accepted - pg_catalog.jsonb_array_length(write_failures),
        'failed_count', pg_catalog.jsonb_array_length(report -> 'failures'),
        'failed_file', failed_file,
        'failed_file_sha256',
        pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(failed_file, 'UTF8')), 'hex'))
        || report;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.bulk_report(
    integer, text, text, integer, bigint [], text [], text [], jsonb [], jsonb) IS
'bulk_store_facts'' answer: the counts, the failures in input order, a sample of failed keys '
'and the failure file (the failed records annotated with _error, one a line) with its sha256.';

CREATE OR REPLACE FUNCTION @schema@.bulk_store_facts(
    records jsonb DEFAULT NULL,
    source bytea DEFAULT NULL,
    sha256 text DEFAULT NULL,
    expected_count integer DEFAULT NULL,
    key_prefix text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- The tuner writes nothing: refused before anything is read.
    kind text := @schema@_internal.require_writer('writes');
    tenant text := @schema@_internal.context_tenant();
    session text := @schema@_internal.context_session();
    max_bytes bigint := (@schema@_internal.setting(tenant, 'value_max_bytes'))::bigint;
    input record;
    valid_items jsonb [];
    valid_ords bigint [];
    failed_ords bigint [];
    failed_reasons text [];
    failed_messages text [];
    failed_items jsonb [];
    needs_session boolean;
BEGIN
    IF key_prefix IS NOT NULL THEN
        PERFORM @schema@_internal.check_key(key_prefix, 'key_prefix');
    END IF;
    input := @schema@_internal.bulk_input(tenant, records, source, sha256, expected_count);

    SELECT pg_catalog.array_agg(c.item ORDER BY c.scope_key) FILTER (WHERE c.reason IS NULL),
           pg_catalog.array_agg(c.ord ORDER BY c.scope_key) FILTER (WHERE c.reason IS NULL),
           pg_catalog.array_agg(c.ord ORDER BY c.ord) FILTER (WHERE c.reason IS NOT NULL),
           pg_catalog.array_agg(c.reason ORDER BY c.ord) FILTER (WHERE c.reason IS NOT NULL),
           pg_catalog.array_agg(@schema@_internal.bulk_failure_message(
                   c.reason, c.item, kind, max_bytes, key_prefix) ORDER BY c.ord)
               FILTER (WHERE c.reason IS NOT NULL),
           pg_catalog.array_agg(c.item ORDER BY c.ord) FILTER (WHERE c.reason IS NOT NULL),
           coalesce(pg_catalog.bool_or(c.scope_key ^@ 'session:'), false)
      INTO valid_items, valid_ords, failed_ords, failed_reasons, failed_messages, failed_items,
           needs_session
      FROM @schema@_internal.bulk_checks(input.items, kind, session, max_bytes, key_prefix) AS c;

    IF needs_session THEN
        PERFORM @schema@_internal.ensure_session(tenant, session, @schema@_internal.context_parent(),
                                                 @schema@_internal.context_agent(), true);
        session := @schema@_internal.memory_session(tenant, session);  -- swarm: the root's
    END IF;
    RETURN @schema@_internal.bulk_report(
        pg_catalog.jsonb_array_length(input.items), input.source_kind, input.digest,
        coalesce(pg_catalog.cardinality(valid_items), 0),
        failed_ords, failed_reasons, failed_messages, failed_items,
        @schema@_internal.bulk_write(valid_items, valid_ords, tenant, session,
                                     @schema@_internal.context_agent()));
END
$fn$;

COMMENT ON FUNCTION @schema@.bulk_store_facts(jsonb, bytea, text, integer, text) IS
'Store many facts, committing the valid ones: records [{key, value, tags?, shared?}] inline, '
'or source (a file''s bytes holding that array) with its sha256; expected_count and '
'key_prefix (a literal prefix every key must have) are optional checks. Caps: bulk_max_records '
'and bulk_max_bytes. A record fails with a reason (store_facts'' checks, prefix_violation, '
'duplicate_key: the first valid record of a key wins, write_failed) and the rest are written '
'in chunks of 500, a failing chunk record by record. Returns {source, sha256, record_count, '
'accepted_count, committed_count, failed_count, failures: [{position, reason, message}], '
'failed_sample (at most 5 keys), failed_file (the failed records with _error, valid input), '
'failed_file_sha256}.';
