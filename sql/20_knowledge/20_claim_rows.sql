-- The row operations every knowledge write goes through: copy with another valid range,
-- retire. System time is the writing transaction's instant (now()), the same rule the
-- working-memory history follows, moved just past the last change in the history of the
-- slots it holds (next_instant): past a row a later-started transaction wrote or retired
-- first, and past an earlier write of the same transaction. So a slot's system time only
-- moves forward, and two writes of a slot never share an instant.

CREATE OR REPLACE FUNCTION @schema@_internal.trust_rank(trust text)
RETURNS integer
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Operator > owner > agent > third party.
    RETURN CASE trust WHEN 'operator' THEN 4 WHEN 'owner' THEN 3 WHEN 'agent' THEN 2
                      WHEN 'third_party' THEN 1 END;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.trust_rank(text) IS
'Trust as a number: operator 4 > owner 3 > agent 2 > third_party 1.';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_trust(tenant text, claim_id bigint)
RETURNS integer
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    best integer;
BEGIN
    -- A claim is as trusted as its most trusted source.
    SELECT pg_catalog.max(@schema@_internal.trust_rank(e.trust)) INTO best
      FROM @schema@_internal.claim_sources AS s
      JOIN @schema@_internal.episodes AS e
        ON e.tenant = s.tenant AND e.episode_id = s.episode_id
     WHERE s.tenant = claim_trust.tenant AND s.claim_id = claim_trust.claim_id;
    RETURN coalesce(best, 0);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_trust(text, bigint) IS
'The trust rank of a claim: the highest of its sources.';

CREATE OR REPLACE FUNCTION @schema@_internal.assertion_of(
    subject_id bigint, predicate text, object_value jsonb, object_entity_id bigint
) RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN pg_catalog.md5(subject_id::text || '|' || predicate || '|' ||
        CASE WHEN object_entity_id IS NOT NULL THEN 'e:' || object_entity_id::text
             ELSE 'v:' || object_value::text END);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.assertion_of(bigint, text, jsonb, bigint) IS
'The identity of an assertion (subject, predicate, object) for corroboration and retraction.';

CREATE OR REPLACE FUNCTION @schema@_internal.slot_lock_key(
    tenant text, subject text, predicate text
) RETURNS bigint
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Every writer of a slot (ingest, retract, restore, purge, verify) takes this
    -- transaction-scoped advisory lock; writers of several slots take them in key order.
    RETURN pg_catalog.hashtextextended(
        '@schema@:slot:' || tenant || ':' || subject || ':' || predicate, 0);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.slot_lock_key(text, text, text) IS
'The advisory lock key of a slot (tenant, subject, predicate); several are taken in key order.';

CREATE OR REPLACE FUNCTION @schema@_internal.last_instant(system_time tstzrange)
RETURNS timestamptz
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN CASE WHEN pg_catalog.upper_inf(system_time) THEN pg_catalog.lower(system_time)
                ELSE pg_catalog.upper(system_time) END;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.last_instant(tstzrange) IS
'The last instant a row''s system time records: when it was retired, else when it was recorded.';

CREATE OR REPLACE FUNCTION @schema@_internal.next_instant(newest timestamptz)
RETURNS timestamptz
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The instant of a write to slots whose history last changed at `newest`.
    RETURN GREATEST(pg_catalog.now(), newest + interval '1 microsecond');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.next_instant(timestamptz) IS
'The system time of a write: now(), or just after the last change of its slots if later.';

CREATE OR REPLACE FUNCTION @schema@_internal.slot_instant(
    tenant text, subject bigint, predicate text
) RETURNS timestamptz
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
BEGIN
    RETURN @schema@_internal.next_instant((
        SELECT pg_catalog.max(@schema@_internal.last_instant(c.system_time))
          FROM @schema@_internal.claims AS c
         WHERE c.tenant = tenant AND c.subject_id = subject AND c.predicate = predicate));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.slot_instant(text, bigint, text) IS
'The system time of a write to one slot (retract, restore); the caller holds its lock.';

CREATE OR REPLACE FUNCTION @schema@_internal.require_read_committed(operation text)
RETURNS void
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Writers of a slot wait for each other on its lock. A REPEATABLE READ or SERIALIZABLE
    -- snapshot is taken before that wait, so it cannot see what the writer it waited for
    -- committed, and would decide against a stale slot.
    IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION '% needs a READ COMMITTED transaction, not %', operation,
            pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
            USING ERRCODE = '0A000',
                  HINT = 'run knowledge writes in READ COMMITTED (the default isolation level)';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.require_read_committed(text) IS
'Refuse a knowledge write outside READ COMMITTED, where the slot locks could not serialize it.';

CREATE OR REPLACE FUNCTION @schema@_internal.retire_claim(
    tenant text, claim_id bigint, reason text, successor bigint, retire_at timestamptz
) RETURNS boolean
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    UPDATE @schema@_internal.claims AS c
       SET system_time = pg_catalog.tstzrange(pg_catalog.lower(c.system_time),
               GREATEST(retire_at, pg_catalog.lower(c.system_time) + interval '1 microsecond')),
           retired_reason = reason,
           superseded_by = successor
     WHERE c.tenant = retire_claim.tenant AND c.claim_id = retire_claim.claim_id
       AND pg_catalog.upper_inf(c.system_time);
    RETURN FOUND;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.retire_claim(text, bigint, text, bigint, timestamptz) IS
'End a live claim''s system time at retire_at (at least a microsecond after it began) with a '
'reason and successor; false when it was no longer live.';

CREATE OR REPLACE FUNCTION @schema@_internal.copy_claim(
    tenant text, claim_id bigint, valid tstzrange, write_at timestamptz
) RETURNS bigint
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    copy_id bigint;
BEGIN
    INSERT INTO @schema@_internal.claims AS c (
        tenant, subject_id, predicate, cardinality, object_value, object_entity_id, text,
        confidence, assertion, valid, asserted_valid, system_time, copied_from)
    SELECT o.tenant, o.subject_id, o.predicate, o.cardinality, o.object_value,
           o.object_entity_id, o.text, o.confidence, o.assertion, copy_claim.valid,
           o.asserted_valid,
           pg_catalog.tstzrange(write_at, NULL), coalesce(o.copied_from, o.claim_id)
      FROM @schema@_internal.claims AS o
     WHERE o.tenant = copy_claim.tenant AND o.claim_id = copy_claim.claim_id
    RETURNING c.claim_id INTO copy_id;
    INSERT INTO @schema@_internal.claim_sources (
        tenant, claim_id, episode_id, locator, quote, asserted_valid, added_at)
    SELECT s.tenant, copy_id, s.episode_id, s.locator, s.quote, s.asserted_valid, s.added_at
      FROM @schema@_internal.claim_sources AS s
     WHERE s.tenant = copy_claim.tenant AND s.claim_id = copy_claim.claim_id;
    RETURN copy_id;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.copy_claim(text, bigint, tstzrange, timestamptz) IS
'Write a claim again with another valid range (same assertion, same sources).';
