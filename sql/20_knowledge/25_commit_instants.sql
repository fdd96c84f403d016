-- System time is the commit instant. A knowledge write stamps its rows with a provisional
-- instant (next_instant: its transaction's now(), past the slots' newest change) and notes
-- it (note_knowledge_write). At commit a deferred trigger takes the tenant's commit lock,
-- reads the clock, and moves every provisional instant of the transaction to that commit
-- instant: rows recorded, rows retired, episodes (whose instant is their source lines'),
-- retractions and restores.
-- A row the transaction both recorded and retired gets the single closed instant
-- [commit, commit], the shape of a row that was never believed (as an outranked claim is
-- stored): nobody else ever saw it, so no known instant answers it.
--
-- The commit lock is held from that clock reading until the commit is visible (advisory
-- locks are released after it). A reader answering for a known instant first waits for it
-- in shared mode (await_commits), then reads with a fresh snapshot. So a commit stamped at
-- or before any instant a reader can ask about is visible to that reader, and a commit not
-- yet stamped will be stamped later than it: an answer once given for a known instant
-- never changes.

-- Inlinable like lock_key (tests/lint_sql.py lists it), as is await_commits: a reader of a
-- known instant pays for the wait on every call.
CREATE OR REPLACE FUNCTION @schema@_internal.commit_lock_key(tenant text)
RETURNS bigint
LANGUAGE sql
VOLATILE
SECURITY INVOKER
AS $fn$
    SELECT @schema@_internal.lock_key(pg_catalog.concat_ws(':', '@schema@:commit', tenant))
$fn$;

COMMENT ON FUNCTION @schema@_internal.commit_lock_key(text) IS
'The advisory lock a knowledge writer holds from taking its commit instant until it commits. (inlined)';

-- The tenant's knowledge commits in progress (microseconds: only the stamping phase holds
-- the lock), never a writer still working; shared, so readers never wait for each other.
CREATE OR REPLACE FUNCTION @schema@_internal.await_commits(tenant text)
RETURNS void
LANGUAGE sql
VOLATILE
SECURITY INVOKER
AS $fn$
    SELECT @schema@_internal.await_lock_holders(@schema@_internal.commit_lock_key(tenant), false)
$fn$;

COMMENT ON FUNCTION @schema@_internal.await_commits(text) IS
'Wait until no knowledge commit of the tenant is between taking its instant and being '
'visible; a reader of known instants calls it before it reads. (inlined)';

-- The claim rows a write recorded and retired are named by id (claim_ids); subjects and
-- predicates name the slots of the retractions and restores a correction wrote.
DROP FUNCTION IF EXISTS @schema@_internal.note_knowledge_write(text, timestamptz, bigint [], text [], bigint);
CREATE OR REPLACE FUNCTION @schema@_internal.note_knowledge_write(
    tenant text, write_at timestamptz, subjects bigint [], predicates text [], episode_id bigint,
    claim_ids bigint [] DEFAULT '{}'
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A purge replay writes again at the instants the history already holds: those stay.
    IF pg_catalog.current_setting('pgfacts.knowledge_replay', true) = 'on' THEN
        RETURN;
    END IF;
    INSERT INTO @schema@_internal.knowledge_pending_writes AS p (
        tenant, write_at, subjects, predicates, episode_id, claim_ids)
    VALUES (tenant, write_at, subjects, predicates, episode_id, claim_ids);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.note_knowledge_write(text, timestamptz, bigint [], text [], bigint, bigint []) IS
'Note a provisional write instant of this transaction (the claim rows it recorded and '
'retired, the slots of the retractions it wrote, the episode it inserted) for the commit '
'stamp; a purge replay notes nothing.';

CREATE OR REPLACE FUNCTION @schema@_internal.stamp_knowledge_commit()
RETURNS trigger
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $fn$
-- Fired at commit once per note. The first firing for a tenant takes (deletes) all of the
-- transaction's notes of that tenant in one statement and moves them; the others find
-- nothing left.
#variable_conflict use_variable
DECLARE
    tenant text := NEW.tenant;
    caller_tenant text := pg_catalog.current_setting('pgfacts.tenant', true);
    instants timestamptz [];
    episodes bigint [];
    subjects bigint [];
    predicates text [];
    claim_ids bigint [];
    commit_at timestamptz;
BEGIN
    PERFORM pg_catalog.set_config('pgfacts.tenant', tenant, true);
    WITH taken AS (
        DELETE FROM @schema@_internal.knowledge_pending_writes AS p
         WHERE p.tenant = tenant AND p.writer = pg_catalog.pg_current_xact_id()
        RETURNING p.write_at, p.episode_id, p.subjects, p.predicates, p.claim_ids
    )
    SELECT w.instants, w.episodes, s.subjects, s.predicates, c.claim_ids
      INTO instants, episodes, subjects, predicates, claim_ids
      FROM (SELECT pg_catalog.array_agg(DISTINCT t.write_at) AS instants,
                   pg_catalog.array_agg(DISTINCT t.episode_id)
                       FILTER (WHERE t.episode_id IS NOT NULL) AS episodes
              FROM taken AS t) AS w,
           (SELECT pg_catalog.array_agg(u.subject) AS subjects,
                   pg_catalog.array_agg(u.predicate) AS predicates
              FROM (SELECT DISTINCT u.subject, u.predicate
                      FROM taken AS t
                     CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(t.subjects), pg_catalog.unnest(t.predicates)) AS u (subject, predicate)) AS u) AS s,
           (SELECT pg_catalog.array_agg(DISTINCT i.claim_id) AS claim_ids
              FROM taken AS t CROSS JOIN LATERAL pg_catalog.unnest(t.claim_ids) AS i (claim_id)) AS c;
    IF instants IS NOT NULL THEN
        PERFORM pg_catalog.pg_advisory_xact_lock(@schema@_internal.commit_lock_key(tenant));
        -- Later than every provisional instant, each of which is past its slots' history.
        SELECT GREATEST(pg_catalog.clock_timestamp(), pg_catalog.max(i))
          INTO commit_at FROM pg_catalog.unnest(instants) AS i;
        PERFORM @schema@_internal.move_write_instants(tenant, instants, commit_at, subjects,
                                                       predicates, episodes, claim_ids);
    END IF;
    PERFORM pg_catalog.set_config('pgfacts.tenant', coalesce(caller_tenant, ''), true);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.stamp_knowledge_commit() IS
