-- Statistics for operators and management screens: what working memory holds, and the
-- tombstones waiting for a crawler or the purge.

CREATE OR REPLACE FUNCTION @schema@_internal.key_bucket(key text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The first path segment when it is one of the pipeline's namespaces, else other.
    RETURN CASE
        WHEN pg_catalog.starts_with(key, 'skills/') THEN 'skills'
        WHEN pg_catalog.starts_with(key, 'asks/') THEN 'asks'
        WHEN pg_catalog.starts_with(key, 'config/') THEN 'config'
        WHEN pg_catalog.starts_with(key, 'intake/') THEN 'intake'
        ELSE 'other'
    END;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.key_bucket(text) IS
'The statistics bucket of a key: skills, asks, config, intake (by first path segment) or other.';

CREATE OR REPLACE FUNCTION @schema@.facts_stats()
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    result jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['facts_manager', 'tuner', 'operator'], 'facts_stats');
    -- One pass over the tenant's facts (tools/ keys, which no kind reads, are left out).
    WITH counted AS (
        SELECT @schema@_internal.key_bucket(f.key) AS bucket,
               CASE WHEN f.shared THEN 'shared' ELSE 'session' END AS scope,
               coalesce(f.writer_kind, 'unknown') AS writer_kind,
               f.deleted_at IS NULL AS live,
               f.last_crawled_at IS NULL AS uncrawled,
               pg_catalog.pg_column_size(f.value) AS value_bytes
          FROM @schema@_internal.facts AS f
         WHERE f.tenant = tenant AND NOT pg_catalog.starts_with(f.key, 'tools/')
    )
    SELECT pg_catalog.jsonb_build_object(
        'live', pg_catalog.count(*) FILTER (WHERE c.live),
        'tombstones', pg_catalog.count(*) FILTER (WHERE NOT c.live),
        'uncrawled', pg_catalog.count(*) FILTER (WHERE c.uncrawled),
        'uncrawled_tombstones', pg_catalog.count(*) FILTER (WHERE c.uncrawled AND NOT c.live),
        'buckets', coalesce((
            SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'bucket', b.bucket, 'scope', b.scope, 'facts', b.facts,
                       'value_bytes', b.value_bytes) ORDER BY b.facts DESC, b.bucket, b.scope)
              FROM (SELECT d.bucket, d.scope, pg_catalog.count(*) AS facts,
                           pg_catalog.sum(d.value_bytes) AS value_bytes
                      FROM counted AS d WHERE d.live GROUP BY d.bucket, d.scope) AS b), '[]'),
        'writer_kinds', coalesce((
            SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'writer_kind', w.writer_kind, 'facts', w.facts)
                       ORDER BY w.facts DESC, w.writer_kind)
              FROM (SELECT d.writer_kind, pg_catalog.count(*) AS facts
                      FROM counted AS d WHERE d.live GROUP BY d.writer_kind) AS w), '[]'))
      INTO result
      FROM counted AS c;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.facts_stats() IS
'Facts manager / tuner / operator: this tenant''s working memory in numbers: live facts, '
'tombstones, the uncrawled backlog (uncrawled, of which uncrawled_tombstones), live facts '
'by bucket (skills, asks, config, intake, other) and scope (shared, session) with their '
'value bytes, and live facts by the agent kind that wrote them (unknown: before 0008).';

CREATE OR REPLACE FUNCTION @schema@.tombstone_stats(ttl_seconds integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    ttl integer;
    result jsonb;
BEGIN
    PERFORM @schema@_internal.require_kind(
        ARRAY['facts_manager', 'tuner', 'operator'], 'tombstone_stats');
    IF ttl_seconds < 0 THEN
        RAISE EXCEPTION 'ttl_seconds must not be negative' USING ERRCODE = '22023';
    END IF;
    ttl := coalesce(ttl_seconds,
                    (@schema@_internal.setting(tenant, 'tombstone_ttl_seconds'))::integer);
    SELECT pg_catalog.jsonb_build_object(
        'ttl_seconds', ttl,
        'pending', pg_catalog.count(*),
        'reconciled', pg_catalog.count(*) FILTER (WHERE f.last_crawled_at IS NOT NULL),
        'unreconciled', pg_catalog.count(*) FILTER (WHERE f.last_crawled_at IS NULL),
        'blocked_by_ttl', pg_catalog.count(*) FILTER (
            WHERE f.last_crawled_at IS NULL
              AND f.deleted_at >= pg_catalog.clock_timestamp() - pg_catalog.make_interval(secs => ttl)),
        'oldest_unreconciled_age_seconds', pg_catalog.round(pg_catalog.date_part('epoch',
            pg_catalog.clock_timestamp() - pg_catalog.min(f.deleted_at) FILTER (
                WHERE f.last_crawled_at IS NULL)))::bigint)
      INTO result
      FROM @schema@_internal.facts AS f
     WHERE f.tenant = tenant AND f.deleted_at IS NOT NULL;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.tombstone_stats(integer) IS
'Facts manager / tuner / operator: this tenant''s tombstones: pending (all), reconciled '
'(marked crawled, purged next), unreconciled, blocked_by_ttl (unreconciled and younger than '
'the TTL: purge_tombstones keeps them), oldest_unreconciled_age_seconds (NULL when none). '
'ttl_seconds defaults to the tenant''s tombstone_ttl_seconds (21600).';
