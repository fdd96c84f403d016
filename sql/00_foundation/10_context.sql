-- The caller context: tenant, session, agent and agent kind, set once per transaction.
--
-- Every function and RLS policy reads the context from these transaction-local settings,
-- so a pooled connection never carries one caller's identity into the next transaction.

-- One of the caller context's settings, NULL when unset or empty. Inlinable.
CREATE OR REPLACE FUNCTION @schema@_internal.context_setting(name text)
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT NULLIF(pg_catalog.current_setting(name, true), '')
$fn$;

COMMENT ON FUNCTION @schema@_internal.context_setting(text) IS
'A setting of the caller context (pgfacts.tenant, ...), NULL when unset or empty (inlined).';

-- Whether the login is a trusted app server that names tenants itself. Inlinable.
CREATE OR REPLACE FUNCTION @schema@_internal.acts_for_any_tenant()
RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.pg_has_role(SESSION_USER, '@schema@_all_tenants', 'MEMBER')
$fn$;

COMMENT ON FUNCTION @schema@_internal.acts_for_any_tenant() IS
'Whether the login holds @schema@_all_tenants (inlined): it may act for any tenant.';

-- The agent kind the settings claim (default agent), not yet checked. Inlinable.
CREATE OR REPLACE FUNCTION @schema@_internal.claimed_kind()
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT coalesce(@schema@_internal.context_setting('pgfacts.agent_kind'), 'agent')
$fn$;

COMMENT ON FUNCTION @schema@_internal.claimed_kind() IS
'The agent kind the caller context claims (default agent), unchecked (inlined); '
'context_kind checks it.';

-- The memory scope of the run (agent | swarm | none) is a sixth argument: a new signature.
DROP FUNCTION IF EXISTS @schema@.set_context(text, text, text, text, text);

-- The memory scopes of a run, in one place: set_context checks against it.
CREATE OR REPLACE FUNCTION @schema@_internal.memory_scopes()
RETURNS text []
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT ARRAY['agent', 'swarm', 'none']
$fn$;

COMMENT ON FUNCTION @schema@_internal.memory_scopes() IS
'The memory scopes a run may have: agent (the default), swarm (the sessions of one execution '
'share short-term memory), none (incognito: durable writes refused). (inlined)';

