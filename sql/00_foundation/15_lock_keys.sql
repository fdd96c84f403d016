-- Advisory lock keys. Every layer that serializes or orders work with advisory locks
-- (knowledge slots and commits, working-memory write instants) derives its keys here.

-- Inlinable (no SET clause, every name qualified; tests/lint_sql.py lists it): the key is
-- an expression in the statement that takes the lock, with no query and no function frame.
-- Advisory locks are shared by every login of the database, so a key must not be
-- computable from tenant data alone: it hashes the install's secret too, 128 random bits in
-- two sequences only the owner reads (migration 0023; VOLATILE because reading a sequence
-- is). Neither this nor the keys built on it is executable by an agent kind
-- (grant_internal_functions): only the SECURITY DEFINER API calls them.
CREATE OR REPLACE FUNCTION @schema@_internal.lock_key(input text)
RETURNS bigint
LANGUAGE sql
VOLATILE
SECURITY INVOKER
AS $fn$
    SELECT ('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substring(pg_catalog.sha256(
               pg_catalog.convert_to(
                   pg_catalog.pg_sequence_last_value(
                       '@schema@_internal.lock_key_secret_a'::pg_catalog.regclass)::pg_catalog.text
                   OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||)
                   pg_catalog.pg_sequence_last_value(
                       '@schema@_internal.lock_key_secret_b'::pg_catalog.regclass)::pg_catalog.text
                   OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) input,
                   'UTF8')), 1, 8), 'hex'))::pg_catalog.bit(64)::pg_catalog.int8
$fn$;

COMMENT ON FUNCTION @schema@_internal.lock_key(text) IS
'The advisory lock key of a name (inlined): 64 bits of sha256(install secret, name); owner '
'only.';

-- A new secret, for an install cloned from a template (the clones share the template's):
-- 64 fresh random bits in each half (gen_random_uuid, pg_strong_random), as migration 0023
-- made the first. Run by the owner or a superuser while no writer runs; every key changes.
CREATE OR REPLACE FUNCTION @schema@_internal.renew_lock_key_secret()
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM pg_catalog.setval(s.seq, ('x' || pg_catalog.substr(pg_catalog.encode(
                pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.gen_random_uuid()::text
                    || pg_catalog.gen_random_uuid()::text, 'UTF8')), 'hex'), 1, 16))::bit(64)::bigint)
      FROM (VALUES ('@schema@_internal.lock_key_secret_a'::regclass),
                   ('@schema@_internal.lock_key_secret_b'::regclass)) AS s (seq);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.renew_lock_key_secret() IS
'Owner only: a fresh install secret for the advisory lock keys (every key changes); for '
'installs cloned from one template.';

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
