-- Retention (issue 25): per tenant, how long episodes and recorded memories are kept
-- (episode_retention_seconds, memory_retention_seconds; tombstones: working memory's
-- tombstone_ttl_seconds). apply_retention removes what is older, one tenant at a time as
-- its operator, because the episodes go through the purge path (purge_episodes): every
-- slot they touched is replayed without them and the graph's claim evidence follows the
-- replay. retention_backlog names the tenants with something due, for `pgfacts worker`'s
-- maintenance part.

CREATE OR REPLACE FUNCTION @schema@_internal.retention_cutoff(tenant text, name text)
RETURNS timestamptz
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    seconds integer := (@schema@_internal.setting(tenant, name))::integer;
BEGIN
    IF seconds = 0 THEN
        RETURN NULL;  -- kept for ever
    END IF;
    RETURN pg_catalog.now() - pg_catalog.make_interval(secs => seconds);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.retention_cutoff(text, text) IS
'The instant before which a tenant''s items under a retention setting (seconds) are due: '
'now minus it, NULL for 0 (kept for ever).';

CREATE OR REPLACE FUNCTION @schema@.apply_retention("limit" integer DEFAULT 100)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    episodes_before timestamptz;
    memories_before timestamptz;
    source record;
    counts jsonb;
    episodes integer := 0;
    slots integer := 0;
    sources integer := 0;
    memories integer := 0;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'apply_retention');
    PERFORM @schema@_internal.require_read_committed('apply_retention');
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 10000);
    episodes_before := @schema@_internal.retention_cutoff(tenant, 'episode_retention_seconds');
    memories_before := @schema@_internal.retention_cutoff(tenant, 'memory_retention_seconds');
    -- The oldest due episodes (at most limit), source by source through the purge path: a
    -- source's newer versions stay, and its slots are replayed with them.
    FOR source IN
        SELECT d.source_kind, d.source_ref,
               pg_catalog.array_agg(d.episode_id ORDER BY d.episode_id) AS doomed
          FROM (SELECT e.source_kind, e.source_ref, e.episode_id
                  FROM @schema@_internal.episodes AS e
                 WHERE e.tenant = tenant
                   AND (e.recorded_at < episodes_before
                        -- expired (migration 0051): reads already treat its claims as absent
                        OR e.expires_at <= pg_catalog.clock_timestamp())
                 ORDER BY e.recorded_at, e.episode_id
                 LIMIT "limit") AS d
         GROUP BY d.source_kind, d.source_ref
         ORDER BY pg_catalog.min(d.episode_id)
    LOOP
        counts := @schema@_internal.purge_episodes(tenant, source.source_kind, source.source_ref,
                                                   source.doomed);
        episodes := episodes + (counts ->> 'episodes')::integer;
        slots := slots + (counts ->> 'slots_rebuilt')::integer;
        sources := sources + 1;
    END LOOP;
    -- Recorded memories: their extraction events go with them (an event still leased is
    -- simply no longer the worker's: its completion is refused, 55000).
    WITH due AS (
        SELECT m.memory_id FROM @schema@_internal.memories AS m
         WHERE m.tenant = tenant AND m.recorded_at < memories_before
         ORDER BY m.recorded_at, m.memory_id
         LIMIT "limit"
           FOR UPDATE
    ),
    events AS (
        DELETE FROM @schema@_internal.extraction_events AS x
         USING due AS d
         WHERE x.tenant = tenant AND x.memory_id = d.memory_id
    )
    DELETE FROM @schema@_internal.memories AS m
     USING due AS d
     WHERE m.tenant = tenant AND m.memory_id = d.memory_id;
    GET DIAGNOSTICS memories = ROW_COUNT;
    RETURN pg_catalog.jsonb_build_object('episodes', episodes, 'sources', sources,
        'slots_rebuilt', slots, 'memories', memories);
END
$fn$;

COMMENT ON FUNCTION @schema@.apply_retention(integer) IS
'Operator only: apply the caller tenant''s retention: purge its episodes recorded longer ago '
'than episode_retention_seconds, and those whose expiry has passed (the oldest first, at '
'most limit, 1..10000, default 100) '
'through the purge path, source by source (each leaves a purge_source audit row), and '
'delete its recorded memories older than memory_retention_seconds with their extraction '
'events (at most limit). 0 (the default of both) keeps them for ever. Returns {episodes, '
'sources, slots_rebuilt, memories}. `pgfacts worker` runs it for every tenant '
'retention_backlog names.';

-- Created by the maintainer itself: it reads every tenant's episodes and memories.
SET LOCAL ROLE @schema@_maintainer;

CREATE OR REPLACE FUNCTION @schema@_internal.retention_backlog_all()
RETURNS TABLE (tenant text, episodes_due bigint, memories_due bigint)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Only tenants that set a retention, or hold an expired episode, have anything due.
    SELECT t.tenant,
           (SELECT pg_catalog.count(*) FROM @schema@_internal.episodes AS e
             WHERE e.tenant = t.tenant
               AND (e.recorded_at < @schema@_internal.retention_cutoff(
                        t.tenant, 'episode_retention_seconds')
                    OR e.expires_at <= pg_catalog.clock_timestamp())),
           (SELECT pg_catalog.count(*) FROM @schema@_internal.memories AS m
             WHERE m.tenant = t.tenant AND m.recorded_at < @schema@_internal.retention_cutoff(
                       t.tenant, 'memory_retention_seconds'))
      FROM (SELECT s.tenant FROM @schema@_internal.settings AS s
             WHERE s.name IN ('episode_retention_seconds', 'memory_retention_seconds')
               AND s.value <> '0'
            UNION
            SELECT e.tenant FROM @schema@_internal.episodes AS e
             WHERE e.expires_at <= pg_catalog.clock_timestamp()) AS t
     ORDER BY t.tenant
$fn$;

COMMENT ON FUNCTION @schema@_internal.retention_backlog_all() IS
'The body of retention_backlog(), owned by the maintainer role (BYPASSRLS) to cross tenants.';

REVOKE ALL ON FUNCTION @schema@_internal.retention_backlog_all() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @schema@_internal.retention_backlog_all() TO @schema@_operator;

SET LOCAL ROLE @schema@_owner;

CREATE OR REPLACE FUNCTION @schema@.retention_backlog()
RETURNS TABLE (tenant text, episodes_due bigint, memories_due bigint)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('retention_backlog');
    RETURN QUERY SELECT * FROM @schema@_internal.retention_backlog_all() AS b
                  WHERE b.episodes_due > 0 OR b.memories_due > 0;
END
$fn$;

COMMENT ON FUNCTION @schema@.retention_backlog() IS
'Operator: every tenant with episodes or recorded memories older than its retention, or '
'with expired episodes (episodes_due, memories_due), for `pgfacts worker`''s maintenance, which runs '
'apply_retention as each one''s operator.';