-- The memory scope the caller context names (default agent). Inlinable: the write paths
-- and the incognito triggers read it. A value set_config wrote that is not a scope reads as
-- agent (the scope is the caller's own choice, not a grant).
CREATE OR REPLACE FUNCTION @schema@_internal.context_memory_scope()
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN @schema@_internal.context_setting('pgfacts.memory_scope')
             OPERATOR(pg_catalog.=) ANY (@schema@_internal.memory_scopes())
        THEN @schema@_internal.context_setting('pgfacts.memory_scope')
        ELSE 'agent'
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.context_memory_scope() IS
'The memory scope of the caller context: agent (default, also for a value that is not a '
'scope), swarm or none. (inlined)';

CREATE OR REPLACE FUNCTION @schema@.set_context(
    tenant text,
    session_id text DEFAULT NULL,
    agent_id text DEFAULT NULL,
    agent_kind text DEFAULT 'agent',
    parent_session_id text DEFAULT NULL,
    memory_scope text DEFAULT 'agent'
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    kinds constant text[] := @schema@_internal.agent_kinds();
    settings text;
BEGIN
    -- Each check in the order its errors are reported, one statement where they follow
    -- each other, and none for an argument left NULL (which every one of them passes):
    -- every API call pays for set_context once.
    IF tenant IS NULL OR NOT @schema@_internal.tenant_name_ok(tenant) THEN
        PERFORM @schema@_internal.check_tenant(tenant);  -- says what is wrong
    END IF;
    IF session_id IS NOT NULL OR parent_session_id IS NOT NULL THEN
        session_id := @schema@_internal.normalize_session_id(session_id);
        parent_session_id := @schema@_internal.normalize_session_id(parent_session_id);
        IF NOT (@schema@_internal.session_id_ok(session_id)
                AND @schema@_internal.session_id_ok(parent_session_id)) THEN
            PERFORM @schema@_internal.check_session_id(session_id, 'session_id'),
                    @schema@_internal.check_session_id(parent_session_id, 'parent_session_id');
        END IF;
        IF parent_session_id IS NOT NULL AND session_id IS NULL THEN
            RAISE EXCEPTION 'parent_session_id needs a session_id'
                USING ERRCODE = '22023';
        END IF;
        IF parent_session_id = session_id THEN
            PERFORM @schema@_internal.check_parent(session_id, parent_session_id);
        END IF;
    END IF;
    IF NOT @schema@_internal.agent_id_ok(agent_id) THEN
        PERFORM @schema@_internal.check_agent_id(agent_id);
    END IF;
    IF agent_kind IS NULL OR NOT agent_kind = ANY (kinds) THEN
        RAISE EXCEPTION 'unknown agent kind %', @schema@_internal.shown(agent_kind)
            USING ERRCODE = '22023',
                  HINT = 'one of: ' || pg_catalog.array_to_string(kinds, ', ');
    END IF;
    IF memory_scope IS NULL OR NOT memory_scope = ANY (@schema@_internal.memory_scopes()) THEN
        RAISE EXCEPTION 'unknown memory scope %', @schema@_internal.shown(memory_scope)
            USING ERRCODE = '22023',
                  HINT = 'one of: agent (the default), swarm (one execution''s sessions share '
                         'short-term memory), none (incognito: reads only)';
    END IF;
    -- The kind is a claim the database checks: the role must hold that kind's NOLOGIN role.
    IF NOT pg_catalog.pg_has_role(current_user, '@schema@_' || agent_kind, 'MEMBER') THEN
        RAISE EXCEPTION 'role % may not act as agent kind %', current_user, agent_kind
            USING ERRCODE = '42501',
                  HINT = pg_catalog.format('GRANT %I TO %I', '@schema@_' || agent_kind, current_user);
    END IF;
    -- The login's binding first: nothing is set for a tenant it may not act for.
    IF NOT @schema@_internal.acts_for_any_tenant() THEN
        PERFORM @schema@_internal.check_tenant_login(tenant);
    END IF;
    -- One expression, not a PERFORM (a query): every API call pays for set_context.
    settings := pg_catalog.set_config('pgfacts.tenant', tenant, true)
        || pg_catalog.set_config('pgfacts.session_id', coalesce(session_id, ''), true)
        || pg_catalog.set_config('pgfacts.parent_session_id', coalesce(parent_session_id, ''), true)
        || pg_catalog.set_config('pgfacts.agent_id', coalesce(agent_id, ''), true)
        || pg_catalog.set_config('pgfacts.agent_kind', agent_kind, true)
        || pg_catalog.set_config('pgfacts.memory_scope', memory_scope, true);
    RETURN @schema@.current_context();
END
$fn$;

COMMENT ON FUNCTION @schema@.set_context(text, text, text, text, text, text) IS
'Set the caller context for the current transaction: tenant (required; the login must hold '
'@schema@_all_tenants or be bound to it), session_id, agent_id, agent_kind (agent | '
'facts_manager | crawler | tuner | operator; the role must hold the matching NOLOGIN role), '
'parent_session_id (registers a spawn-tree child on first use) and memory_scope (agent | '
'swarm: session facts are the execution''s, its spawn tree root''s | none: incognito, '
'durable writes refused with PF011); session ids in their normal form (session-<id> is '
'<id>). Returns the context as jsonb. Errors: 22023 bad value, 42501 tenant or kind not '
'granted.';

-- Inlinable (tests/lint_sql.py lists it): set_context returns it on every call.
CREATE OR REPLACE FUNCTION @schema@.current_context()
RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'tenant', @schema@_internal.context_setting('pgfacts.tenant'),
        'session_id', @schema@_internal.context_setting('pgfacts.session_id'),
        'parent_session_id', @schema@_internal.context_setting('pgfacts.parent_session_id'),
        'agent_id', @schema@_internal.context_setting('pgfacts.agent_id'),
        'agent_kind', @schema@_internal.context_setting('pgfacts.agent_kind'),
        'memory_scope', @schema@_internal.context_memory_scope())
$fn$;

COMMENT ON FUNCTION @schema@.current_context() IS
'The caller context of the current transaction as jsonb (tenant, session_id, parent_session_id, '
'agent_id, agent_kind, memory_scope); NULL fields when unset (memory_scope: agent). (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.checked_context_tenant()
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tenant text := @schema@_internal.context_setting('pgfacts.tenant');
BEGIN
    IF tenant IS NULL THEN
        RAISE EXCEPTION 'no tenant in the caller context'
            USING ERRCODE = '42501',
                  HINT = 'call @schema@.set_context(tenant => ...) in this transaction first';
    END IF;
    PERFORM @schema@_internal.check_tenant(tenant), @schema@_internal.check_tenant_login(tenant);
    RETURN tenant;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.checked_context_tenant() IS
'context_tenant''s slow path: the tenant of the caller context when the login is bound to '
'it; otherwise the error (42501 no context or not allowed, 22023 a malformed name).';

-- Every API call and every direct read by an agent kind checks the context again, because
-- set_config() can write the settings without set_context. Inlinable (tests/lint_sql.py
-- lists it), so the common case, a trusted login naming a well-formed tenant, is one
-- expression with no function frame; every other case takes checked_context_tenant,
-- which raises the precise error or checks the login's binding.
CREATE OR REPLACE FUNCTION @schema@_internal.context_tenant()
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN @schema@_internal.tenant_name_ok(@schema@_internal.context_setting('pgfacts.tenant'))
             AND @schema@_internal.acts_for_any_tenant()
        THEN @schema@_internal.context_setting('pgfacts.tenant')
        ELSE @schema@_internal.checked_context_tenant()
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.context_tenant() IS
'The tenant of the caller context (inlined); raises 42501 when no context is set or the '
'login may not act for that tenant.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_tenant_login(tenant text)
RETURNS void
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF @schema@_internal.acts_for_any_tenant() THEN
        RETURN;  -- a trusted multi-tenant app server names the tenant per transaction
    END IF;
    IF NOT EXISTS (SELECT 1 FROM @schema@_internal.tenant_logins AS b
                    WHERE b.login = session_user AND b.tenant = check_tenant_login.tenant) THEN
        RAISE EXCEPTION 'login % may not act for tenant %', session_user, @schema@_internal.shown(tenant)
            USING ERRCODE = '42501',
                  HINT = pg_catalog.format(
                      'bind it: SELECT @schema@.bind_tenant_login(%L, %s); or GRANT %I to an '
                      'app server login that names tenants itself',
                      session_user, @schema@_internal.shown(tenant), '@schema@_all_tenants');
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_tenant_login(text) IS
'Raise 42501 unless the login holds @schema@_all_tenants or is bound to tenant.';

-- Inlinable (tests/lint_sql.py lists it): context_session evaluates it on every call.
CREATE OR REPLACE FUNCTION @schema@_internal.session_id_ok(session_id text)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT session_id IS NULL
        OR (pg_catalog.btrim(session_id) OPERATOR(pg_catalog.<>) ''
            AND pg_catalog.octet_length(session_id) OPERATOR(pg_catalog.<=) 256
            AND pg_catalog.strpos(session_id, ':') OPERATOR(pg_catalog.=) 0)
$fn$;

COMMENT ON FUNCTION @schema@_internal.session_id_ok(text) IS
'Whether a session id is NULL or 1 to 256 bytes without '':'' (inlined); check_session_id '
'raises.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_session_id(session_id text, what text)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF NOT @schema@_internal.session_id_ok(session_id) THEN
        RAISE EXCEPTION '% must be 1 to 256 bytes without '':''', what
            USING ERRCODE = '22023',
                  HINT = 'session ids are part of scope keys (session:<id>:<key>)';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_session_id(text, text) IS
'Raise 22023 unless a session id is 1 to 256 bytes without '':'' (NULL passes).';

CREATE OR REPLACE FUNCTION @schema@.bind_tenant_login(login name, tenant text)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF login IS NULL THEN
        RAISE EXCEPTION 'login and tenant are required' USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.check_tenant(tenant);
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles AS r WHERE r.rolname = login) THEN
        RAISE EXCEPTION 'role % does not exist', login USING ERRCODE = 'P0002';
    END IF;
    PERFORM pg_catalog.set_config('pgfacts.binding', tenant, true);
    INSERT INTO @schema@_internal.tenant_logins AS b (tenant, login)
    VALUES (bind_tenant_login.tenant, bind_tenant_login.login)
    ON CONFLICT ON CONSTRAINT tenant_logins_pkey DO NOTHING;
    RETURN pg_catalog.jsonb_build_object('login', login, 'tenant', tenant);
