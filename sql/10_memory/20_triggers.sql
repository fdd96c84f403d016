-- The facts write path's invariants, enforced by triggers so no writer can skip them:
-- system time comes from the database clock, every change keeps the previous version,
-- and the etag and crawl state follow content (key, value, deletion), not tags.
--
-- System time is the writing transaction's instant in the tenant (fact_write_instant,
-- 15_write_instants.sql: taken at its first fact write), so everything one transaction
-- writes becomes known at one instant and a batch is never half-visible to known_at. A
-- row changed twice in one transaction keeps one version: the intermediate state was
-- never visible to anyone. If a transaction that took its instant earlier overwrites a
-- version a later one wrote, its instant is moved just past that version's start so
-- system time stays ordered.

CREATE OR REPLACE FUNCTION @schema@_internal.archive_fact_version(
    version @schema@_internal.facts, known_until timestamptz
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    INSERT INTO @schema@_internal.fact_versions (
        tenant, fact_id, scope_key, key, value, shared, session_id, agent_id, tags,
        created_at, updated_at, deleted_at, etag, system_time)
    VALUES (
        version.tenant, version.fact_id, version.scope_key, version.key, version.value,
        version.shared, version.session_id, version.agent_id, version.tags,
        version.created_at, version.updated_at, version.deleted_at, version.etag,
        pg_catalog.tstzrange(pg_catalog.lower(version.system_time), known_until));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.archive_fact_version(@schema@_internal.facts, timestamptz) IS
'Keep a fact version in the history, current from its start until known_until.';

CREATE OR REPLACE FUNCTION @schema@_internal.note_history_end(
    for_tenant text, known_until timestamptz
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A scope key's history now ends at known_until with no current row behind it (a
    -- purge). A fact created again under it must start after that: rows this statement
    -- inserts later see the flag, later statements and other transactions fact_purges.
    IF known_until > pg_catalog.now() THEN
        PERFORM pg_catalog.set_config('pgfacts.history_after_now', 'on', true);
    END IF;
    INSERT INTO @schema@_internal.fact_purges AS p (tenant, history_until)
    VALUES (for_tenant, known_until)
    ON CONFLICT ON CONSTRAINT fact_purges_pkey DO UPDATE
       SET history_until = excluded.history_until
     WHERE p.history_until < excluded.history_until;
    -- What this transaction noted last (facts_before_delete skips noting it again).
    PERFORM pg_catalog.set_config('pgfacts.history_noted', for_tenant || ' ' || known_until, true);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.note_history_end(text, timestamptz) IS
'Record that a history without a current row (a purged fact) ends at known_until, so a fact '
'created again under its scope key starts after it (facts_before_insert).';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_before_insert_statement()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    caller_tenant text := NULLIF(pg_catalog.current_setting('pgfacts.tenant', true), '');
BEGIN
    -- Once per statement: has a purge ended some history after this transaction began
    -- (by this transaction, or by one that began later and committed)? Only then can a
    -- new row's system time have to start later than now(), and only then does
    -- facts_before_insert look at the history, row by row. With a caller context the
    -- answer is its tenant's ('off <tenant>' holds for that tenant's rows alone), asked by
    -- the tenant as a table distributed by tenant needs.
    IF caller_tenant IS NULL THEN
        PERFORM pg_catalog.set_config('pgfacts.history_after_now',
            CASE WHEN EXISTS (SELECT 1 FROM @schema@_internal.fact_purges AS p
                               WHERE p.history_until > pg_catalog.now())
                 THEN 'on' ELSE 'off' END, true);
    ELSE
        PERFORM pg_catalog.set_config('pgfacts.history_after_now',
            CASE WHEN EXISTS (SELECT 1 FROM @schema@_internal.fact_purges AS p
                               WHERE p.tenant = caller_tenant
                                 AND p.history_until > pg_catalog.now())
                 THEN 'on' ELSE 'off ' || caller_tenant END, true);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_before_insert_statement() IS
