-- The row operations every knowledge write goes through: retire a row, copy it with another
-- valid range (both in memory, as rows of a slot picture), and the one writer that stores
-- such changes (write_claim_changes). A write stamps its rows with a provisional instant:
-- its transaction's now(), moved just past the last change in the history of the slots it
-- holds (next_instant), so a slot's system time only moves forward and two writes of a
-- slot never share an instant. The commit moves every provisional instant of the
-- transaction to the commit instant (25_commit_instants.sql).

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

-- Every writer of a slot (ingest, retract, restore, purge, verify) takes this
-- transaction-scoped advisory lock; writers of several slots take them in key order.
-- Inlinable like lock_key (tests/lint_sql.py lists it).
CREATE OR REPLACE FUNCTION @schema@_internal.slot_lock_key(
    tenant text, subject text, predicate text
) RETURNS bigint
LANGUAGE sql
VOLATILE
SECURITY INVOKER
AS $fn$
    SELECT @schema@_internal.lock_key('@schema@:slot:' OPERATOR(pg_catalog.||) tenant
        OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) subject
        OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) predicate)
$fn$;

COMMENT ON FUNCTION @schema@_internal.slot_lock_key(text, text, text) IS
'The advisory lock key of a slot (tenant, subject, predicate), keyed by the install secret; '
'several are taken in key order. Owner only. (inlined)';

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
    -- Writers of a slot wait for each other on its lock (an import's batches on their
    -- slices' locks). A REPEATABLE READ or SERIALIZABLE snapshot is taken before that wait,
    -- so it cannot see what the writer it waited for committed, and would decide against
    -- a stale slot.
    IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION '% needs a READ COMMITTED transaction, not %', operation,
            pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
            USING ERRCODE = '0A000',
                  HINT = 'run it in READ COMMITTED (the default isolation level)';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.require_read_committed(text) IS
'Refuse a write outside READ COMMITTED, where the locks writers wait on could not serialize '
'it (a knowledge write''s slot locks, an import batch''s slice locks).';

CREATE OR REPLACE FUNCTION @schema@_internal.retire_row(
    one @schema@_internal.slot_row, reason text, successor bigint
) RETURNS @schema@_internal.slot_row
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Its system time ends when the writer stores it (write_claim_changes).
    one.state := 'retire';
    one.claim.retired_reason := reason;
    one.claim.superseded_by := successor;
    RETURN one;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.retire_row(@schema@_internal.slot_row, text, bigint) IS
'A row marked to be retired with a reason and successor (stored by write_claim_changes).';

CREATE OR REPLACE FUNCTION @schema@_internal.copy_row(
    source @schema@_internal.slot_row, valid tstzrange, write_at timestamptz
) RETURNS @schema@_internal.slot_row
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    copy @schema@_internal.slot_row := source;
    line @schema@_internal.source_line;
BEGIN
    -- The same assertion and sources under a new id, live from write_at, pointing at the
    -- row it copies (or at the row that one copied).
    copy.claim.claim_id := pg_catalog.nextval('@schema@_internal.claims_claim_id_seq'::regclass);
    copy.claim.copied_from := coalesce((source.claim).copied_from, (source.claim).claim_id);
    copy.claim.valid := valid;
    copy.claim.system_time := pg_catalog.tstzrange(write_at, NULL);
    copy.claim.retired_reason := NULL;
    copy.claim.superseded_by := NULL;
    copy.state := 'new';
    copy.lines := '{}';
    FOREACH line IN ARRAY coalesce(source.lines, '{}') LOOP
        line.line.claim_id := (copy.claim).claim_id;
        line.write := true;
        copy.lines := copy.lines || line;
    END LOOP;
    RETURN copy;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.copy_row(@schema@_internal.slot_row, tstzrange, timestamptz) IS
'A row written again with another valid range: same assertion and source lines, a new id, '
'live from write_at (stored by write_claim_changes).';

CREATE OR REPLACE FUNCTION @schema@_internal.write_claim_changes(
    tenant text, write_at timestamptz, changes @schema@_internal.slot_row []
) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- Keys against tables that keep growing: never a whole-table plan (see check_claims).
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
SET plan_cache_mode = force_generic_plan
AS $fn$
-- The one writer of knowledge rows: one UPDATE for the rows to retire (their system time
-- ends at write_at, [write_at, write_at] if it began then; a row a concurrent writer
-- retired first is left alone), one INSERT for the new rows, one INSERT for the new source
-- lines (of every row but a dropped one). Returns how many rows it retired.
#variable_conflict use_variable
DECLARE
    retired integer := 0;
BEGIN
    -- Nothing to write (a restore whose rows a purge removed): no note either, whose
    -- slot lists would be empty.
    IF coalesce(pg_catalog.cardinality(changes), 0) = 0 THEN
        RETURN 0;
    END IF;
    -- write_at is provisional: the commit moves it to the commit instant, on the rows named.
    PERFORM @schema@_internal.note_knowledge_write(tenant, write_at, '{}', '{}', NULL,
        ARRAY(SELECT (u.claim).claim_id FROM pg_catalog.unnest(changes) AS u
               WHERE u.state IN ('retire', 'new', 'new_retired')));
    UPDATE @schema@_internal.claims AS cl
       SET system_time = CASE
               -- Recorded at this very instant (a purge replay of one transaction's writes):
               -- never believed, as the commit stamp left it.
               WHEN pg_catalog.lower(cl.system_time) = write_at
                   THEN pg_catalog.tstzrange(write_at, write_at, '[]')
               ELSE pg_catalog.tstzrange(pg_catalog.lower(cl.system_time),
                        GREATEST(write_at, pg_catalog.lower(cl.system_time) + interval '1 microsecond'))
               END,
           retired_reason = (u.claim).retired_reason,
           superseded_by = (u.claim).superseded_by
      FROM pg_catalog.unnest(changes) AS u
     WHERE cl.tenant = tenant AND cl.claim_id = (u.claim).claim_id AND u.state = 'retire'
       AND cl.claim_id = ANY (ARRAY(SELECT (r.claim).claim_id FROM pg_catalog.unnest(changes) AS r
                                     WHERE r.state = 'retire'))
       AND pg_catalog.upper_inf(cl.system_time);
    GET DIAGNOSTICS retired = ROW_COUNT;
    -- A live row given a source line expires as late as its latest source now, or never
    -- (corroborate_rows worked it out); most corroborations change nothing here.
    IF EXISTS (SELECT 1 FROM pg_catalog.unnest(changes) AS u
                WHERE u.state = 'live' AND EXISTS (SELECT 1 FROM pg_catalog.unnest(u.lines) AS l
                                                    WHERE l.write)) THEN
        UPDATE @schema@_internal.claims AS cl
           SET expires_at = (u.claim).expires_at
          FROM pg_catalog.unnest(changes) AS u
         WHERE cl.tenant = tenant AND cl.claim_id = (u.claim).claim_id AND u.state = 'live'
           AND cl.claim_id = ANY (ARRAY(SELECT (r.claim).claim_id FROM pg_catalog.unnest(changes) AS r
                                         WHERE r.state = 'live'))
           AND cl.expires_at IS DISTINCT FROM (u.claim).expires_at;
    END IF;
    INSERT INTO @schema@_internal.claims AS cl (
        claim_id, tenant, subject_id, predicate, cardinality, object_value, object_entity_id,
        text, confidence, assertion, valid, system_time, retired_reason,
        superseded_by, copied_from, expires_at)
    OVERRIDING SYSTEM VALUE
    SELECT (u.claim).claim_id, tenant, (u.claim).subject_id, (u.claim).predicate,
           (u.claim).cardinality, (u.claim).object_value, (u.claim).object_entity_id,
           (u.claim).text, (u.claim).confidence, (u.claim).assertion, (u.claim).valid,
           (u.claim).system_time, (u.claim).retired_reason,
           (u.claim).superseded_by, (u.claim).copied_from, (u.claim).expires_at
      FROM pg_catalog.unnest(changes) AS u
     WHERE u.state IN ('new', 'new_retired')
     ORDER BY (u.claim).claim_id;
    INSERT INTO @schema@_internal.claim_sources AS s (
        tenant, claim_id, episode_id, locator, quote, asserted_valid)
    SELECT tenant, (l.line).claim_id, (l.line).episode_id, (l.line).locator, (l.line).quote,
           (l.line).asserted_valid
      FROM pg_catalog.unnest(changes) AS u
     CROSS JOIN LATERAL pg_catalog.unnest(u.lines) AS l
     WHERE u.state <> 'dropped' AND l.write
    -- (a line read and given another range of its episode: the ranges together)
    ON CONFLICT ON CONSTRAINT claim_sources_pkey
    DO UPDATE SET asserted_valid = s.asserted_valid + excluded.asserted_valid;
    RETURN retired;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.write_claim_changes(
    text, timestamptz, @schema@_internal.slot_row []) IS
'The one writer of knowledge rows (write_claims, retract, restore, source changed, purge '
'replay): retire the rows marked retire, insert the new rows, insert the new source lines, '
'one statement each; returns how many rows it retired.';
