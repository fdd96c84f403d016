-- The governance layer's tenant settings (foundation's register_setting; set_setting sets them).

SELECT @schema@_internal.register_setting(
    '60_governance', 'audit_enabled', 'integer', 0, 1, '1',
    'Whether changes to memory append audit rows (1) or not (0); turning it off is itself audited.');
SELECT @schema@_internal.register_setting(
    '60_governance', 'audit_retention_days', 'integer', 1, 36500, '365',
    'How long audit rows are kept at least: purge_audit_log removes only rows older than this.');

CREATE OR REPLACE FUNCTION @schema@_internal.audit_enabled(tenant text)
RETURNS boolean
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- '<tenant> US <0|1>': the switch as this transaction last read it (every capture
    -- trigger asks; a setting changed in the transaction clears it, audit_setting_changed).
    cached text := pg_catalog.current_setting('pgfacts.audit_switch', true);
    switched_on boolean;
BEGIN
    IF pg_catalog.split_part(cached, pg_catalog.chr(31), 1) = tenant THEN
        RETURN pg_catalog.split_part(cached, pg_catalog.chr(31), 2) = '1';
    END IF;
    switched_on := (@schema@_internal.setting(tenant, 'audit_enabled'))::integer = 1;
    PERFORM pg_catalog.set_config('pgfacts.audit_switch', tenant || pg_catalog.chr(31)
        || CASE WHEN switched_on THEN '1' ELSE '0' END, true);
    RETURN switched_on;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_enabled(text) IS
'Whether the tenant''s changes are audited (its audit_enabled setting), read once a '
'transaction.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_retention_cutoff(tenant text)
RETURNS timestamptz
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN pg_catalog.now() - pg_catalog.make_interval(
        days => (@schema@_internal.setting(tenant, 'audit_retention_days'))::integer);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_retention_cutoff(text) IS
'The newest instant an audit row of the tenant may have to be purged: now minus its '
'audit_retention_days.';

-- Human review (50_review_*.sql): which claims are held as candidates. Both 0 by default:
-- nothing is held until a tenant asks for review.
SELECT @schema@_internal.register_setting(
    '60_governance', 'review_below_trust', 'integer', 0, 4, '0',
    'Claims from sources whose trust ranks below this (third_party 1, agent 2, owner 3, '
    'operator 4) are held for review; 0 holds none.');
SELECT @schema@_internal.register_setting(
    '60_governance', 'review_below_confidence', 'number', 0, 1, '0',
    'Claims less confident than this (and not below confidence_floor) are held for review; '
    '0 holds none.');
-- Retention (50_retention.sql): 0 keeps everything; any positive number of seconds is a
-- policy, however short (a day is 86400).
SELECT @schema@_internal.register_setting(
    '60_governance', 'episode_retention_seconds', 'integer', 0, 2147483647, '0',
    'How long episodes are kept after they were recorded (0: for ever); older ones are purged '
    'through the purge path (apply_retention, run by the worker''s maintenance).');
SELECT @schema@_internal.register_setting(
    '60_governance', 'memory_retention_seconds', 'integer', 0, 2147483647, '0',
    'How long recorded memories (and their extraction events) are kept after they were '
    'recorded (0: for ever); apply_retention deletes older ones.');