END
$fn$;

COMMENT ON FUNCTION @schema@.bind_tenant_login(name, text) IS
'DBA only (not granted to any agent kind): let a login act for a tenant. Logins holding '
'@schema@_all_tenants (trusted app servers) may act for any tenant without a binding.';

CREATE OR REPLACE FUNCTION @schema@.unbind_tenant_login(login name, tenant text)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    removed int;
BEGIN
    PERFORM pg_catalog.set_config('pgfacts.binding', tenant, true);
    DELETE FROM @schema@_internal.tenant_logins AS b
     WHERE b.login = unbind_tenant_login.login AND b.tenant = unbind_tenant_login.tenant;
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN pg_catalog.jsonb_build_object('login', login, 'tenant', tenant, 'removed', removed > 0);
END
$fn$;

COMMENT ON FUNCTION @schema@.unbind_tenant_login(name, text) IS
'DBA only: stop a login acting for a tenant.';

CREATE OR REPLACE FUNCTION @schema@.schema_version()
RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'schema', '@schema@',
        'migrations', coalesce(pg_catalog.jsonb_agg(l.name ORDER BY l.name), '[]'::jsonb),
        'latest', pg_catalog.max(l.name),
        'package_version', pg_catalog.max(l.package_version)
    )
      FROM @schema@_internal.schema_ledger AS l
     WHERE l.kind = 'migration'
