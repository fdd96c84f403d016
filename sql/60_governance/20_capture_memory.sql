-- Capture of working-memory changes: statement triggers with transition tables on the facts
-- (one function call and one insert per statement, however many rows it changed), each
-- row's operation read from the change itself:
--   insert, or a new version (value, key, tags, revival)   store
--   a tombstone                                            delete | delete_pattern | session_cleanup
--   only the crawl mark moved                              crawl_mark
--   a hard delete (tombstone purge)                        purge
-- "When" is the instant the row carries: its version's start (updated_at, the
-- transaction's fact write instant), the crawl stamp, or for a purge the instant its
-- archived version was closed at (facts_before_delete's). Values are digests only.

-- Inlinable (the facts triggers evaluate it per row).
CREATE OR REPLACE FUNCTION @schema@_internal.audit_fact_state(
    etag bigint, shared boolean, tags text [], deleted_at timestamptz, value jsonb
) RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'etag', etag, 'shared', shared, 'tags', pg_catalog.to_jsonb(tags),
        'deleted', deleted_at IS NOT NULL,
        'value_sha256', @schema@_internal.audit_digest(value::text))
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_fact_state(bigint, boolean, text [], timestamptz, jsonb) IS
'A fact version as the audit keeps it: etag, shared, tags, deleted and a digest of the value '
'(inlined).';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_tombstone_operation()
RETURNS text
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    stack text;
BEGIN
    -- Which API function tombstoned: the call stack names it (a pattern delete runs in
    -- delete_facts_by_pattern). Read once per statement that tombstones, never on a store.
    GET DIAGNOSTICS stack = PG_CONTEXT;
    IF pg_catalog.strpos(stack, 'function @schema@.delete_session(') > 0 THEN
        RETURN 'session_cleanup';
    END IF;
    IF pg_catalog.strpos(stack, 'function @schema@_internal.delete_facts_by_pattern(') > 0 THEN
        RETURN 'delete_pattern';
    END IF;
    RETURN 'delete';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_tombstone_operation() IS
'The audit operation of a tombstone: session_cleanup (delete_session), delete_pattern '
'(delete_fact by pattern) or delete, read from the call stack.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_facts_inserted()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    entries @schema@_internal.audit_entry [];
BEGIN
    -- Inserts and updates are the caller's tenant's (the owner's policy): with its audit
    -- off nothing is built.
    IF NOT @schema@_internal.audit_enabled(pg_catalog.current_setting('pgfacts.tenant', true)) THEN
        RETURN NULL;
    END IF;
    entries := ARRAY(
        SELECT ROW(n.tenant, n.updated_at, 'store', n.scope_key, NULL,
                   @schema@_internal.audit_fact_state(n.etag, n.shared, n.tags, n.deleted_at, n.value)
               )::@schema@_internal.audit_entry
          FROM inserted AS n);
    -- An upsert that updated fires the insert trigger too, with no rows.
    IF pg_catalog.cardinality(entries) > 0 THEN
        PERFORM @schema@_internal.append_audit(entries);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_facts_inserted() IS
'Statement trigger: a store row per fact inserted.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_facts_updated()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tombstone text;
    entries @schema@_internal.audit_entry [];
BEGIN
    IF NOT @schema@_internal.audit_enabled(pg_catalog.current_setting('pgfacts.tenant', true)) THEN
        RETURN NULL;
    END IF;
    IF EXISTS (SELECT 1 FROM updated_new AS n WHERE n.deleted_at IS NOT NULL) THEN
        tombstone := @schema@_internal.audit_tombstone_operation();
    END IF;
    entries := ARRAY(
        SELECT ROW(n.tenant, CASE k.op WHEN 'crawl_mark' THEN n.last_crawled_at ELSE n.updated_at END,
                   k.op, n.scope_key,
                   @schema@_internal.audit_fact_state(o.etag, o.shared, o.tags, o.deleted_at, o.value),
                   @schema@_internal.audit_fact_state(n.etag, n.shared, n.tags, n.deleted_at, n.value)
                       || CASE k.op WHEN 'crawl_mark' THEN pg_catalog.jsonb_build_object(
                              'crawled_at', n.last_crawled_at) ELSE '{}' END
               )::@schema@_internal.audit_entry
          FROM updated_old AS o
          JOIN updated_new AS n ON n.tenant = o.tenant AND n.fact_id = o.fact_id
         CROSS JOIN LATERAL (SELECT CASE
                   WHEN o.deleted_at IS NULL AND n.deleted_at IS NOT NULL THEN tombstone
                   WHEN n.etag <> o.etag OR n.system_time <> o.system_time
                        OR n.tags IS DISTINCT FROM o.tags THEN 'store'
                   WHEN n.last_crawled_at IS DISTINCT FROM o.last_crawled_at
                        AND n.last_crawled_at IS NOT NULL THEN 'crawl_mark'
               END AS op) AS k
         WHERE k.op IS NOT NULL);
    IF pg_catalog.cardinality(entries) > 0 THEN
        PERFORM @schema@_internal.append_audit(entries);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_facts_updated() IS
'Statement trigger: a row per fact whose version, tombstone or crawl mark changed (a '
'search-document refresh changes none of them and is not audited).';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_facts_deleted()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.append_audit(ARRAY(
        SELECT ROW(o.tenant,
                   GREATEST(pg_catalog.now(), pg_catalog.lower(o.system_time) + interval '1 microsecond'),
                   'purge', o.scope_key,
                   @schema@_internal.audit_fact_state(o.etag, o.shared, o.tags, o.deleted_at, o.value),
                   NULL)::@schema@_internal.audit_entry
          FROM deleted AS o));
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_facts_deleted() IS
'Statement trigger: a purge row per fact hard-deleted, its last version as a digest.';

CREATE OR REPLACE TRIGGER facts_audit_inserted AFTER INSERT ON @schema@_internal.facts
REFERENCING NEW TABLE AS inserted
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_facts_inserted();

CREATE OR REPLACE TRIGGER facts_audit_updated AFTER UPDATE ON @schema@_internal.facts
REFERENCING OLD TABLE AS updated_old NEW TABLE AS updated_new
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_facts_updated();

CREATE OR REPLACE TRIGGER facts_audit_deleted AFTER DELETE ON @schema@_internal.facts
REFERENCING OLD TABLE AS deleted
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_facts_deleted();
