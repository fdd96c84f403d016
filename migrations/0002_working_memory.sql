-- Working memory (seed 000): sessions and their spawn trees, key/value facts in session or
-- shared scope with tombstones, etags and a crawl queue, and the system-time history of
-- every fact version.

-- Maintenance crosses tenants (tombstone purge, retention), so it runs as a narrow
-- NOLOGIN role that bypasses row level security. Only run_maintenance() is owned by it.
DO $roles$
BEGIN
    CREATE ROLE @schema@_maintainer NOLOGIN BYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$roles$;

SET LOCAL ROLE @schema@_owner;

-- Per-tenant settings (value cap, tombstone TTL, ...). A tenant of '*' is the default for
-- every tenant; functions fall back to their built-in default when neither is set.
CREATE TABLE @schema@_internal.settings (
    tenant text NOT NULL,
    name text NOT NULL,
    value jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT settings_pkey PRIMARY KEY (tenant, name)
);
COMMENT ON TABLE @schema@_internal.settings IS
'Per-tenant settings; tenant ''*'' holds defaults for every tenant';

CREATE TABLE @schema@_internal.sessions (
    tenant text NOT NULL,
    session_id text NOT NULL,
    parent_session_id text,
    -- The spawn tree's root, fixed at registration (a parent is registered before its
    -- children and never changes), so a tree is one index lookup.
    root_session_id text NOT NULL,
    agent_id text,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    ended_at timestamptz,
    deleted_at timestamptz,
    CONSTRAINT sessions_pkey PRIMARY KEY (tenant, session_id),
    CONSTRAINT sessions_parent_fkey FOREIGN KEY (tenant, parent_session_id)
        REFERENCES @schema@_internal.sessions (tenant, session_id),
    CONSTRAINT sessions_not_own_parent CHECK (parent_session_id <> session_id),
    CONSTRAINT sessions_root_shape CHECK ((parent_session_id IS NULL) = (root_session_id = session_id)),
    CONSTRAINT sessions_id_shape CHECK (
        pg_catalog.octet_length(session_id) BETWEEN 1 AND 256
        AND pg_catalog.strpos(session_id, ':') = 0
    )
);
CREATE INDEX sessions_parent_idx ON @schema@_internal.sessions (tenant, parent_session_id)
    WHERE parent_session_id IS NOT NULL;
CREATE INDEX sessions_root_idx ON @schema@_internal.sessions (tenant, root_session_id);
COMMENT ON TABLE @schema@_internal.sessions IS
'Session registry per tenant: the spawn tree is the parent_session_id forest';

-- The current version of every fact (live or tombstoned). Earlier versions are in
-- fact_versions; system_time is set by the write path from the database clock.
CREATE SEQUENCE @schema@_internal.facts_etag_seq AS bigint;

CREATE TABLE @schema@_internal.facts (
    tenant text NOT NULL,
    fact_id bigint GENERATED ALWAYS AS IDENTITY,
    scope_key text NOT NULL,
    key text NOT NULL,
    value jsonb NOT NULL,
    shared boolean NOT NULL,
    session_id text,
    agent_id text,
    -- Who created the fact (or revived its tombstone): the owner for deletes, whoever
    -- overwrites it later.
    owner_session_id text,
    owner_agent_id text,
    tags text [] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    -- Drawn from one sequence, so a fact purged and created again never repeats an etag
    -- a crawler holds a receipt for.
    etag bigint NOT NULL,
    last_crawled_at timestamptz,
    system_time tstzrange NOT NULL,
    CONSTRAINT facts_pkey PRIMARY KEY (tenant, fact_id),
    CONSTRAINT facts_scope_key_key UNIQUE (tenant, scope_key),
    CONSTRAINT facts_scope_shape CHECK (
        (shared AND scope_key = 'shared:' || key)
        OR (NOT shared AND session_id IS NOT NULL
            AND scope_key = 'session:' || session_id || ':' || key)
    ),
    CONSTRAINT facts_key_length CHECK (
        pg_catalog.length(key) BETWEEN 1 AND 512 AND pg_catalog.octet_length(key) <= 1024
    ),
    CONSTRAINT facts_system_time_current CHECK (
        NOT pg_catalog.isempty(system_time) AND pg_catalog.upper_inf(system_time)
    ),
    CONSTRAINT facts_etag_positive CHECK (etag > 0)
);
-- Reads run under row level security, where only leakproof operators can become index
-- conditions: equality and starts_with (^@) are, LIKE and array containment are not. So
-- every read path narrows by tenant, scope, session and the pattern's literal head.
CREATE INDEX facts_read_idx ON @schema@_internal.facts (tenant, updated_at DESC, key)
    WHERE deleted_at IS NULL;
