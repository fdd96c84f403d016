-- Advisory lock keys that no tenant can compute. Advisory locks are
-- shared by every login of the database, so a key derived from tenant data alone (tenant,
-- entity id, predicate, source) lets any login take another tenant's lock and stall its
-- writers. Every key (@schema@_internal.lock_key) hashes this per-install secret too. The
-- table belongs to the owner and is granted to no one, so only the owner, that is the
-- SECURITY DEFINER API, and superusers read it. It holds no tenant data: one row per
-- install, made once here from gen_random_uuid() (pg_strong_random).
SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.install_secret (
    singleton boolean NOT NULL DEFAULT true,
    secret text NOT NULL,
    CONSTRAINT install_secret_pkey PRIMARY KEY (singleton),
    CONSTRAINT install_secret_singleton CHECK (singleton),
    CONSTRAINT install_secret_length CHECK (pg_catalog.length(secret) >= 64)
);

REVOKE ALL ON TABLE @schema@_internal.install_secret FROM PUBLIC;

INSERT INTO @schema@_internal.install_secret (secret)
VALUES (pg_catalog.replace(
    pg_catalog.gen_random_uuid()::text || pg_catalog.gen_random_uuid()::text
    || pg_catalog.gen_random_uuid()::text, '-', ''
));

COMMENT ON TABLE @schema@_internal.install_secret IS
'The secret of this install that every advisory lock key hashes (lock_key); owner only.';
