-- Foundation: extensions, the roles model, the two schemas and the migration ledger.
--
-- Runs as a superuser (CREATE EXTENSION age needs one). Extensions and roles are shared
-- by every pgfacts install in the database/cluster, so both are created only if missing;
-- everything else belongs to this install's schema name.

DO $encoding$
BEGIN
    -- Keys are compared byte-wise as UTF-8 (read ranges end at U+10FFFF).
    IF pg_catalog.current_setting('server_encoding') <> 'UTF8' THEN
        RAISE EXCEPTION 'pgfacts needs a UTF8 database, not %',
            pg_catalog.current_setting('server_encoding')
            USING ERRCODE = '22023', HINT = 'CREATE DATABASE ... ENCODING ''UTF8''';
    END IF;
END
$encoding$;

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
--   @schema@_all_tenants    trusted to act for any tenant (a multi-tenant app server);
--                           other logins act only for the tenants bound to them
DO $roles$
DECLARE
    role_name text;
BEGIN
    FOREACH role_name IN ARRAY ARRAY[
        '@schema@_owner', '@schema@_agent', '@schema@_facts_manager',
        '@schema@_crawler', '@schema@_tuner', '@schema@_operator', '@schema@_all_tenants'
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

-- Which logins may act for which tenant (logins holding @schema@_all_tenants may act for any).
CREATE TABLE @schema@_internal.tenant_logins (
    tenant text NOT NULL,
    login name NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT tenant_logins_pkey PRIMARY KEY (tenant, login)
);
CREATE INDEX tenant_logins_login_idx ON @schema@_internal.tenant_logins (login, tenant);
COMMENT ON TABLE @schema@_internal.tenant_logins IS
'Logins bound to tenants: set_context refuses a tenant the login is not bound to';
ALTER TABLE @schema@_internal.tenant_logins ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.tenant_logins FORCE ROW LEVEL SECURITY;
