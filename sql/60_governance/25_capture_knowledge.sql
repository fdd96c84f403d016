-- Capture of knowledge changes, at their commit instant. A knowledge write's rows carry a
-- provisional instant until its commit, when stamp_knowledge_commit (sql/20_knowledge/
-- 25_commit_instants.sql) moves them to the commit instant: the claims first, then the
-- retractions, then the episodes. The audit hooks into those moves, so its rows carry the
-- very instant the data does, are written once per committed write, and a rolled-back
-- write (which never reaches its commit) leaves none.
--   an ingest's claim rows moved        a claim_decision per row (inserted, copied, outranked,
--                                       retired), read from the move's transition tables
--   an episode's written_at moved       ingest (override for an operator override), and a
--                                       claim_decision per older row it corroborated
--   a retraction's instants moved       retract, or restore once it has a restored_at
--   a purge_source                      purge_source (its purge_audit row: counts, a digest)
-- A purge replay writes at the instants the history holds and moves nothing: it adds no
-- rows but the purge's own.

-- Inlinable (the claim triggers evaluate it per claim row). Columns, not the row: a claim
-- row's search document is no part of the audit and costs to convert.
DROP FUNCTION IF EXISTS @schema@_internal.audit_claim_state(@schema@_internal.claims, text, bigint);
DROP FUNCTION IF EXISTS @schema@_internal.audit_claim_state(jsonb, text, jsonb);
CREATE OR REPLACE FUNCTION @schema@_internal.audit_claim_state(
    decision text, episodes jsonb, subject_id bigint, predicate text, assertion text,
    object_value jsonb, object_entity_id bigint, claim_text text, confidence real,
    valid tstzrange, system_time tstzrange, retired_reason text
) RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'decision', decision, 'episodes', episodes, 'subject_id', subject_id,
        'predicate', predicate, 'assertion', assertion,
        'object_sha256', @schema@_internal.audit_digest(object_value::text),
        'object_entity_id', object_entity_id,
        'text_sha256', @schema@_internal.audit_digest(claim_text), 'confidence', confidence,
        'valid', valid::text, 'system_time', system_time::text, 'retired_reason', retired_reason)
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_claim_state(
    text, jsonb, bigint, text, text, jsonb, bigint, text, real, tstzrange, tstzrange, text) IS
'A claim decision as the audit keeps it: the decision, the episodes of the write, the '
'claim''s ids, ranges, confidence and retirement, its object and text as digests (inlined).';

-- The commit stamp takes (deletes) the transaction's notes of a tenant and then moves its
-- rows. Taking notes that name episodes marks the moves that follow as an ingest's (or an
-- override's); a retraction's or a restore's notes name none, and its one row covers the
-- claim rows it moved.
CREATE OR REPLACE FUNCTION @schema@_internal.audit_notes_taken()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    noted text;
BEGIN
    SELECT t.tenant || pg_catalog.chr(31)
           || pg_catalog.jsonb_agg(DISTINCT t.episode_id ORDER BY t.episode_id)::text
      INTO noted
      FROM taken_notes AS t
     WHERE t.episode_id IS NOT NULL
     GROUP BY t.tenant
     LIMIT 1;
    PERFORM pg_catalog.set_config('pgfacts.audit_episodes', coalesce(noted, ''), true);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_notes_taken() IS
'Statement trigger on the commit stamp''s taking of notes: remember, for the moves that '
'follow, the tenant and the episodes of the write being stamped (none: not an ingest).';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_claims_moved()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    noted text := pg_catalog.current_setting('pgfacts.audit_episodes', true);
    noted_tenant text := pg_catalog.split_part(noted, pg_catalog.chr(31), 1);
    episodes jsonb;
