-- Advisory lock keys. Every layer that serializes or orders work with advisory locks
-- (knowledge slots and commits, working-memory write instants) derives its keys here.

CREATE OR REPLACE FUNCTION @schema@_internal.lock_key(input text)
RETURNS bigint
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    secret text;
BEGIN
    -- Advisory locks are shared by every login of the database: a key must not be
    -- computable from tenant data alone, so it hashes the install's secret too, which only
    -- the owner reads (migration 0014). Neither this nor the keys built on it is executable
    -- by an agent kind (grant_internal_functions): only the SECURITY DEFINER API calls them.
    SELECT s.secret INTO STRICT secret FROM @schema@_internal.install_secret AS s;
    RETURN ('x' || pg_catalog.encode(pg_catalog.substring(pg_catalog.sha256(
        pg_catalog.convert_to(secret || ':' || input, 'UTF8')), 1, 8), 'hex'))::bit(64)::bigint;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.lock_key(text) IS
'The advisory lock key of a name: 64 bits of sha256(install secret, name); owner only.';

CREATE OR REPLACE FUNCTION @schema@_internal.await_lock_holders(key bigint, exclusive boolean)
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    held boolean;
BEGIN
    -- Wait until the holders of an advisory lock that conflict with the mode asked for have
    -- let go (transaction-level holders: until they end), then let go at once: the lock is
    -- a barrier, never held by the waiter. The caller's next statement must take a fresh
    -- snapshot to see what they committed (a VOLATILE function, READ COMMITTED).
    -- (Unlocking in an expression, not a PERFORM: a reader pays for it on every call.)
    IF exclusive THEN
        IF NOT pg_catalog.pg_try_advisory_lock(key) THEN
            PERFORM pg_catalog.pg_advisory_lock(key);
        END IF;
        held := pg_catalog.pg_advisory_unlock(key);
    ELSE
        IF NOT pg_catalog.pg_try_advisory_lock_shared(key) THEN
            PERFORM pg_catalog.pg_advisory_lock_shared(key);
        END IF;
        held := pg_catalog.pg_advisory_unlock_shared(key);
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.await_lock_holders(bigint, boolean) IS
'Wait for the conflicting holders of an advisory lock (shared or exclusive request), '
'releasing it at once.';
