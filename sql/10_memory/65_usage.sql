-- Expiry, usage and pruning of working-memory facts (issue 25).
--
-- A use is appended to fact_uses (unlogged, no index) by the reads that surface a fact to
-- an agent; maintenance folds the appended rows into fact_usage. So a read pays one small
-- insert and takes no row lock, and concurrent readers of one fact never wait on each other.

CREATE OR REPLACE FUNCTION @schema@_internal.record_fact_uses(for_tenant text, fact_ids bigint [])
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A read in a read-only transaction (or on a standby) still answers: it records nothing.
    IF coalesce(pg_catalog.cardinality(fact_ids), 0) = 0
       OR pg_catalog.current_setting('transaction_read_only') = 'on'
       OR (@schema@_internal.setting(for_tenant, 'usage_tracking'))::integer = 0 THEN
        RETURN;
    END IF;
    INSERT INTO @schema@_internal.fact_uses (tenant, fact_id, used_at)
    SELECT for_tenant, u.fact_id, pg_catalog.now()
      FROM pg_catalog.unnest(fact_ids) AS u (fact_id);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.record_fact_uses(text, bigint []) IS
'Append one use per fact a read surfaced to fact_uses, unless the tenant''s usage_tracking is '
'0 or the transaction is read-only.';

CREATE OR REPLACE FUNCTION @schema@_internal.fold_fact_uses(only_tenant text)
RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    folded integer;
BEGIN
    -- The uses taken are summed per fact into fact_usage; a fact purged since is skipped
    -- (and kept from being purged until this commits: FOR KEY SHARE).
    WITH taken AS (
        DELETE FROM @schema@_internal.fact_uses AS u
         WHERE only_tenant IS NULL OR u.tenant = only_tenant
        RETURNING u.tenant, u.fact_id, u.used_at
    ),
    totals AS (
        SELECT t.tenant, t.fact_id, pg_catalog.max(t.used_at) AS last_used_at,
               pg_catalog.count(*) AS use_count
          FROM taken AS t
         GROUP BY t.tenant, t.fact_id
    ),
    live AS (
        SELECT t.tenant, t.fact_id, t.last_used_at, t.use_count
          FROM totals AS t
          JOIN @schema@_internal.facts AS f ON f.tenant = t.tenant AND f.fact_id = t.fact_id
         ORDER BY t.tenant, t.fact_id
           FOR KEY SHARE OF f
    )
    INSERT INTO @schema@_internal.fact_usage AS g (tenant, fact_id, last_used_at, use_count)
    SELECT l.tenant, l.fact_id, l.last_used_at, l.use_count FROM live AS l
    ON CONFLICT ON CONSTRAINT fact_usage_pkey DO UPDATE
       SET last_used_at = GREATEST(g.last_used_at, excluded.last_used_at),
           use_count = g.use_count + excluded.use_count;
    GET DIAGNOSTICS folded = ROW_COUNT;
    RETURN folded;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fold_fact_uses(text) IS
'Move the appended uses of one tenant (or all, for the maintainer) into fact_usage (last use, '
'use count per fact); returns the number of facts updated.';

CREATE OR REPLACE FUNCTION @schema@_internal.expire_facts_in(only_tenant text, max_rows integer)
RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    expired integer;
BEGIN
    -- Reads already treat these as absent (fact_visible; graph evidence of one reads as
    -- stale), so they are purged at once, as the tombstone purge deletes: the last version
    -- stays in the history. A fact a writer holds is skipped, for the next run.
    WITH doomed AS (
        SELECT f.tenant, f.fact_id
          FROM @schema@_internal.facts AS f
         WHERE f.expires_at <= pg_catalog.clock_timestamp() AND f.deleted_at IS NULL
           AND (only_tenant IS NULL OR f.tenant = only_tenant)
         ORDER BY f.expires_at, f.fact_id
         LIMIT max_rows
           FOR UPDATE SKIP LOCKED
    )
    DELETE FROM @schema@_internal.facts AS f
     USING doomed AS d
     WHERE f.tenant = d.tenant AND f.fact_id = d.fact_id;
    GET DIAGNOSTICS expired = ROW_COUNT;
    RETURN expired;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.expire_facts_in(text, integer) IS
