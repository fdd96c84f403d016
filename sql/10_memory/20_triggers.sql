-- The facts write path's invariants, enforced by triggers so no writer can skip them:
-- system time comes from the database clock, every change keeps the previous version,
-- and the etag and crawl state follow content (key, value, deletion), not tags.

CREATE OR REPLACE FUNCTION @schema@_internal.facts_before_insert()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    now_ts timestamptz := pg_catalog.clock_timestamp();
BEGIN
    NEW.system_time := pg_catalog.tstzrange(now_ts, NULL);
    NEW.created_at := now_ts;
    NEW.updated_at := now_ts;
    NEW.etag := 1;
    NEW.last_crawled_at := NULL;
    IF NEW.deleted_at IS NOT NULL THEN
        NEW.deleted_at := now_ts;
    END IF;
    RETURN NEW;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_before_insert() IS
'Trigger: a new fact starts its system time now (database clock), etag 1, queued for crawl.';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_before_update()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    content_changed boolean := NEW.key IS DISTINCT FROM OLD.key
        OR NEW.value IS DISTINCT FROM OLD.value
        OR (NEW.deleted_at IS NULL) <> (OLD.deleted_at IS NULL);
    version_changed boolean := content_changed
        OR NEW.tags IS DISTINCT FROM OLD.tags
        OR NEW.agent_id IS DISTINCT FROM OLD.agent_id
        OR NEW.session_id IS DISTINCT FROM OLD.session_id;
    now_ts timestamptz;
BEGIN
    -- Columns the write path owns: callers cannot move them.
    NEW.system_time := OLD.system_time;
    NEW.created_at := OLD.created_at;
    NEW.updated_at := OLD.updated_at;
    IF (NEW.deleted_at IS NULL) = (OLD.deleted_at IS NULL) THEN
        NEW.deleted_at := OLD.deleted_at;
    END IF;
    IF version_changed THEN
        -- Strictly after the version it closes, so a version's range is never empty.
        now_ts := GREATEST(pg_catalog.clock_timestamp(),
                                      pg_catalog.lower(OLD.system_time) + interval '1 microsecond');
        INSERT INTO @schema@_internal.fact_versions (
            tenant, fact_id, scope_key, key, value, shared, session_id, agent_id, tags,
            created_at, updated_at, deleted_at, etag, system_time)
        VALUES (
            OLD.tenant, OLD.fact_id, OLD.scope_key, OLD.key, OLD.value, OLD.shared,
            OLD.session_id, OLD.agent_id, OLD.tags, OLD.created_at, OLD.updated_at,
            OLD.deleted_at, OLD.etag, pg_catalog.tstzrange(pg_catalog.lower(OLD.system_time), now_ts));
        NEW.system_time := pg_catalog.tstzrange(now_ts, NULL);
        NEW.updated_at := now_ts;
        IF NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL THEN
            NEW.deleted_at := now_ts;
        END IF;
    END IF;
    IF content_changed THEN
        NEW.etag := OLD.etag + 1;
        NEW.last_crawled_at := NULL;
    ELSE
        NEW.etag := OLD.etag;
    END IF;
    RETURN NEW;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_before_update() IS
'Trigger: keep the previous version with its system-time range; bump the etag and requeue '
'for crawl on a key, value or deletion change (not on tags or crawl flags).';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_notify_intake()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Delivered at commit, never for a rolled-back write (NOTIFY is transactional).
    PERFORM pg_catalog.pg_notify('@schema@_intake', pg_catalog.jsonb_build_object(
        'tenant', NEW.tenant, 'key', NEW.key, 'scopeKey', NEW.scope_key,
        'sessionId', NEW.session_id, 'agentId', NEW.agent_id, 'etag', NEW.etag,
        'at', NEW.updated_at)::text);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_notify_intake() IS
'Trigger: NOTIFY @schema@_intake with a JSON payload when a shared intake/ fact is written.';

CREATE OR REPLACE TRIGGER facts_before_insert BEFORE INSERT ON @schema@_internal.facts
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.facts_before_insert();

CREATE OR REPLACE TRIGGER facts_before_update BEFORE UPDATE ON @schema@_internal.facts
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.facts_before_update();

CREATE OR REPLACE TRIGGER facts_notify_intake_insert AFTER INSERT ON @schema@_internal.facts
FOR EACH ROW WHEN (NEW.shared AND NEW.deleted_at IS NULL AND NEW.key LIKE 'intake/%')
EXECUTE FUNCTION @schema@_internal.facts_notify_intake();

CREATE OR REPLACE TRIGGER facts_notify_intake_update AFTER UPDATE ON @schema@_internal.facts
FOR EACH ROW WHEN (NEW.shared AND NEW.deleted_at IS NULL AND NEW.key LIKE 'intake/%'
                   AND NEW.etag <> OLD.etag)
EXECUTE FUNCTION @schema@_internal.facts_notify_intake();