$fn$;

COMMENT ON FUNCTION @schema@.schema_version() IS
'The applied migrations of this install (schema, migrations, latest, package_version).';

CREATE OR REPLACE FUNCTION @schema@_internal.checked_context_kind()
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    kind text := @schema@_internal.claimed_kind();
BEGIN
    IF NOT kind = ANY (@schema@_internal.agent_kinds())
       OR NOT pg_catalog.pg_has_role(session_user, '@schema@_' || kind, 'MEMBER') THEN
        RAISE EXCEPTION 'role % may not act as agent kind %', session_user,
            CASE WHEN kind = ANY (@schema@_internal.agent_kinds()) THEN kind
                 ELSE @schema@_internal.shown(kind) END
            USING ERRCODE = '42501', HINT = 'set the context with @schema@.set_context()';
    END IF;
    RETURN kind;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.checked_context_kind() IS
'context_kind''s slow path: raises 42501 for a kind the login does not hold.';

-- The settings can be written with set_config() by anyone, so the kind is checked again
-- against the login's memberships wherever it grants something. Inlinable like
-- context_tenant; checked_context_kind raises the error. (A CASE, so pg_has_role never
-- sees the role name of an unknown kind.)
CREATE OR REPLACE FUNCTION @schema@_internal.context_kind()
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN NOT @schema@_internal.claimed_kind()
                 OPERATOR(pg_catalog.=) ANY (@schema@_internal.agent_kinds())
        THEN @schema@_internal.checked_context_kind()
        WHEN pg_catalog.pg_has_role(SESSION_USER,
                 '@schema@_' OPERATOR(pg_catalog.||) @schema@_internal.claimed_kind(), 'MEMBER')
        THEN @schema@_internal.claimed_kind()
        ELSE @schema@_internal.checked_context_kind()
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.context_kind() IS
'The agent kind of the caller context (default agent), verified against the login''s roles '
'(inlined).';

CREATE OR REPLACE FUNCTION @schema@_internal.refuse_kind(allowed text [], operation text)
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RAISE EXCEPTION '% is not allowed for agent kind %', operation,
                    @schema@_internal.context_kind()
        USING ERRCODE = '42501',
              HINT = 'allowed for: ' || pg_catalog.array_to_string(allowed, ', ');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.refuse_kind(text [], text) IS
'require_kind''s slow path: raises 42501 naming the operation and the kinds allowed.';

-- Inlinable like context_kind; refuse_kind raises the error.
CREATE OR REPLACE FUNCTION @schema@_internal.require_kind(allowed text [], operation text)
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN @schema@_internal.context_kind() OPERATOR(pg_catalog.=) ANY (allowed)
        THEN @schema@_internal.context_kind()
        ELSE @schema@_internal.refuse_kind(allowed, operation)
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.require_kind(text [], text) IS
'Raise 42501 unless the caller''s agent kind is one of allowed; returns the kind (inlined).';

CREATE OR REPLACE FUNCTION @schema@_internal.require_cross_tenant_operator(operation text)
RETURNS void
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- An operation that crosses tenants and reads no caller context (the worker, doctor,
    -- pg_cron): a call without a context needs only the operator's grant; a context that
    -- claims another kind (a login holding several) is refused like everywhere else.
    IF @schema@_internal.context_setting('pgfacts.agent_kind') IS NOT NULL THEN
        PERFORM @schema@_internal.require_kind(ARRAY['operator'], operation);
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.require_cross_tenant_operator(text) IS
'The rule of the operator''s cross-tenant functions (run_maintenance, the backlogs): 42501 '
'when a caller context names a kind other than operator; no context is the grant''s matter.';

