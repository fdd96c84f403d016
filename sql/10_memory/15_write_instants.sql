-- System time of working memory. A transaction's fact writes in a tenant all carry one
-- instant: the clock reading taken when it first writes a fact of that tenant, just after
-- it takes the tenant's fact-writes lock in shared mode (held until it ends; writers never
-- wait for each other on it). A reader asking about a known instant first takes the same
-- lock in exclusive mode and releases it at once (await_fact_writes): it waits for every
-- writer in progress, so a write stamped at or before that instant has committed or rolled
-- back before the reader reads, and a write not yet stamped will be stamped later. An
-- answer once given for a known instant therefore never changes.

-- Inlinable like lock_key (tests/lint_sql.py lists it), as is await_fact_writes.
CREATE OR REPLACE FUNCTION @schema@_internal.fact_writes_lock_key(tenant text)
RETURNS bigint
LANGUAGE sql
VOLATILE
SECURITY INVOKER
AS $fn$
    SELECT @schema@_internal.lock_key(pg_catalog.concat_ws(':', '@schema@:fact-writes', tenant))
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_writes_lock_key(text) IS
'The advisory lock a transaction writing facts of a tenant holds (shared) until it ends. (inlined)';

-- Inlined (no SET clause, every name qualified): facts_before_insert asks it for every row
-- before it calls fact_write_instant (a call a row cost about 1 us).
CREATE OR REPLACE FUNCTION @schema@_internal.noted_write_instant(tenant text)
RETURNS timestamptz
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    -- '<tenant> US <instant>' of this transaction's first fact write (a local setting, so
    -- it ends with the transaction and is undone with a rolled-back savepoint, as the lock).
    SELECT CASE WHEN pg_catalog.split_part(pg_catalog.current_setting('pgfacts.fact_write_instant', true),
                                           pg_catalog.chr(31), 1) OPERATOR(pg_catalog.=) tenant
                THEN pg_catalog.split_part(pg_catalog.current_setting('pgfacts.fact_write_instant', true),
                                           pg_catalog.chr(31), 2)::pg_catalog.timestamptz END
$fn$;

COMMENT ON FUNCTION @schema@_internal.noted_write_instant(text) IS
'This transaction''s fact write instant in a tenant as fact_write_instant noted it, or NULL '
'before its first fact write there. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.fact_write_instant(tenant text)
RETURNS timestamptz
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    instant timestamptz := @schema@_internal.noted_write_instant(tenant);
BEGIN
    IF instant IS NOT NULL THEN
        RETURN instant;
    END IF;
    PERFORM pg_catalog.pg_advisory_xact_lock_shared(@schema@_internal.fact_writes_lock_key(tenant));
    instant := pg_catalog.clock_timestamp();
    PERFORM pg_catalog.set_config('pgfacts.fact_write_instant',
                                  tenant || pg_catalog.chr(31) || instant::text, true);
    RETURN instant;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_write_instant(text) IS
'The system time of this transaction''s fact writes in a tenant: taken at its first write, '
'under the tenant''s fact-writes lock (shared, held to the end).';

-- Exclusive: every fact-writing transaction of the tenant holds the lock shared.
CREATE OR REPLACE FUNCTION @schema@_internal.await_fact_writes(tenant text)
RETURNS void
LANGUAGE sql
VOLATILE
SECURITY INVOKER
AS $fn$
    SELECT @schema@_internal.await_lock_holders(
        @schema@_internal.fact_writes_lock_key(tenant), true)
$fn$;

COMMENT ON FUNCTION @schema@_internal.await_fact_writes(text) IS
'Wait until every transaction writing facts of the tenant has ended; read_facts calls it '
'before it answers for a known instant. (inlined)';
