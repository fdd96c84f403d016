-- The plain family: memory from elsewhere, written through the same write paths a live
-- write takes, so the same rules supersede, skip or refuse it. Facts are written set-based
-- (bulk_store_facts' checks and chunked writes); episodes, vocabulary and graph assertions
-- one line at a time through their API functions, each in a savepoint so one refusal
-- rejects its line only. A rejected line comes back with its reason.

-- items jsonb until the batch passed its records on as an array (bulk_checks takes one).
DROP FUNCTION IF EXISTS @schema@_internal.transfer_fact_outcomes(text, jsonb, bigint [], text, text, bigint);
CREATE OR REPLACE FUNCTION @schema@_internal.transfer_fact_outcomes(
    tenant text, items jsonb [], line_nos bigint [], kind text, session text, max_bytes bigint
) RETURNS TABLE (line_no bigint, item jsonb, scope_key text, reason text, outcome text, round bigint)
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- What each fact of a batch becomes, as if the lines were written one after another:
    -- a key's later line over another value supersedes the earlier one (its round writes
    -- after the earlier's), one repeating the value before it is a duplicate, and so is a
    -- first line repeating what the tenant holds. bulk_checks' duplicate_key is no refusal
    -- here: each round writes a key once.
    WITH checked AS MATERIALIZED (
        SELECT b.ord, b.item, b.scope_key,
               @schema@_internal.scope_key_scope(b.scope_key) AS scope,
               @schema@_internal.scope_key_key(b.scope_key) AS key,
               NULLIF(b.reason, 'duplicate_key') AS reason,
               pg_catalog.row_number() OVER w AS round,
               pg_catalog.lag(b.item) OVER w AS before
          FROM @schema@_internal.bulk_checks(
                   transfer_fact_outcomes.items, transfer_fact_outcomes.kind,
                   transfer_fact_outcomes.session, transfer_fact_outcomes.max_bytes, '') AS b
        WINDOW w AS (PARTITION BY b.scope_key, (NULLIF(b.reason, 'duplicate_key') IS NULL)
                     ORDER BY b.ord)
    )
    SELECT transfer_fact_outcomes.line_nos[c.ord], c.item, c.scope_key, c.reason,
           CASE WHEN c.reason IS NOT NULL THEN 'rejected'
                WHEN c.before IS NOT NULL
                THEN CASE WHEN c.before -> 'value' = c.item -> 'value'
                           AND coalesce(c.before -> 'tags', '[]') = coalesce(c.item -> 'tags', '[]')
                          THEN 'duplicate' ELSE 'superseded' END
                WHEN f.fact_id IS NULL OR f.deleted_at IS NOT NULL THEN 'inserted'
                WHEN f.value = c.item -> 'value'
                     AND f.tags = coalesce(ARRAY(SELECT pg_catalog.jsonb_array_elements_text(
                                               c.item -> 'tags')), '{}')
                THEN 'duplicate'
                ELSE 'superseded' END,
           c.round
      FROM checked AS c
      -- One probe of facts_scope_idx per fact, by its scope key's two parts. A lateral
      -- LIMIT 1 keeps it a probe: as a join, a plan made while an import grows the tenant
      -- (its statistics behind) hashed the tenant's every fact for each batch.
      LEFT JOIN LATERAL (
          SELECT f.fact_id, f.deleted_at, f.value, f.tags
            FROM @schema@_internal.facts AS f
           WHERE f.tenant = transfer_fact_outcomes.tenant AND f.scope_key = c.scope_key
             AND @schema@_internal.fact_scope(f.shared, f.session_id) = c.scope
             AND f.key = c.key AND c.reason IS NULL AND c.before IS NULL
           LIMIT 1
      ) AS f ON true
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_fact_outcomes(text, jsonb [], bigint [], text, text, bigint) IS
'Each plain fact of a batch (items, with their line numbers) with its scope key, its '
'bulk_checks reason (duplicate_key aside), its outcome (inserted, superseded, duplicate, '
'rejected) and its round: the how-manyth line of its key in the batch.';

-- (text, jsonb) until the batch passed arrays: a jsonb of every line, taken apart again by
-- each step, cost more than the checks.
DROP FUNCTION IF EXISTS @schema@_internal.transfer_plain_facts(text, jsonb);
CREATE OR REPLACE FUNCTION @schema@_internal.transfer_plain_facts(
    tenant text, line_nos bigint [], records jsonb []
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    kind text := @schema@_internal.context_kind();
    session text := @schema@_internal.context_session();
    max_bytes bigint := (@schema@_internal.setting(tenant, 'value_max_bytes'))::bigint;
    items jsonb [];
    -- The outcomes, one array a column (unnest reads them without parsing anything).
    c_line bigint [];
    c_item jsonb [];
    c_scope text [];
    c_reason text [];
    c_outcome text [];
    c_round bigint [];
    counts record;
    write_items jsonb [];
    write_lines bigint [];
    write_fresh boolean [];
    failures jsonb;
BEGIN
    -- records: the fact lines' objects {type, key, value, tags?, shared?}, line_nos theirs
    items := ARRAY(SELECT r.record OPERATOR(pg_catalog.-) '{type,_error}'::text []
                     FROM pg_catalog.unnest(records) WITH ORDINALITY AS r (record, n) ORDER BY r.n);
    IF coalesce(pg_catalog.cardinality(items), 0) = 0 THEN
        RETURN pg_catalog.jsonb_build_object('inserted', 0, 'superseded', 0, 'duplicate', 0,
                                             'rejects', '[]'::jsonb);
    END IF;
    SELECT pg_catalog.array_agg(o.line_no ORDER BY o.line_no), pg_catalog.array_agg(o.item ORDER BY o.line_no),
           pg_catalog.array_agg(o.scope_key ORDER BY o.line_no), pg_catalog.array_agg(o.reason ORDER BY o.line_no),
           pg_catalog.array_agg(o.outcome ORDER BY o.line_no), pg_catalog.array_agg(o.round ORDER BY o.line_no)
      INTO c_line, c_item, c_scope, c_reason, c_outcome, c_round
      FROM @schema@_internal.transfer_fact_outcomes(tenant, items, line_nos, kind, session,
                                                    max_bytes) AS o;
    IF EXISTS (SELECT 1 FROM ROWS FROM (pg_catalog.unnest(c_outcome), pg_catalog.unnest(c_scope)) AS c (outcome, scope_key)
                WHERE c.outcome IN ('inserted', 'superseded') AND c.scope_key ^@ 'session:') THEN
        PERFORM @schema@_internal.ensure_session(tenant, session, @schema@_internal.context_parent(),
                                                 @schema@_internal.context_agent(), true);
    END IF;
    failures := '[]';
    FOR round IN 1 .. coalesce((SELECT pg_catalog.max(c.round)
                                  FROM ROWS FROM (pg_catalog.unnest(c_round), pg_catalog.unnest(c_outcome)) AS c (round, outcome)
                                 WHERE c.outcome IN ('inserted', 'superseded')), 0) LOOP
        -- In scope-key order, the lock order of every writer; a key the tenant does not
        -- hold (inserted) is written without ON CONFLICT.
        SELECT pg_catalog.array_agg(c.item ORDER BY c.scope_key),
               pg_catalog.array_agg(c.line_no ORDER BY c.scope_key),
               pg_catalog.array_agg(c.outcome = 'inserted' ORDER BY c.scope_key)
          INTO write_items, write_lines, write_fresh
          FROM ROWS FROM (pg_catalog.unnest(c_line), pg_catalog.unnest(c_item), pg_catalog.unnest(c_scope), pg_catalog.unnest(c_outcome), pg_catalog.unnest(c_round))
               AS c (line_no, item, scope_key, outcome, round)
         WHERE c.outcome IN ('inserted', 'superseded') AND c.round = round;
        failures := failures || @schema@_internal.bulk_write(
            write_items, write_lines, tenant, session, @schema@_internal.context_agent(),
            write_fresh);
    END LOOP;

    WITH failed AS (
        SELECT DISTINCT ON (w.ord) w.ord, w.message
          FROM pg_catalog.jsonb_to_recordset(failures) AS w (ord bigint, message text)
         ORDER BY w.ord
    ),
    judged AS (
        SELECT c.line_no,
               CASE WHEN w.ord IS NULL THEN c.reason ELSE 'write_failed' END AS reason,
               CASE WHEN w.ord IS NULL THEN c.outcome ELSE 'rejected' END AS outcome,
               -- worded for a rejected line only (most lines are not)
               CASE WHEN w.ord IS NOT NULL THEN w.message
                    WHEN c.reason IS NOT NULL THEN @schema@_internal.bulk_failure_message(
                        c.reason, c.item, kind, max_bytes, '') END AS message
          FROM ROWS FROM (pg_catalog.unnest(c_line), pg_catalog.unnest(c_item), pg_catalog.unnest(c_reason), pg_catalog.unnest(c_outcome))
               AS c (line_no, item, reason, outcome)
          LEFT JOIN failed AS w ON w.ord = c.line_no
    )
    SELECT pg_catalog.count(*) FILTER (WHERE j.outcome = 'inserted') AS inserted,
           pg_catalog.count(*) FILTER (WHERE j.outcome = 'superseded') AS superseded,
           pg_catalog.count(*) FILTER (WHERE j.outcome = 'duplicate') AS duplicate,
           coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'line_no', j.line_no, 'reason', j.reason, 'message', j.message)
               ORDER BY j.line_no) FILTER (WHERE j.outcome = 'rejected'), '[]') AS rejects
      INTO counts
      FROM judged AS j;
    RETURN pg_catalog.to_jsonb(counts);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_plain_facts(text, bigint [], jsonb []) IS