'Deferred to commit: take the tenant''s commit lock and move the transaction''s provisional '
'knowledge instants to the commit instant.';

DROP FUNCTION IF EXISTS @schema@_internal.move_write_instants(
    text, timestamptz [], timestamptz, bigint [], text [], bigint []);
CREATE OR REPLACE FUNCTION @schema@_internal.move_write_instants(
    tenant text, instants timestamptz [], commit_at timestamptz, subjects bigint [],
    predicates text [], episodes bigint [], claim_ids bigint []
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
SET plan_cache_mode = force_generic_plan
AS $fn$
-- Only this transaction wrote these instants on these rows: it holds their slots' locks,
-- and each provisional instant is past every instant the slots held before.
#variable_conflict use_variable
BEGIN
    UPDATE @schema@_internal.claims AS c
       SET system_time = CASE
               WHEN pg_catalog.upper_inf(c.system_time)
                   THEN pg_catalog.tstzrange(commit_at, NULL)
               WHEN NOT pg_catalog.lower(c.system_time) = ANY (instants)
                   THEN pg_catalog.tstzrange(pg_catalog.lower(c.system_time), commit_at)
               -- Recorded and retired here (or stored outranked): never believed.
               ELSE pg_catalog.tstzrange(commit_at, commit_at, '[]') END
     WHERE c.tenant = tenant AND c.claim_id = ANY (claim_ids)
       AND (pg_catalog.lower(c.system_time) = ANY (instants)
            OR pg_catalog.upper(c.system_time) = ANY (instants));
    -- Retractions and restores: a correction's note names their slots.
    IF subjects IS NOT NULL THEN
        UPDATE @schema@_internal.retractions AS r
           SET retracted_at = CASE WHEN r.retracted_at = ANY (instants) THEN commit_at
                                   ELSE r.retracted_at END,
               restored_at = CASE WHEN r.restored_at = ANY (instants) THEN commit_at
                                  ELSE r.restored_at END
         WHERE r.tenant = tenant AND r.subject_id = ANY (subjects)
           AND (r.subject_id, r.predicate) IN (
                   SELECT u.subject, u.predicate FROM ROWS FROM (pg_catalog.unnest(subjects), pg_catalog.unnest(predicates)) AS u (subject, predicate))
           AND (r.retracted_at = ANY (instants) OR r.restored_at = ANY (instants));
    END IF;
    IF episodes IS NOT NULL THEN
        UPDATE @schema@_internal.episodes AS e
           SET written_at = commit_at
         WHERE e.tenant = tenant AND e.episode_id = ANY (episodes);
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.move_write_instants(
    text, timestamptz [], timestamptz, bigint [], text [], bigint [], bigint []) IS
'Move a transaction''s provisional instants on the claim rows it names, the retractions of '
'the given slots and the episodes to its commit instant (a row it recorded and retired '
'itself becomes [commit, commit]: never believed).';

DROP TRIGGER IF EXISTS knowledge_stamp_commit ON @schema@_internal.knowledge_pending_writes;
CREATE CONSTRAINT TRIGGER knowledge_stamp_commit
AFTER INSERT ON @schema@_internal.knowledge_pending_writes
DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.stamp_knowledge_commit();
