-- The install secret of the advisory lock keys moves from a table into two sequences.
-- Reading a table takes a query; reading a sequence's last value is a function call
-- (pg_sequence_last_value), so a key becomes a plain expression that PostgreSQL inlines into
-- the statement taking the lock: no query and no function frame per lock. Every API call
-- that locks or waits (each knowledge read of a known instant, each write) computed a key.
-- The two sequences hold 128 fresh random bits (gen_random_uuid, pg_strong_random); they
-- belong to the owner and are granted to no one, and pg_sequences shows their values only
-- to roles that may read them. Nothing calls nextval on them. The keys change with the
-- secret: upgrade in a quiet moment (docs/operations.md, Migrations).
SET LOCAL ROLE @schema@_owner;

CREATE SEQUENCE @schema@_internal.lock_key_secret_a AS bigint
    MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807 NO CYCLE;
CREATE SEQUENCE @schema@_internal.lock_key_secret_b AS bigint
    MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807 NO CYCLE;
REVOKE ALL ON SEQUENCE @schema@_internal.lock_key_secret_a FROM PUBLIC;
REVOKE ALL ON SEQUENCE @schema@_internal.lock_key_secret_b FROM PUBLIC;

SELECT pg_catalog.setval(s.seq, ('x' || pg_catalog.substr(pg_catalog.encode(pg_catalog.sha256(
           pg_catalog.convert_to(pg_catalog.gen_random_uuid()::text
                                 || pg_catalog.gen_random_uuid()::text, 'UTF8')), 'hex'),
           1, 16))::bit(64)::bigint, true)
  FROM (VALUES ('@schema@_internal.lock_key_secret_a'::regclass),
               ('@schema@_internal.lock_key_secret_b'::regclass)) AS s (seq);

COMMENT ON SEQUENCE @schema@_internal.lock_key_secret_a IS
'Half of the install secret every advisory lock key hashes (lock_key); owner only.';
COMMENT ON SEQUENCE @schema@_internal.lock_key_secret_b IS
'Half of the install secret every advisory lock key hashes (lock_key); owner only.';

DROP TABLE @schema@_internal.install_secret;