BEGIN
    -- Only the commit stamp's move of an ingest's rows: every other UPDATE of claims (a
    -- write retiring rows provisionally, a search document refreshed) finds no note, or
    -- rows of no noted tenant.
    IF noted_tenant = '' OR NOT @schema@_internal.audit_enabled(noted_tenant) THEN
        RETURN NULL;
    END IF;
    episodes := pg_catalog.split_part(noted, pg_catalog.chr(31), 2)::jsonb;
    PERFORM @schema@_internal.append_audit(ARRAY(
        SELECT ROW(n.tenant, CASE WHEN pg_catalog.upper_inf(n.system_time)
                                  THEN pg_catalog.lower(n.system_time)
                                  ELSE pg_catalog.upper(n.system_time) END,
                   'claim_decision', 'claim:' || n.claim_id, NULL,
                   @schema@_internal.audit_claim_state(
                       CASE WHEN pg_catalog.upper_inf(n.system_time)
                                THEN CASE WHEN n.copied_from IS NULL THEN 'inserted' ELSE 'copied' END
                            WHEN pg_catalog.lower(n.system_time) = pg_catalog.upper(n.system_time)
                                THEN 'outranked'
                            ELSE 'retired' END, episodes,
                       n.subject_id, n.predicate, n.assertion, n.object_value, n.object_entity_id,
                       n.text, n.confidence, n.valid, n.system_time, n.retired_reason
                   ))::@schema@_internal.audit_entry
          FROM moved_new AS n
          JOIN moved_old AS o ON o.tenant = n.tenant AND o.claim_id = n.claim_id
         WHERE n.tenant = noted_tenant AND n.system_time IS DISTINCT FROM o.system_time
         ORDER BY n.claim_id));
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_claims_moved() IS
'Statement trigger on claims: at an ingest''s commit stamp, a claim_decision row per claim '
'row moved to the commit instant (inserted, copied, outranked or retired).';

-- The claims an episode's source lines were added to, noted as the write adds them
-- ('<episode>:<claim>,...', transaction-local): the episode's commit trigger reads its
-- corroborations from them by claim id, never by scanning the tenant's source lines.
CREATE OR REPLACE FUNCTION @schema@_internal.audit_sources_added()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A purge replay writes source lines again under episodes no commit stamps.
    IF pg_catalog.current_setting('pgfacts.knowledge_replay', true) = 'on'
       OR NOT @schema@_internal.audit_enabled(pg_catalog.current_setting('pgfacts.tenant', true)) THEN
        RETURN NULL;
    END IF;
    PERFORM pg_catalog.set_config('pgfacts.audit_sources', pg_catalog.concat_ws(',',
        NULLIF(pg_catalog.current_setting('pgfacts.audit_sources', true), ''),
        (SELECT pg_catalog.string_agg(a.episode_id || ':' || a.claim_id, ',')
           FROM added_sources AS a)), true);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_sources_added() IS
'Statement trigger on claim_sources: note which claims each episode''s new source lines '
'are on, for the episode''s commit trigger.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_sourced_claims(episode_id bigint)
RETURNS bigint []
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN ARRAY(
        SELECT pg_catalog.split_part(p, ':', 2)::bigint
          FROM pg_catalog.unnest(pg_catalog.string_to_array(
                   pg_catalog.current_setting('pgfacts.audit_sources', true), ',')) AS p
         WHERE pg_catalog.split_part(p, ':', 1) = episode_id::text);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_sourced_claims(bigint) IS
