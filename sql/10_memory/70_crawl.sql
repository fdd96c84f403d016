-- The crawl queue: facts whose content changed since a crawler last incorporated them.

CREATE OR REPLACE FUNCTION @schema@.facts_read_uncrawled(
    key_prefix text DEFAULT NULL,
    "limit" integer DEFAULT 20
) RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.require_kind(
        ARRAY['crawler', 'facts_manager'], 'facts_read_uncrawled');
    rows jsonb;
BEGIN
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 500);
    PERFORM @schema@_internal.check_text(key_prefix, 'key_prefix', 1024);
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'scopeKey', q.scope_key, 'key', q.key, 'value', q.value, 'shared', q.shared,
               'sessionId', q.session_id, 'agentId', q.agent_id, 'tags', q.tags,
               'updatedAt', q.updated_at, 'deletedAt', q.deleted_at, 'etag', q.etag)
               ORDER BY q.key, q.fact_id), '[]')
      INTO rows
      FROM (SELECT f.* FROM @schema@_internal.facts AS f
             WHERE f.tenant = tenant AND f.last_crawled_at IS NULL
               AND f.key ^@ coalesce(key_prefix, '')
               AND @schema@_internal.readable_by(f.key, kind)
             ORDER BY f.key, f.fact_id
             LIMIT "limit") AS q;
    RETURN pg_catalog.jsonb_build_object('count', pg_catalog.jsonb_array_length(rows), 'facts', rows);
END
$fn$;

COMMENT ON FUNCTION @schema@.facts_read_uncrawled(text, integer) IS
'Crawler / facts manager: facts queued for crawl (new or changed since last marked), '
'tombstones included with deletedAt, ordered by key; key_prefix is literal (no wildcards); '
'limit 1..500 (default 20). Each row carries scopeKey and etag for facts_set_crawled.';