'Statement trigger: note whether a purge ended some history after this transaction began, '
'so facts_before_insert searches the history only then.';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_before_insert()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- The note first: after the first row it holds NEW.tenant's instant (calling
    -- fact_write_instant for every row cost about 1 us a row).
    known_at timestamptz := coalesce(@schema@_internal.noted_write_instant(NEW.tenant),
                                     @schema@_internal.fact_write_instant(NEW.tenant));
    last_known timestamptz;
BEGIN
    -- A fact created again after a purge starts after its archived history ends. Only a
    -- purge leaves history behind a key without a current row (an insert over a current
    -- row becomes an update or fails), so the history is searched only when a purge ended
    -- some after now() (facts_before_insert_statement, note_history_end); 'off' is never
    -- assumed when the flag is missing or names another tenant.
    IF coalesce(pg_catalog.current_setting('pgfacts.history_after_now', true), 'on')
       NOT IN ('off', 'off ' || NEW.tenant) THEN
        SELECT pg_catalog.max(pg_catalog.upper(v.system_time)) INTO last_known
          FROM @schema@_internal.fact_versions AS v
         WHERE v.tenant = NEW.tenant AND v.scope_key = NEW.scope_key;
        known_at := GREATEST(known_at, last_known);
    END IF;
    NEW.system_time := pg_catalog.tstzrange(known_at, NULL);
    NEW.created_at := known_at;
    NEW.updated_at := known_at;
    NEW.etag := pg_catalog.nextval('@schema@_internal.facts_etag_seq');
    NEW.last_crawled_at := NULL;
    NEW.owner_session_id := NEW.session_id;
    NEW.owner_agent_id := NEW.agent_id;
    IF NEW.deleted_at IS NOT NULL THEN
        NEW.deleted_at := known_at;
    END IF;
    RETURN NEW;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_before_insert() IS
'Trigger: a new fact starts its system time at the transaction''s write instant (after any purged '
'history of its scope key), gets a fresh etag, is queued for crawl and is owned by its writer.';

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
    same_transaction boolean := false;
    known_at timestamptz;
    instant timestamptz;
BEGIN
    IF version_changed THEN
        instant := @schema@_internal.fact_write_instant(OLD.tenant);
        -- Written earlier by this very transaction? Only then can its version start at
        -- the same instant.
        IF pg_catalog.lower(OLD.system_time) = instant THEN
            SELECT f.xmin = pg_catalog.pg_current_xact_id()::xid INTO same_transaction
              FROM @schema@_internal.facts AS f
             WHERE f.tenant = OLD.tenant AND f.fact_id = OLD.fact_id;
        END IF;
    END IF;
    -- Columns the write path owns: callers cannot move them.
    NEW.system_time := OLD.system_time;
    NEW.created_at := OLD.created_at;
    NEW.updated_at := OLD.updated_at;
    NEW.owner_session_id := OLD.owner_session_id;
    NEW.owner_agent_id := OLD.owner_agent_id;
    IF (NEW.deleted_at IS NULL) = (OLD.deleted_at IS NULL) THEN
        NEW.deleted_at := OLD.deleted_at;
    END IF;
    IF version_changed THEN
        known_at := GREATEST(instant, pg_catalog.lower(OLD.system_time));
        IF NOT same_transaction AND known_at = pg_catalog.lower(OLD.system_time) THEN
            known_at := known_at + interval '1 microsecond';
        END IF;
        IF NOT same_transaction THEN
            PERFORM @schema@_internal.archive_fact_version(OLD, known_at);
            NEW.system_time := pg_catalog.tstzrange(known_at, NULL);
            IF NEW.scope_key <> OLD.scope_key THEN
                -- The old scope key's history is left without a current row.
                PERFORM @schema@_internal.note_history_end(OLD.tenant, known_at);
            END IF;
        END IF;
        NEW.updated_at := pg_catalog.lower(NEW.system_time);
        IF NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL THEN
            NEW.deleted_at := NEW.updated_at;
        END IF;
        IF NEW.deleted_at IS NULL AND OLD.deleted_at IS NOT NULL THEN
            -- Whoever revives a tombstone owns the fact from now on.
            NEW.owner_session_id := NEW.session_id;
            NEW.owner_agent_id := NEW.agent_id;
        END IF;
    END IF;
    IF content_changed THEN
        NEW.etag := pg_catalog.nextval('@schema@_internal.facts_etag_seq');
        NEW.last_crawled_at := NULL;
    ELSE
        NEW.etag := OLD.etag;
    END IF;
    RETURN NEW;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_before_update() IS
