-- Maintenance: fact expiry, tombstone purge, usage folding (65_usage.sql).

CREATE OR REPLACE FUNCTION @schema@_internal.purge_tombstones_in(
    only_tenant text, ttl_seconds integer, max_rows integer
) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- Hard-deletes tombstones that a crawler reconciled, or that waited longer than the TTL
-- (the tenant's tombstone_ttl_seconds unless ttl_seconds is given); reconciled first.
DECLARE
    purged integer;
BEGIN
    WITH doomed AS (
        SELECT f.tenant, f.fact_id
          FROM @schema@_internal.facts AS f
         WHERE f.deleted_at IS NOT NULL
           AND (only_tenant IS NULL OR f.tenant = only_tenant)
           AND (f.last_crawled_at IS NOT NULL
                OR f.deleted_at < pg_catalog.clock_timestamp() - pg_catalog.make_interval(
                       secs => coalesce(ttl_seconds, (@schema@_internal.setting(
                           f.tenant, 'tombstone_ttl_seconds'))::integer)))
         ORDER BY f.last_crawled_at IS NULL, f.deleted_at, f.fact_id
         LIMIT max_rows
           FOR UPDATE SKIP LOCKED
    )
    DELETE FROM @schema@_internal.facts AS f
     USING doomed AS d
     WHERE f.tenant = d.tenant AND f.fact_id = d.fact_id;
    GET DIAGNOSTICS purged = ROW_COUNT;
    RETURN purged;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.purge_tombstones_in(text, integer, integer) IS
'Delete reconciled or expired tombstones of one tenant (or all, for the maintainer).';

CREATE OR REPLACE FUNCTION @schema@.purge_tombstones(
    ttl_seconds integer DEFAULT NULL,
    "limit" integer DEFAULT 1000
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tenant text := @schema@_internal.context_tenant();
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['facts_manager', 'operator'], 'purge_tombstones');
    IF ttl_seconds < 0 THEN
        RAISE EXCEPTION 'ttl_seconds must not be negative' USING ERRCODE = '22023';
    END IF;
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 100000);
    RETURN pg_catalog.jsonb_build_object(
        'purged', @schema@_internal.purge_tombstones_in(tenant, ttl_seconds, "limit"));
END
$fn$;

COMMENT ON FUNCTION @schema@.purge_tombstones(integer, integer) IS
'Facts manager / operator: hard-delete this tenant''s tombstones that are reconciled '
'(marked crawled) or older than ttl_seconds (default: the tenant''s tombstone_ttl_seconds, '
'21600), reconciled first, at most limit. The fact''s earlier versions stay in its history.';

CREATE OR REPLACE FUNCTION @schema@.purge_tombstones_before(
    cutoff timestamptz,
    include_unreconciled boolean DEFAULT false,
    key_prefix text DEFAULT NULL,
    "limit" integer DEFAULT 1000
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    purged integer;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'purge_tombstones_before');
    IF cutoff IS NULL OR cutoff > pg_catalog.clock_timestamp() THEN
        RAISE EXCEPTION 'cutoff must be a past instant, not %', coalesce(cutoff::text, 'null')
            USING ERRCODE = '22023', HINT = 'tombstones deleted before cutoff are purged';
    END IF;
    IF include_unreconciled IS NULL THEN
        RAISE EXCEPTION 'include_unreconciled must be true or false' USING ERRCODE = '22023';
    END IF;
    IF key_prefix = '' THEN
        RAISE EXCEPTION 'key_prefix must be a non-empty string or omitted' USING ERRCODE = '22023';
    END IF;
    "limit" := @schema@_internal.check_limit("limit", 'limit', 1, 100000);
    -- Never a live fact; reconciled tombstones first; a literal key prefix.
    WITH doomed AS (
        SELECT f.tenant, f.fact_id
          FROM @schema@_internal.facts AS f
         WHERE f.tenant = tenant AND f.deleted_at IS NOT NULL AND f.deleted_at < cutoff
           AND (include_unreconciled OR f.last_crawled_at IS NOT NULL)
           AND (key_prefix IS NULL OR pg_catalog.starts_with(f.key, key_prefix))
         ORDER BY f.last_crawled_at IS NULL, f.deleted_at, f.fact_id
         LIMIT "limit"
           FOR UPDATE SKIP LOCKED
    )
    DELETE FROM @schema@_internal.facts AS f
     USING doomed AS d
     WHERE f.tenant = d.tenant AND f.fact_id = d.fact_id;
    GET DIAGNOSTICS purged = ROW_COUNT;
    RETURN pg_catalog.jsonb_build_object('purged', purged);
END
$fn$;

COMMENT ON FUNCTION @schema@.purge_tombstones_before(timestamptz, boolean, text, integer) IS
'Operator only: hard-delete this tenant''s tombstones deleted before cutoff (a past instant), '
'whatever the TTL: only reconciled ones unless include_unreconciled (which can strand graph '
'evidence a crawler has not removed), only keys starting with key_prefix (literal) when '
'given, reconciled first, at most limit. Live facts are never touched; the history stays.';

-- Created by the maintainer itself (the owner may SET ROLE to it, never inherits it).
SET LOCAL ROLE @schema@_maintainer;

CREATE OR REPLACE FUNCTION @schema@_internal.maintain_all_tenants()
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    purged integer := 0;
    expired integer := 0;
    batch integer;
BEGIN
    -- Runs for every tenant, as the maintainer role; batches keep each lock set small.
    -- Expired facts first: no reader sees them any more.
    LOOP
        batch := @schema@_internal.expire_facts_in(NULL, 5000);
        expired := expired + batch;
        EXIT WHEN batch < 5000;
    END LOOP;
    LOOP
        batch := @schema@_internal.purge_tombstones_in(NULL, NULL, 5000);
        purged := purged + batch;
        EXIT WHEN batch < 5000;
    END LOOP;
    RETURN pg_catalog.jsonb_build_object('purged_tombstones', purged, 'expired_facts', expired,
                                         'folded_fact_uses',
                                         @schema@_internal.fold_fact_uses(NULL),
                                         'finished_at', pg_catalog.clock_timestamp());
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.maintain_all_tenants() IS
'The body of run_maintenance(), owned by the maintainer role (BYPASSRLS) to cross tenants.';

REVOKE ALL ON FUNCTION @schema@_internal.maintain_all_tenants() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @schema@_internal.maintain_all_tenants() TO @schema@_operator;

SET LOCAL ROLE @schema@_owner;

CREATE OR REPLACE FUNCTION @schema@.run_maintenance()
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('run_maintenance');
    RETURN @schema@_internal.maintain_all_tenants();
END
$fn$;

COMMENT ON FUNCTION @schema@.run_maintenance() IS
'The periodic work for every tenant: purge the facts whose expiry passed, and '
'tombstones by each tenant''s TTL; fold the recorded fact uses into fact_usage. Run by '
'`pgfacts worker` every 6 hours (or by pg_cron where installed). Operator only (it '
'crosses tenants; a caller context, when set, must claim the operator). Returns counts.';