'Purge at most max_rows live facts of one tenant (or all) whose expiry has passed.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_prune_choice(
    value text, what text, choices text []
) RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF value IS NULL OR NOT value = ANY (choices) THEN
        RAISE EXCEPTION 'unknown % %', what, @schema@_internal.shown(value)
            USING ERRCODE = '22023',
                  HINT = 'one of: ' || pg_catalog.array_to_string(choices, ', ');
    END IF;
    RETURN value;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_prune_choice(text, text, text []) IS
'Raise 22023 unless value is one of choices (prune_facts'' per and keep_by); returns it.';

CREATE OR REPLACE FUNCTION @schema@.prune_facts(
    keep integer,
    per text DEFAULT 'session',
    keep_by text DEFAULT 'newest',
    session_id text DEFAULT NULL,
    agent_id text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    kind text := @schema@_internal.require_kind(ARRAY['facts_manager', 'operator'], 'prune_facts');
    -- Checked here, not only by row level security: this function runs as its owner.
    tenant text := @schema@_internal.context_tenant();
    pruned integer;
BEGIN
    IF tenant IS NULL THEN
        RAISE EXCEPTION 'prune_facts needs a tenant in the caller context' USING ERRCODE = '42501',
            HINT = 'set_context(tenant => ...)';
    END IF;
    keep := @schema@_internal.check_limit(keep, 'keep', 0, 1000000);
    per := @schema@_internal.check_prune_choice(per, 'per', ARRAY['session', 'agent']);
    keep_by := @schema@_internal.check_prune_choice(keep_by, 'keep_by',
        ARRAY['newest', 'most_used']);
    session_id := @schema@_internal.normalize_session_id(session_id);
    PERFORM @schema@_internal.check_session_id(session_id, 'session_id');
    PERFORM @schema@_internal.check_agent_id(agent_id);
    IF keep_by = 'most_used' THEN
        PERFORM @schema@_internal.fold_fact_uses(tenant);
    END IF;
    -- Per session: its session facts; per agent: every fact it stored last. Ranked in each
    -- group newest first, or most used (then most recently used, then newest); the facts
    -- past keep are tombstoned (in scope-key order, the writers' lock order), like a delete.
    WITH ranked AS (
        SELECT f.fact_id, f.scope_key,
               pg_catalog.row_number() OVER (
                   PARTITION BY CASE WHEN per = 'session' THEN f.session_id ELSE f.agent_id END
                   ORDER BY CASE WHEN keep_by = 'most_used' THEN coalesce(u.use_count, 0) END
                                DESC NULLS LAST,
                            CASE WHEN keep_by = 'most_used' THEN u.last_used_at END
                                DESC NULLS LAST,
                            f.updated_at DESC, f.fact_id DESC) AS position
          FROM @schema@_internal.facts AS f
          LEFT JOIN @schema@_internal.fact_usage AS u
            ON u.tenant = f.tenant AND u.fact_id = f.fact_id
         WHERE f.tenant = tenant AND f.deleted_at IS NULL
           AND CASE WHEN per = 'session' THEN NOT f.shared ELSE f.agent_id IS NOT NULL END
           AND (session_id IS NULL OR f.session_id = session_id)
           AND (agent_id IS NULL OR f.agent_id = agent_id)
           AND @schema@_internal.key_access(f.key, kind) = 'all'
    ),
    doomed AS (
        SELECT f.fact_id FROM @schema@_internal.facts AS f
          JOIN ranked AS r ON f.tenant = tenant AND f.fact_id = r.fact_id
         WHERE r.position > keep
         ORDER BY r.scope_key
           FOR UPDATE OF f
    )
    UPDATE @schema@_internal.facts AS f SET deleted_at = pg_catalog.clock_timestamp()
      FROM doomed AS d
     WHERE f.tenant = tenant AND f.fact_id = d.fact_id AND f.deleted_at IS NULL;
    GET DIAGNOSTICS pruned = ROW_COUNT;
    RETURN pg_catalog.jsonb_build_object('pruned', pruned, 'keep', keep, 'per', per,
                                         'keep_by', keep_by);
END
$fn$;

COMMENT ON FUNCTION @schema@.prune_facts(integer, text, text, text, text) IS
'Facts manager / operator: in the caller''s tenant, keep the keep (0..1000000) newest '
'(keep_by newest) or most used (most_used: use count, then last use, then newest) live facts '
'of each session (per session: its session facts) or each agent (per agent: the facts it '
'stored last), of one session_id / agent_id when given, and tombstone the rest as delete_fact '
'does (keys the kind may not delete are neither counted nor touched). Returns {pruned, keep, '
'per, keep_by}.';