CREATE INDEX facts_key_idx ON @schema@_internal.facts (tenant, key text_pattern_ops)
    WHERE deleted_at IS NULL;
CREATE INDEX facts_shared_key_idx ON @schema@_internal.facts (tenant, key text_pattern_ops)
    WHERE shared AND deleted_at IS NULL;
CREATE INDEX facts_shared_recent_idx ON @schema@_internal.facts (tenant, updated_at DESC, key, scope_key)
    WHERE shared AND deleted_at IS NULL;
CREATE INDEX facts_session_key_idx ON @schema@_internal.facts (
    tenant, session_id, key text_pattern_ops
) WHERE NOT shared AND deleted_at IS NULL;
CREATE INDEX facts_uncrawled_idx ON @schema@_internal.facts (tenant, key text_pattern_ops, fact_id)
    WHERE last_crawled_at IS NULL;
CREATE INDEX facts_tombstones_idx ON @schema@_internal.facts (deleted_at)
    WHERE deleted_at IS NOT NULL;
COMMENT ON TABLE @schema@_internal.facts IS
'Working-memory facts, current version (tombstones carry deleted_at until purged)';

-- Every earlier version of a fact with the system-time range in which it was current.
CREATE TABLE @schema@_internal.fact_versions (
    tenant text NOT NULL,
    fact_id bigint NOT NULL,
    version_id bigint GENERATED ALWAYS AS IDENTITY,
    scope_key text NOT NULL,
    key text NOT NULL,
    value jsonb NOT NULL,
    shared boolean NOT NULL,
    session_id text,
    agent_id text,
    tags text [] NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    etag bigint NOT NULL,
    system_time tstzrange NOT NULL,
    CONSTRAINT fact_versions_pkey PRIMARY KEY (tenant, version_id),
    CONSTRAINT fact_versions_closed CHECK (
        NOT pg_catalog.isempty(system_time) AND NOT pg_catalog.upper_inf(system_time)
    ),
    -- One fact's versions never overlap in system time, even for raw SQL.
    CONSTRAINT fact_versions_no_overlap EXCLUDE USING gist (
        tenant WITH =, scope_key WITH =, system_time WITH &&
    )
);
CREATE INDEX fact_versions_fact_idx ON @schema@_internal.fact_versions (tenant, fact_id, version_id);
COMMENT ON TABLE @schema@_internal.fact_versions IS
'Earlier versions of working-memory facts, each with the system-time range it was current';

ALTER TABLE @schema@_internal.settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.settings FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.sessions FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.facts ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.facts FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.fact_versions ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.fact_versions FORCE ROW LEVEL SECURITY;

-- The owner may hand run_maintenance() to the maintainer (ALTER FUNCTION ... OWNER) but
-- never inherits its BYPASSRLS (role attributes are not inherited).
RESET ROLE;
DO $grant$
BEGIN
    -- In EXECUTE because the SQL linter's parser does not know PostgreSQL 16's WITH options.
    EXECUTE 'GRANT @schema@_maintainer TO @schema@_owner WITH INHERIT FALSE, SET TRUE';
END
$grant$;
GRANT USAGE, CREATE ON SCHEMA @schema@_internal TO @schema@_maintainer;