CREATE OR REPLACE FUNCTION @schema@_internal.checked_context_session()
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    session text := @schema@_internal.normalize_session_id(
        @schema@_internal.context_setting('pgfacts.session_id'));
BEGIN
    PERFORM @schema@_internal.check_session_id(session, 'session_id');
    RETURN session;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.checked_context_session() IS
'context_session''s slow path: the setting in its normal form, or 22023 when set_config '
'wrote a bad one.';

-- Checked again: set_config() can write the setting without set_context, which stores it
-- in its normal form. Inlinable like context_tenant: a well-formed setting in normal form
-- is the answer; any other takes checked_context_session.
CREATE OR REPLACE FUNCTION @schema@_internal.context_session()
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN @schema@_internal.session_id_ok(@schema@_internal.context_setting('pgfacts.session_id'))
             AND NOT coalesce(pg_catalog.starts_with(
                     @schema@_internal.context_setting('pgfacts.session_id'), 'session-'), false)
        THEN @schema@_internal.context_setting('pgfacts.session_id')
        ELSE @schema@_internal.checked_context_session()
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.context_session() IS
'The session of the caller context, or NULL (22023 when set_config wrote a bad one; '
'inlined). (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.checked_context_parent()
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    parent text := @schema@_internal.normalize_session_id(
        @schema@_internal.context_setting('pgfacts.parent_session_id'));
BEGIN
    PERFORM @schema@_internal.check_session_id(parent, 'parent_session_id');
    PERFORM @schema@_internal.check_parent(@schema@_internal.normalize_session_id(
        @schema@_internal.context_setting('pgfacts.session_id')), parent);
    RETURN parent;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.checked_context_parent() IS
'context_parent''s slow path: the parent in its normal form, or 22023 when set_config '
'wrote a bad one (malformed, or the session itself).';

-- Checked again like context_session (set_config can bypass set_context). Inlinable: a
-- well-formed parent that is not the session itself is the answer; any other takes
-- checked_context_parent, which says what is wrong.
CREATE OR REPLACE FUNCTION @schema@_internal.context_parent()
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    -- Both settings in normal form (as set_context stores them), so the raw values compare.
    SELECT CASE
        WHEN @schema@_internal.context_setting('pgfacts.parent_session_id') IS NULL THEN NULL
        WHEN @schema@_internal.session_id_ok(@schema@_internal.context_setting('pgfacts.parent_session_id'))
             AND NOT pg_catalog.starts_with(
                     @schema@_internal.context_setting('pgfacts.parent_session_id'), 'session-')
             AND NOT coalesce(pg_catalog.starts_with(
                     @schema@_internal.context_setting('pgfacts.session_id'), 'session-'), false)
             AND @schema@_internal.context_setting('pgfacts.parent_session_id')
                 IS DISTINCT FROM @schema@_internal.context_setting('pgfacts.session_id')
        THEN @schema@_internal.context_setting('pgfacts.parent_session_id')
        ELSE @schema@_internal.checked_context_parent()
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.context_parent() IS
'The parent session of the caller context, or NULL (checked like set_context checks it; '
'inlined). (inlined)';

-- Inlinable like context_session; check_agent_id raises for a bad one.
CREATE OR REPLACE FUNCTION @schema@_internal.context_agent()
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE
        WHEN @schema@_internal.agent_id_ok(@schema@_internal.context_setting('pgfacts.agent_id'))
        THEN @schema@_internal.context_setting('pgfacts.agent_id')
        ELSE @schema@_internal.check_agent_id(@schema@_internal.context_setting('pgfacts.agent_id'))
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.context_agent() IS
'The agent id of the caller context, or NULL (checked like set_context checks it; inlined). '
'(inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.check_parent(session_id text, parent_session_id text)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF parent_session_id = session_id THEN
        RAISE EXCEPTION 'a session cannot be its own parent'
            USING ERRCODE = '22023', DETAIL = pg_catalog.format('session %s',
                                                                @schema@_internal.shown(session_id)),
                  HINT = 'spawn trees have no cycles';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_parent(text, text) IS
'Raise 22023 when a session names itself as its parent.';