'Trigger: keep the previous version with its system-time range; take a new etag and requeue '
'for crawl on a key, value or deletion change (not on tags or crawl flags).';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_before_delete()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    known_at timestamptz := GREATEST(pg_catalog.now(),
                                     pg_catalog.lower(OLD.system_time) + interval '1 microsecond');
BEGIN
    -- A purge removes the current row but not its story: the last version (a tombstone)
    -- goes to the history, closed now. Only tombstones are purged, and a tombstone answers
    -- no read at any instant, so this needs no write instant (nor its lock: the maintainer
    -- runs purges across tenants).
    PERFORM @schema@_internal.archive_fact_version(OLD, known_at);
    -- A purge of many rows ends them at one instant: noted once (a rolled-back
    -- subtransaction takes the note back with the row it noted).
    IF pg_catalog.current_setting('pgfacts.history_noted', true)
       IS DISTINCT FROM OLD.tenant || ' ' || known_at THEN
        PERFORM @schema@_internal.note_history_end(OLD.tenant, known_at);
    END IF;
    RETURN OLD;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_before_delete() IS
'Trigger: archive the last version of a fact that is hard-deleted (tombstone purge).';

CREATE OR REPLACE TRIGGER facts_before_insert_statement BEFORE INSERT ON @schema@_internal.facts
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.facts_before_insert_statement();

CREATE OR REPLACE TRIGGER facts_before_insert BEFORE INSERT ON @schema@_internal.facts
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.facts_before_insert();

CREATE OR REPLACE TRIGGER facts_before_update BEFORE UPDATE ON @schema@_internal.facts
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.facts_before_update();

CREATE OR REPLACE TRIGGER facts_before_delete BEFORE DELETE ON @schema@_internal.facts
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.facts_before_delete();

CREATE OR REPLACE FUNCTION @schema@_internal.facts_notify_intake()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A doorbell, not a message: LISTEN needs no privilege, so every login of the database
    -- hears this channel, and any login can send on it. The payload is therefore empty
    -- (one notification per committing transaction: PostgreSQL folds equal ones), and the
    -- listener learns what changed from @schema@.read_intake(), under its own tenant and
    -- kind. Delivered at commit, never for a rolled-back write (NOTIFY is transactional).
    PERFORM pg_catalog.pg_notify('@schema@_intake', '');
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_notify_intake() IS
'Trigger: ring @schema@_intake (an empty payload) when a shared intake/ fact is written; '
'the listener fetches what changed with @schema@.read_intake().';

CREATE OR REPLACE TRIGGER facts_notify_intake_insert AFTER INSERT ON @schema@_internal.facts
FOR EACH ROW WHEN (NEW.shared AND NEW.deleted_at IS NULL AND NEW.key LIKE 'intake/%')
EXECUTE FUNCTION @schema@_internal.facts_notify_intake();

CREATE OR REPLACE TRIGGER facts_notify_intake_update AFTER UPDATE ON @schema@_internal.facts
FOR EACH ROW WHEN (NEW.shared AND NEW.deleted_at IS NULL AND NEW.key LIKE 'intake/%'
                   AND NEW.etag <> OLD.etag)
EXECUTE FUNCTION @schema@_internal.facts_notify_intake();