'Write plain fact lines (their objects, with their line numbers) as bulk_store_facts would: '
'the same checks, in chunks; a fact whose scope key holds the same value and tags is a '
'duplicate and not written, one holding another value is superseded. Returns {inserted, '
'superseded, duplicate, rejects: [{line_no, reason, message}]}.';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_entity_id(reference jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A claim from elsewhere names its entities ({kind, name, aliases?, external_ref?});
    -- an id passes through.
    IF reference IS NULL OR pg_catalog.jsonb_typeof(reference) <> 'object' THEN
        RETURN reference;
    END IF;
    RETURN pg_catalog.to_jsonb(@schema@.ensure_entity(
        reference ->> 'kind', reference ->> 'name',
        coalesce(ARRAY(SELECT pg_catalog.jsonb_array_elements_text(reference -> 'aliases')), '{}'),
        reference ->> 'external_ref'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_entity_id(jsonb) IS
'The entity id a plain claim''s subject or object_entity names: ensure_entity of {kind, name, '
'aliases?, external_ref?}, or the value itself when it is not an object (an id).';

CREATE OR REPLACE FUNCTION @schema@_internal.transfer_plain_line(record jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    answer jsonb;
    claims jsonb;
BEGIN
    -- One line of a type other than fact, through its API function. Returns {outcome}
    -- counters to add: {inserted, superseded, duplicate, rejected}.
    CASE record ->> 'type'
    WHEN 'predicate' THEN
        PERFORM @schema@.define_predicate(record ->> 'name', record ->> 'cardinality',
                                          coalesce(record ->> 'description', ''));
        RETURN '{"inserted": 1}';
    WHEN 'entity' THEN
        PERFORM @schema@_internal.transfer_entity_id(record - 'type');
        RETURN '{"inserted": 1}';
    WHEN 'episode' THEN
        SELECT pg_catalog.jsonb_agg(
                   c || pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                       'subject', @schema@_internal.transfer_entity_id(c -> 'subject'),
                       'object_entity', @schema@_internal.transfer_entity_id(c -> 'object_entity')))
                   ORDER BY n)
          INTO claims
          FROM pg_catalog.jsonb_array_elements(
                   CASE WHEN pg_catalog.jsonb_typeof(record -> 'claims') = 'array'
                        THEN record -> 'claims' ELSE '[]' END) WITH ORDINALITY AS e (c, n);
        answer := @schema@.ingest(record -> 'episode', coalesce(claims, '[]'));
        IF (answer ->> 'duplicate')::boolean THEN
            RETURN '{"duplicate": 1}';
        END IF;
        RETURN pg_catalog.jsonb_build_object(
            'inserted', (answer #>> '{counters,inserted}')::bigint,
            'superseded', (answer #>> '{counters,superseded}')::bigint
                          + (answer #>> '{counters,source_changed}')::bigint,
            'duplicate', (answer #>> '{counters,duplicate}')::bigint
                         + (answer #>> '{counters,corroborated}')::bigint,
            'rejected', (answer #>> '{counters,rejected}')::bigint
                        + (answer #>> '{counters,outranked}')::bigint
                        + (answer #>> '{counters,below_floor}')::bigint);
    WHEN 'graph_node' THEN
        answer := @schema@.graph_upsert_node(
            record ->> 'kind', record ->> 'name', record ->> 'namespace',
            ARRAY(SELECT pg_catalog.jsonb_array_elements_text(record -> 'aliases')),
            ARRAY(SELECT pg_catalog.jsonb_array_elements_text(record -> 'evidence')));
        RETURN CASE WHEN (answer ->> 'created')::boolean THEN '{"inserted": 1}'
                    ELSE '{"duplicate": 1}' END;
    WHEN 'graph_edge' THEN
        answer := @schema@.graph_upsert_edge(
            record ->> 'from_key', record ->> 'to_key', record ->> 'predicate',
            record ->> 'namespace', coalesce((record ->> 'confidence')::double precision, 1),
            ARRAY(SELECT pg_catalog.jsonb_array_elements_text(record -> 'evidence')));
        RETURN CASE answer ->> 'outcome' WHEN 'created' THEN '{"inserted": 1}'
                    WHEN 'reinforced' THEN '{"superseded": 1}' ELSE '{"duplicate": 1}' END;
    ELSE
        RAISE EXCEPTION 'unknown line type %', @schema@_internal.shown(record ->> 'type')
            USING ERRCODE = '22023',
                  HINT = 'plain lines are of type fact, episode, predicate, entity, graph_node '
                         'or graph_edge (docs/transfer.md)';
    END CASE;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_plain_line(jsonb) IS
'Write one plain line of type predicate, entity, episode (ingest, with entities named by '
'{kind, name}), graph_node or graph_edge through its API function; returns the counters it '
'adds. 22023 for an unknown type.';

DROP FUNCTION IF EXISTS @schema@_internal.transfer_plain_batch(text, jsonb);  -- arrays now
CREATE OR REPLACE FUNCTION @schema@_internal.transfer_plain_batch(
    tenant text, line_nos bigint [], records jsonb []
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    fact_lines bigint [];
    fact_records jsonb [];
    totals jsonb;
    line record;
    added jsonb;
    rejects jsonb;
    state text;
    message text;
BEGIN
    -- records: each line's JSON object (NULL for a line that is none: import_batch's)
    SELECT pg_catalog.array_agg(l.line_no ORDER BY l.line_no), pg_catalog.array_agg(l.record ORDER BY l.line_no)
      INTO fact_lines, fact_records
      FROM ROWS FROM (pg_catalog.unnest(line_nos), pg_catalog.unnest(records)) AS l (line_no, record)
     WHERE l.record ->> 'type' = 'fact';
    totals := @schema@_internal.transfer_plain_facts(tenant, fact_lines, fact_records);
    rejects := totals -> 'rejects';
    totals := totals || '{"rejected": 0}';
    FOR line IN
        SELECT l.line_no, l.record
          FROM ROWS FROM (pg_catalog.unnest(line_nos), pg_catalog.unnest(records)) AS l (line_no, record)
         WHERE l.record IS NOT NULL AND l.record ->> 'type' IS DISTINCT FROM 'fact'
         ORDER BY l.line_no
    LOOP
        BEGIN
            added := @schema@_internal.transfer_plain_line(line.record - '_error');
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
            IF @schema@_internal.bulk_error_is_fatal(state) THEN
                RAISE;
            END IF;
            rejects := rejects || pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object(
                'line_no', line.line_no, 'reason', state,
                'message', @schema@_internal.shown(message)));
            added := '{}';
        END;
        SELECT pg_catalog.jsonb_object_agg(k, coalesce((totals ->> k)::bigint, 0)
                                              + coalesce((added ->> k)::bigint, 0))
          INTO totals
          FROM pg_catalog.unnest(ARRAY['inserted', 'superseded', 'duplicate', 'rejected']) AS k;
    END LOOP;
    RETURN totals - 'rejects' || pg_catalog.jsonb_build_object('rejects', rejects);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.transfer_plain_batch(text, bigint [], jsonb []) IS
'Write a batch of plain lines (line numbers and their JSON objects, NULL for a line that is '
'none, which is skipped): the facts set-based, every other line through its API function '
'in a savepoint. Returns {inserted, superseded, duplicate, rejected (claims an episode '
'refused), rejects: [{line_no, reason, message}]}.';
