-- Foundation: extensions, the roles model, the two schemas and the migration ledger.
--
-- Runs as a superuser (CREATE EXTENSION age needs one). Extensions and roles are shared
-- by every pgfacts install in the database/cluster, so both are created only if missing;
-- everything else belongs to this install's schema name.

CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS age;

-- The roles model. All NOLOGIN: deployments grant them to their own login roles.
--   @schema@_owner          owns every object; SECURITY DEFINER functions run as it
--   @schema@_agent          a task agent: its own session facts, shared facts
--   @schema@_facts_manager  curates memory across scopes (pattern delete scope all, intake)
--   @schema@_crawler        works the crawl queue and the graph evidence
--   @schema@_tuner          reads everything in its tenant, writes nothing
--   @schema@_operator       privileged corrections (override), governance
DO $roles$
DECLARE
    role_name text;
BEGIN
    FOREACH role_name IN ARRAY ARRAY[
        '@schema@_owner', '@schema@_agent', '@schema@_facts_manager',
        '@schema@_crawler', '@schema@_tuner', '@schema@_operator'
    ] LOOP
        BEGIN
            EXECUTE pg_catalog.format('CREATE ROLE %I NOLOGIN', role_name);
        EXCEPTION WHEN duplicate_object OR unique_violation THEN
            NULL;  -- another database of this cluster created it first
        END;
    END LOOP;
END
$roles$;

CREATE SCHEMA @schema@ AUTHORIZATION @schema@_owner;
CREATE SCHEMA @schema@_internal AUTHORIZATION @schema@_owner;
REVOKE ALL ON SCHEMA @schema@ FROM PUBLIC;
REVOKE ALL ON SCHEMA @schema@_internal FROM PUBLIC;
COMMENT ON SCHEMA @schema@ IS 'pgfacts SQL API: functions, views and types agents and apps call';
COMMENT ON SCHEMA @schema@_internal IS 'pgfacts internal tables and helpers; not an API';

-- The owner builds graph procedures on AGE and reads its catalog.
GRANT USAGE ON SCHEMA ag_catalog TO @schema@_owner;

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.schema_ledger (
    kind text NOT NULL,
    name text NOT NULL,
    sha256 text NOT NULL,
    package_version text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT schema_ledger_pkey PRIMARY KEY (kind, name),
    CONSTRAINT schema_ledger_kind_check CHECK (kind IN ('migration', 'definition')),
    CONSTRAINT schema_ledger_sha256_check CHECK (sha256 ~ '^[0-9a-f]{64}$')
);
COMMENT ON TABLE @schema@_internal.schema_ledger IS
'Applied migrations and definition files with their sha256 (maintained by pgfacts migrate)';