'The claims this transaction added source lines of an episode to (audit_sources_added).';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_episode_committed()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The episode, and the rows its source lines were added to that it did not insert
    -- (corroborated: an older row, found by id from audit_sources_added's note); its
    -- claims' own moves were audited just before (audit_claims_moved). With the audit off
    -- nothing is looked up.
    IF NOT @schema@_internal.audit_enabled(NEW.tenant) THEN
        RETURN NULL;
    END IF;
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        NEW.tenant, NEW.written_at,
        CASE WHEN NEW.source_kind = 'override' THEN 'override' ELSE 'ingest' END,
        'episode:' || NEW.episode_id, NULL,
        pg_catalog.jsonb_build_object(
            'source_kind', NEW.source_kind,
            'source_ref_sha256', @schema@_internal.audit_digest(NEW.source_ref),
            'content_hash', NEW.content_hash, 'trust', NEW.trust, 'extractor', NEW.extractor,
            'claims', pg_catalog.cardinality(NEW.written)))::@schema@_internal.audit_entry]
        || ARRAY(
        SELECT ROW(NEW.tenant, NEW.written_at, 'claim_decision', 'claim:' || c.claim_id, NULL,
                   @schema@_internal.audit_claim_state('corroborated',
                       pg_catalog.jsonb_build_array(NEW.episode_id), c.subject_id, c.predicate,
                       c.assertion, c.object_value, c.object_entity_id, c.text, c.confidence,
                       c.valid, c.system_time, c.retired_reason)
               )::@schema@_internal.audit_entry
          FROM @schema@_internal.claims AS c
         WHERE c.tenant = NEW.tenant
           AND c.claim_id = ANY (@schema@_internal.audit_sourced_claims(NEW.episode_id))
           AND pg_catalog.lower(c.system_time) < NEW.written_at
           AND pg_catalog.upper_inf(c.system_time)
         ORDER BY c.claim_id));
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_episode_committed() IS
'Trigger at an episode''s commit stamp: an ingest (or override) row, and a claim_decision '
'row per older claim row it corroborated.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_retraction_committed()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        NEW.tenant, coalesce(NEW.restored_at, NEW.retracted_at),
        CASE WHEN NEW.restored_at IS NULL THEN 'retract' ELSE 'restore' END,
        'claim:' || NEW.claim_id,
        CASE WHEN NEW.restored_at IS NOT NULL THEN pg_catalog.jsonb_build_object(
            'retracted', true, 'retracted_at', NEW.retracted_at) END,
        pg_catalog.jsonb_build_object(
            'retracted', NEW.restored_at IS NULL, 'retraction_id', NEW.retraction_id,
            'assertion', NEW.assertion, 'subject_id', NEW.subject_id, 'predicate', NEW.predicate)
    )::@schema@_internal.audit_entry]);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_retraction_committed() IS
'Trigger at a retraction''s commit stamp: a retract row, or a restore row once restored.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_source_purged()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- purge_audit keeps the kind, a sha256 of the ref and counts, never content: so does this.
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        NEW.tenant, NEW.purged_at, 'purge_source',
        'source:' || NEW.source_kind || ':sha256:' || NEW.source_ref_sha256,
        pg_catalog.jsonb_build_object('source_kind', NEW.source_kind,
                                      'source_ref_sha256', 'sha256:' || NEW.source_ref_sha256),
        NEW.counts)::@schema@_internal.audit_entry]);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_source_purged() IS
'Trigger: a purge_source row per purge (the source''s kind, its ref''s digest, the counts).';

CREATE OR REPLACE TRIGGER knowledge_pending_writes_audit_taken AFTER DELETE
ON @schema@_internal.knowledge_pending_writes
REFERENCING OLD TABLE AS taken_notes
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_notes_taken();

CREATE OR REPLACE TRIGGER claim_sources_audit_added AFTER INSERT
ON @schema@_internal.claim_sources
REFERENCING NEW TABLE AS added_sources
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_sources_added();

CREATE OR REPLACE TRIGGER claims_audit_moved AFTER UPDATE ON @schema@_internal.claims
REFERENCING OLD TABLE AS moved_old NEW TABLE AS moved_new
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_claims_moved();

-- UPDATE OF the columns only the commit stamp sets together (move_write_instants).
CREATE OR REPLACE TRIGGER episodes_audit_committed AFTER UPDATE OF written_at
ON @schema@_internal.episodes
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_episode_committed();

CREATE OR REPLACE TRIGGER retractions_audit_committed AFTER UPDATE OF retracted_at
ON @schema@_internal.retractions
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_retraction_committed();

CREATE OR REPLACE TRIGGER purge_audit_audited AFTER INSERT ON @schema@_internal.purge_audit
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_source_purged();
