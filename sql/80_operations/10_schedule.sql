-- Scheduled maintenance: the periodic jobs of every tenant (the tombstone purge of
-- run_maintenance, the AGE projections' sync) are listed here once. `pgfacts worker` runs
-- them by default; where pg_cron is preloaded for this database, schedule_maintenance()
-- installs the same jobs in pg_cron instead (`pgfacts schedule install`), and they run in
-- the server's background workers as the login that scheduled them. pg_cron is reached by
-- dynamic SQL only: the schema works, and plpgsql_check passes, without it.

CREATE OR REPLACE FUNCTION @schema@_internal.maintenance_job_list()
RETURNS TABLE (job text, cron_name text, schedule text, command text, does text, worker_part text)
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT j.job, '@schema@_' || j.job, j.schedule, j.command, j.does, j.worker_part
      FROM (VALUES
        ('maintenance', '0 */6 * * *', 'SELECT @schema@.run_maintenance()',
         'every tenant''s periodic work (run_maintenance: the tombstone purge by each '
         'tenant''s TTL), every 6 hours as `pgfacts worker` runs it', 'maintenance'),
        ('graph_projection', '30 seconds', 'SELECT @schema@.sync_graph_projections()',
         'every tenant''s AGE projection brought up to date (sync_graph_projections), '
         'every 30 seconds', 'graph'),
        ('retention', '15 * * * *', 'SELECT @schema@.apply_retention_everywhere()',
         'every tenant''s retention policy applied through the purge path '
         '(apply_retention_everywhere), hourly', 'maintenance')
      ) AS j (job, schedule, command, does, worker_part)
$fn$;

COMMENT ON FUNCTION @schema@_internal.maintenance_job_list() IS
'The maintenance jobs: name, pg_cron job name (@schema@_<job>), default schedule, command, '
'what it does, and the `pgfacts worker` part that runs it when pg_cron does not.';

CREATE OR REPLACE FUNCTION @schema@_internal.pg_cron_state()
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    preloaded boolean := true;
    database text;
BEGIN
    -- cron.database_name exists only while pg_cron is loaded, and only superusers (and
    -- pg_read_all_settings) may read it: for anyone else the refusal itself says it is
    -- loaded, and pg_cron's launcher, connected to that database, says which.
    BEGIN
        database := pg_catalog.current_setting('cron.database_name', true);
        preloaded := database IS NOT NULL;
    EXCEPTION WHEN insufficient_privilege THEN
        database := (SELECT a.datname FROM pg_catalog.pg_stat_activity AS a
                      WHERE a.backend_type = 'pg_cron launcher' LIMIT 1);
    END;
    RETURN pg_catalog.jsonb_build_object(
        'preloaded', preloaded,
        'database', database,
        'this_database', pg_catalog.current_database(),
        'installed', EXISTS (SELECT 1 FROM pg_catalog.pg_extension AS e
                              WHERE e.extname = 'pg_cron'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.pg_cron_state() IS
'Whether pg_cron is preloaded (cron.database_name is defined), for which database (NULL '
'when the caller may not see it), and whether its extension is installed in this one.';

CREATE OR REPLACE FUNCTION @schema@_internal.pg_cron_schema()
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- The extension itself is in pg_catalog; its tables and functions are in cron.
    SELECT 'cron'::text FROM pg_catalog.pg_extension AS e WHERE e.extname = 'pg_cron'
$fn$;

COMMENT ON FUNCTION @schema@_internal.pg_cron_schema() IS
'The schema of the pg_cron extension in this database (cron), NULL when it is not installed.';

CREATE OR REPLACE FUNCTION @schema@_internal.require_pg_cron(operation text)
RETURNS void
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    state jsonb := @schema@_internal.pg_cron_state();
    fallback constant text := '; without pg_cron, `pgfacts worker` runs the same jobs';
BEGIN
    IF NOT (state ->> 'preloaded')::boolean THEN
        RAISE EXCEPTION '%: pg_cron is not preloaded on this server', operation
            USING ERRCODE = '55000',
                  DETAIL = 'shared_preload_libraries does not name pg_cron '
                           '(cron.database_name is not defined)',
                  HINT = pg_catalog.format('start the server with shared_preload_libraries = '
                      '''pg_cron'', cron.database_name = %L and cron.use_background_workers = '
                      'on (the image: PGFACTS_PG_CRON=%s; pgfacts-pg run DATADIR --pg-cron %s)%s',
                      pg_catalog.current_database(), pg_catalog.current_database(),
                      pg_catalog.current_database(), fallback);
    END IF;
    IF state ->> 'database' <> pg_catalog.current_database()
       AND NOT (state ->> 'installed')::boolean THEN
        RAISE EXCEPTION '%: pg_cron runs its jobs in database %, not in %', operation,
            state ->> 'database', pg_catalog.current_database()
            USING ERRCODE = '55000',
                  DETAIL = 'pg_cron''s extension lives in cron.database_name only',
                  HINT = pg_catalog.format('set cron.database_name = %L and restart the '
                      'server, or install pgfacts in %I%s', pg_catalog.current_database(),
                      state ->> 'database', fallback);
    END IF;
    IF NOT (state ->> 'installed')::boolean THEN
        RAISE EXCEPTION '%: the pg_cron extension is not installed in database %', operation,
            pg_catalog.current_database()
            USING ERRCODE = '55000',
                  DETAIL = 'pg_cron is preloaded for this database, but CREATE EXTENSION '
                           'pg_cron has not been run in it',
                  HINT = 'a superuser runs CREATE EXTENSION pg_cron (and grants USAGE ON '
                         'SCHEMA cron to the operator''s login)' || fallback;
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.require_pg_cron(text) IS
'55000 with what to do unless pg_cron is preloaded for this database and installed in it.';

CREATE OR REPLACE FUNCTION @schema@.maintenance_jobs()
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    state jsonb := @schema@_internal.pg_cron_state();
    cron text := @schema@_internal.pg_cron_schema();
    scheduled jsonb := '{}';
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('maintenance_jobs');
    IF cron IS NOT NULL THEN
        -- The caller's own jobs (cron.job shows each login its own), with their last run.
        EXECUTE pg_catalog.format($sql$
            SELECT coalesce(pg_catalog.jsonb_object_agg(j.jobname, pg_catalog.jsonb_build_object(
                       'jobid', j.jobid, 'schedule', j.schedule, 'command', j.command,
                       'active', j.active, 'username', j.username,
                       'last_run', (SELECT pg_catalog.jsonb_build_object(
                                        'status', d.status, 'start_time', d.start_time,
                                        'end_time', d.end_time,
                                        'return_message', d.return_message)
                                      FROM %1$I.job_run_details AS d
                                     WHERE d.jobid = j.jobid
                                     ORDER BY d.runid DESC LIMIT 1))), '{}')
              FROM %1$I.job AS j
             WHERE j.jobname IN (SELECT l.cron_name
                                   FROM @schema@_internal.maintenance_job_list() AS l)
               AND j.username = current_user
        $sql$, cron) INTO scheduled;
    END IF;
    RETURN pg_catalog.jsonb_build_object(
        'pg_cron', state,
        'runs_in', CASE WHEN scheduled = '{}' THEN 'pgfacts worker' ELSE 'pg_cron' END,
        'jobs', (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                     'job', l.job, 'cron_name', l.cron_name, 'schedule', l.schedule,
                     'command', l.command, 'does', l.does, 'worker_part', l.worker_part,
                     'scheduled', scheduled -> l.cron_name) ORDER BY l.job)
                   FROM @schema@_internal.maintenance_job_list() AS l));
END
$fn$;

COMMENT ON FUNCTION @schema@.maintenance_jobs() IS
'Operator: the maintenance jobs (name, default schedule, command, what it does), where they '
'run (pg_cron when the caller scheduled them, else `pgfacts worker`), pg_cron''s state, '
'and for each job its pg_cron entry and last run when scheduled. `pgfacts schedule list`.';

CREATE OR REPLACE FUNCTION @schema@.schedule_maintenance(schedules jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    job record;
    unknown text;
    chosen text;
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('schedule_maintenance');
    IF schedules IS NOT NULL AND pg_catalog.jsonb_typeof(schedules) <> 'object' THEN
        RAISE EXCEPTION 'schedule_maintenance: schedules must be a JSON object'
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('got a JSON %s', pg_catalog.jsonb_typeof(schedules)),
                  HINT = 'pass {"job": "schedule"}, e.g. {"graph_projection": "10 seconds"}, '
                         'or NULL for the default schedules';
    END IF;
    SELECT k INTO unknown
      FROM pg_catalog.jsonb_object_keys(coalesce(schedules, '{}')) AS k
     WHERE k NOT IN (SELECT l.job FROM @schema@_internal.maintenance_job_list() AS l)
        OR pg_catalog.jsonb_typeof(schedules -> k) <> 'string'
     LIMIT 1;
    IF unknown IS NOT NULL THEN
        RAISE EXCEPTION 'schedule_maintenance: no maintenance job % with a text schedule',
            @schema@_internal.shown(unknown)
            USING ERRCODE = '22023',
                  HINT = 'the jobs are ' || (SELECT pg_catalog.string_agg(l.job, ', ' ORDER BY l.job)
                                               FROM @schema@_internal.maintenance_job_list() AS l)
                         || '; a schedule is a cron expression or ''N seconds''';
    END IF;
    PERFORM @schema@_internal.require_pg_cron('schedule_maintenance');
    -- cron.schedule(name, ...) replaces the caller's job of that name: running this again
    -- changes nothing, or only the schedules passed.
    FOR job IN SELECT * FROM @schema@_internal.maintenance_job_list() AS l ORDER BY l.job LOOP
        chosen := coalesce(schedules ->> job.job, job.schedule);
        EXECUTE pg_catalog.format('SELECT %I.schedule($1, $2, $3)',
                                  @schema@_internal.pg_cron_schema())
            USING job.cron_name, chosen, job.command;
    END LOOP;
    RETURN @schema@.maintenance_jobs();
END
$fn$;

COMMENT ON FUNCTION @schema@.schedule_maintenance(jsonb) IS
'Operator: install the maintenance jobs in pg_cron (idempotent: cron.schedule by job name), '
'each at its default schedule or the one schedules names ({"job": "cron expression or N '
'seconds"}); they run as the caller. 55000 with a hint when pg_cron is not preloaded for '
'this database or not installed in it. Returns maintenance_jobs(). `pgfacts schedule install`.';

CREATE OR REPLACE FUNCTION @schema@.unschedule_maintenance()
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    cron text := @schema@_internal.pg_cron_schema();
    removed integer := 0;
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('unschedule_maintenance');
    IF cron IS NOT NULL THEN
        EXECUTE pg_catalog.format($sql$
            SELECT pg_catalog.count(*) FILTER (WHERE %1$I.unschedule(j.jobid))
              FROM %1$I.job AS j
             WHERE j.jobname IN (SELECT l.cron_name
                                   FROM @schema@_internal.maintenance_job_list() AS l)
               AND j.username = current_user
        $sql$, cron) INTO removed;
    END IF;
    RETURN @schema@.maintenance_jobs() || pg_catalog.jsonb_build_object('removed', removed);
END
$fn$;

COMMENT ON FUNCTION @schema@.unschedule_maintenance() IS
'Operator: remove the caller''s maintenance jobs from pg_cron (none to remove, or no pg_cron, '
'is not an error), so `pgfacts worker` runs them again. Returns maintenance_jobs() and the '
'count removed. `pgfacts schedule remove`.';

-- The caller context's settings, saved and restored around a loop that acts as each
-- tenant's operator in turn (sync_graph_projections, apply_retention_everywhere).
CREATE OR REPLACE FUNCTION @schema@_internal.context_setting_names()
RETURNS text []
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT ARRAY['pgfacts.tenant', 'pgfacts.session_id', 'pgfacts.parent_session_id',
                 'pgfacts.agent_id', 'pgfacts.agent_kind', 'pgfacts.memory_scope']
$fn$;

COMMENT ON FUNCTION @schema@_internal.context_setting_names() IS
'The settings set_context writes, in one order (saved_context, restore_context). (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.saved_context()
RETURNS text []
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT ARRAY(SELECT coalesce(pg_catalog.current_setting(u.n, true), '')
                   FROM pg_catalog.unnest(@schema@_internal.context_setting_names())
                        WITH ORDINALITY AS u (n, i)
                  ORDER BY u.i)
$fn$;

COMMENT ON FUNCTION @schema@_internal.saved_context() IS
'The caller context''s settings now, for restore_context.';

CREATE OR REPLACE FUNCTION @schema@_internal.restore_context(saved text [])
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    names text [] := @schema@_internal.context_setting_names();
BEGIN
    PERFORM pg_catalog.set_config(names[i], saved[i], true)
       FROM pg_catalog.generate_subscripts(names, 1) AS i;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.restore_context(text []) IS
'Put back the caller context saved_context saved (for the rest of the transaction).';

CREATE OR REPLACE FUNCTION @schema@.apply_retention_everywhere(batch integer DEFAULT 100)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    due record;
    result jsonb;
    applied jsonb := '{}';
    failed jsonb := '{}';
    saved text [] := @schema@_internal.saved_context();
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('apply_retention_everywhere');
    batch := @schema@_internal.check_limit(batch, 'batch', 1, 10000);
    FOR due IN SELECT r.tenant FROM @schema@.retention_backlog() AS r ORDER BY r.tenant LOOP
        -- One tenant at a time, as its operator (the purge path locks its slots), each in a
        -- subtransaction: a tenant that fails is reported and left for the next run.
        BEGIN
            PERFORM @schema@.set_context(tenant => due.tenant, agent_kind => 'operator',
                                         agent_id => 'scheduled-maintenance');
            LOOP
                result := @schema@.apply_retention(batch);
                applied := applied || pg_catalog.jsonb_build_object(due.tenant, result);
                EXIT WHEN GREATEST((result ->> 'episodes')::integer,
                                   (result ->> 'memories')::integer) < batch;
            END LOOP;
        EXCEPTION WHEN OTHERS THEN
            failed := failed || pg_catalog.jsonb_build_object(due.tenant,
                pg_catalog.jsonb_build_object('sqlstate', SQLSTATE, 'message', SQLERRM));
            RAISE WARNING 'apply_retention_everywhere: tenant %: % (%)',
                @schema@_internal.shown(due.tenant), SQLERRM, SQLSTATE;
        END;
    END LOOP;
    PERFORM @schema@_internal.restore_context(saved);
    RETURN pg_catalog.jsonb_build_object('applied', applied, 'failed', failed);
END
$fn$;

COMMENT ON FUNCTION @schema@.apply_retention_everywhere(integer) IS
'Operator: apply_retention(batch) for every tenant retention_backlog names, batch after '
'batch until one falls short, each tenant as its operator (the login must act for any '
'tenant); a failing tenant is reported and skipped. Returns {applied, failed} by tenant '
'(applied: the last batch''s answer); the caller''s context is restored. The retention '
'maintenance job, and what `pgfacts worker`''s maintenance runs after run_maintenance.';

CREATE OR REPLACE FUNCTION @schema@.sync_graph_projections(max_changes integer DEFAULT 10000)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    projection record;
    applied jsonb := '{}';
    failed jsonb := '{}';
    saved text [] := @schema@_internal.saved_context();
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('sync_graph_projections');
    max_changes := @schema@_internal.check_limit(max_changes, 'max_changes', 1, 100000);
    FOR projection IN
        SELECT b.tenant FROM @schema@_internal.graph_projection_backlog_all() AS b
         WHERE b.pending > 0 OR b.state <> 'ok'
         ORDER BY b.tenant
    LOOP
        -- One tenant at a time, as its operator, each in a subtransaction: a tenant that
        -- fails is reported (and logged) and left for the next run.
        BEGIN
            PERFORM @schema@.set_context(tenant => projection.tenant, agent_kind => 'operator',
                                         agent_id => 'scheduled-maintenance');
            applied := applied || pg_catalog.jsonb_build_object(
                projection.tenant, @schema@.sync_graph_projection(max_changes));
        EXCEPTION WHEN OTHERS THEN
            failed := failed || pg_catalog.jsonb_build_object(projection.tenant,
                pg_catalog.jsonb_build_object('sqlstate', SQLSTATE, 'message', SQLERRM));
            RAISE WARNING 'sync_graph_projections: tenant %: % (%)',
                @schema@_internal.shown(projection.tenant), SQLERRM, SQLSTATE;
        END;
    END LOOP;
    PERFORM @schema@_internal.restore_context(saved);
    RETURN pg_catalog.jsonb_build_object('synced', applied, 'failed', failed);
END
$fn$;

COMMENT ON FUNCTION @schema@.sync_graph_projections(integer) IS
'Operator: sync_graph_projection(max_changes) for every tenant whose AGE projection has '
'changes pending or is missing or broken, each as that tenant''s operator (the login must '
'act for any tenant); a failing tenant is reported and skipped. Returns {synced, failed} '
'by tenant; the caller''s context is restored. The graph_projection maintenance job.';