CREATE OR REPLACE FUNCTION @schema@.facts_set_crawled(
    scope_keys jsonb DEFAULT NULL,
    key_prefix text DEFAULT NULL,
    crawled boolean DEFAULT true
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.require_kind(
        ARRAY['crawler', 'facts_manager'], 'facts_set_crawled');
    stamp timestamptz := CASE WHEN crawled THEN pg_catalog.clock_timestamp() END;
    matched int;
    affected int;
    bad text;
BEGIN
    IF crawled IS NULL THEN
        RAISE EXCEPTION 'crawled must be true or false' USING ERRCODE = '22023';
    END IF;
    IF (scope_keys IS NULL) = (key_prefix IS NULL) THEN
        RAISE EXCEPTION 'pass exactly one of scope_keys or key_prefix' USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.check_text(key_prefix, 'key_prefix', 1024);
    IF key_prefix IS NOT NULL THEN
        IF key_prefix = '' THEN
            RAISE EXCEPTION 'key_prefix must be a non-empty string'
                USING ERRCODE = '22023', HINT = 'an empty prefix would select every fact';
        END IF;
        -- crawled => true is a coarse flush: tombstones need a receipt by scope key.
        SELECT pg_catalog.count(*) INTO matched FROM @schema@_internal.facts AS f
         WHERE f.tenant = tenant AND f.key ^@ key_prefix
           AND (NOT crawled OR f.deleted_at IS NULL);
        UPDATE @schema@_internal.facts AS f SET last_crawled_at = stamp
         WHERE f.tenant = tenant AND f.key ^@ key_prefix
           AND (NOT crawled OR f.deleted_at IS NULL)
           AND (f.last_crawled_at IS NULL) = crawled;
        GET DIAGNOSTICS affected = ROW_COUNT;
        RETURN pg_catalog.jsonb_build_object('affected', affected, 'skipped', matched - affected);
    END IF;

    IF pg_catalog.jsonb_typeof(scope_keys) <> 'array'
       OR pg_catalog.jsonb_array_length(scope_keys) NOT BETWEEN 1 AND 500 THEN
        RAISE EXCEPTION 'scope_keys must be an array of 1 to 500 {scopeKey, etag?} entries'
            USING ERRCODE = '22023';
    END IF;
    SELECT pg_catalog.string_agg(pg_catalog.format('entry %s', e.ord), ', ') INTO bad
      FROM pg_catalog.jsonb_array_elements(scope_keys) WITH ORDINALITY AS e (item, ord)
     WHERE pg_catalog.jsonb_typeof(e.item) <> 'object'
        OR pg_catalog.jsonb_typeof(e.item -> 'scopeKey') IS DISTINCT FROM 'string'
        OR e.item ->> 'scopeKey' = ''
        OR pg_catalog.length(e.item ->> 'scopeKey') > 2048
        -- a positive integer, or the same as a decimal string (PilotSwarm crawlers send both)
        OR (e.item ? 'etag' AND NOT (pg_catalog.jsonb_typeof(e.item -> 'etag') IN ('number', 'string')
                                     AND (e.item ->> 'etag') ~ '^[1-9][0-9]{0,17}$'))
        OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_object_keys(e.item) AS k
                    WHERE k NOT IN ('scopeKey', 'etag'));
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'each scope_keys entry needs a non-empty scopeKey of at most 2048 '
            'characters and, optionally, a positive integer etag (a number or a decimal string)'
            USING ERRCODE = '22023', DETAIL = 'bad: ' || @schema@_internal.shown(bad),
            HINT = 'omit etag only for an intentional stomp';
    END IF;
    SELECT pg_catalog.string_agg(d.k, ', ') INTO bad
      FROM (SELECT e ->> 'scopeKey' AS k FROM pg_catalog.jsonb_array_elements(scope_keys) AS e
             GROUP BY 1 HAVING pg_catalog.count(*) > 1) AS d;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'duplicate scopeKey in scope_keys' USING ERRCODE = '22023',
            DETAIL = @schema@_internal.shown(bad);
    END IF;

    WITH entries AS MATERIALIZED (
        -- The scope key's parts, for facts_scope_idx, computed apart (materialized): a
        -- join condition calling functions that are not leakproof cannot be an index
        -- condition under row level security.
        SELECT k.scope_key, k.etag, @schema@_internal.scope_key_scope(k.scope_key) AS scope,
               @schema@_internal.scope_key_key(k.scope_key) AS key
          FROM (SELECT e ->> 'scopeKey' AS scope_key, (e ->> 'etag')::bigint AS etag
                  FROM pg_catalog.jsonb_array_elements(scope_keys) AS e) AS k
    ),
    named AS MATERIALIZED (
        SELECT f.fact_id, e.etag AS receipt
          FROM @schema@_internal.facts AS f JOIN entries AS e ON e.scope_key = f.scope_key
           AND @schema@_internal.fact_scope(f.shared, f.session_id) = e.scope AND f.key = e.key
         WHERE f.tenant = tenant
    ),
    marked AS (
        -- The etag and crawl state are checked on the row being updated (re-read if a
        -- concurrent write changed it), not on what the read above saw.
        UPDATE @schema@_internal.facts AS f SET last_crawled_at = stamp
          FROM named AS n
         WHERE f.tenant = tenant AND f.fact_id = n.fact_id
           AND (n.receipt IS NULL OR f.etag = n.receipt)
           AND (f.last_crawled_at IS NULL) = crawled
        RETURNING 1
    )
    SELECT (SELECT pg_catalog.count(*) FROM named), (SELECT pg_catalog.count(*) FROM marked)
      INTO matched, affected;
    RETURN pg_catalog.jsonb_build_object('affected', affected, 'skipped', matched - affected);
END
$fn$;

COMMENT ON FUNCTION @schema@.facts_set_crawled(jsonb, text, boolean) IS
'Crawler / facts manager: mark facts crawled (or requeue with crawled => false). scope_keys: '
'[{scopeKey, etag?}] (1..500), each a compare-and-set on etag (a positive integer or a '
'decimal string; no etag = intentional stomp); or key_prefix (literal) to flip a prefix, '
'where crawled => true skips tombstones. '
'Returns {affected, skipped}: skipped rows exist but were already in that state or changed '
'since read (etag mismatch); unknown scope keys count as neither.';
