-- Capture of knowledge changes, at their commit instant. A knowledge write's rows carry a
-- provisional instant until its commit, when stamp_knowledge_commit (sql/20_knowledge/
-- 25_commit_instants.sql) moves them to the commit instant: the claims first, then the
-- retractions, then the episodes. The audit hooks into those moves, so its rows carry the
-- very instant the data does, are written once per committed write, and a rolled-back
-- write (which never reaches its commit) leaves none.
--   an episode's written_at moved       ingest (override for an operator override), and one
--                                       claim_decision per claim row the write changed
--   a retraction's instants moved       retract, or restore once it has a restored_at
--   a purge_source                      purge_source (its purge_audit row: counts, a digest)
-- A purge replay writes at the instants the history holds and moves nothing: it adds no
-- rows but the purge's own.

-- Inlinable (the episode trigger evaluates it per claim row).
CREATE OR REPLACE FUNCTION @schema@_internal.audit_claim_state(
    claim @schema@_internal.claims, decision text, episode_id bigint
) RETURNS jsonb
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'decision', decision, 'episode_id', episode_id, 'subject_id', (claim).subject_id,
        'predicate', (claim).predicate, 'assertion', (claim).assertion,
        'object_sha256', @schema@_internal.audit_digest(((claim).object_value)::text),
        'object_entity_id', (claim).object_entity_id,
        'text_sha256', @schema@_internal.audit_digest((claim).text),
        'confidence', (claim).confidence, 'valid', ((claim).valid)::text,
        'system_time', ((claim).system_time)::text, 'retired_reason', (claim).retired_reason)
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_claim_state(@schema@_internal.claims, text, bigint) IS
'A claim decision as the audit keeps it: the decision, the claim''s ids, ranges, confidence '
'and retirement, its object and text as digests (inlined).';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_episode_committed()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The episode, then each claim row the write changed: the rows its source lines are on
    -- (inserted now, outranked: stored never believed, or corroborated: an older row), and
    -- the other rows of its slots it changed at this instant: retired (superseded,
    -- replaced) or copied (what remains of a retired row's valid range, a new row).
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
        SELECT ROW(NEW.tenant, NEW.written_at, 'claim_decision', 'claim:' || d.claim_id, NULL,
                   @schema@_internal.audit_claim_state(d.claim, d.decision, NEW.episode_id)
               )::@schema@_internal.audit_entry
          FROM (SELECT c.claim_id, c AS claim,
                       CASE WHEN pg_catalog.lower(c.system_time) < NEW.written_at THEN 'corroborated'
                            WHEN pg_catalog.upper_inf(c.system_time) THEN 'inserted'
                            ELSE 'outranked' END AS decision
                  FROM @schema@_internal.claim_sources AS s
                  JOIN @schema@_internal.claims AS c ON c.tenant = s.tenant AND c.claim_id = s.claim_id
                 WHERE s.tenant = NEW.tenant AND s.episode_id = NEW.episode_id
                UNION ALL
                SELECT c.claim_id, c,
                       CASE WHEN pg_catalog.lower(c.system_time) = NEW.written_at THEN 'copied'
                            ELSE 'retired' END
                  FROM @schema@_internal.claims AS c
                 WHERE c.tenant = NEW.tenant
                   AND (c.subject_id, c.predicate) IN (
                           SELECT w.subject, w.predicate FROM pg_catalog.unnest(NEW.written) AS w)
                   AND (pg_catalog.lower(c.system_time) = NEW.written_at
                        OR (pg_catalog.upper(c.system_time) = NEW.written_at
                            AND pg_catalog.lower(c.system_time) < NEW.written_at))
                   AND NOT EXISTS (SELECT 1 FROM @schema@_internal.claim_sources AS s
                                    WHERE s.tenant = c.tenant AND s.claim_id = c.claim_id
                                      AND s.episode_id = NEW.episode_id)) AS d
         ORDER BY d.claim_id));
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_episode_committed() IS
'Trigger at an episode''s commit stamp: an ingest (or override) row and a claim_decision row '
'per claim row the write inserted, outranked, corroborated, retired or copied.';

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

-- UPDATE OF the columns only the commit stamp sets together (move_write_instants).
CREATE OR REPLACE TRIGGER episodes_audit_committed AFTER UPDATE OF written_at
ON @schema@_internal.episodes
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_episode_committed();

CREATE OR REPLACE TRIGGER retractions_audit_committed AFTER UPDATE OF retracted_at
ON @schema@_internal.retractions
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_retraction_committed();

CREATE OR REPLACE TRIGGER purge_audit_audited AFTER INSERT ON @schema@_internal.purge_audit
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_source_purged();
