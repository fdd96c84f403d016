-- The audit's own purge: the operator's, bounded by the tenant's retention, and audited.

CREATE OR REPLACE FUNCTION @schema@.purge_audit_log(before timestamptz DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    cutoff timestamptz;
    purged integer;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'purge_audit_log');
    cutoff := @schema@_internal.audit_retention_cutoff(tenant);
    IF before > cutoff THEN
        RAISE EXCEPTION 'audit rows are kept for audit_retention_days'
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('before %s is later than the retention cutoff %s',
                                             before, cutoff),
                  HINT = 'pass an instant at or before the cutoff (or lower audit_retention_days)';
    END IF;
    before := coalesce(before, cutoff);
    -- The guard (audit_log_guard) lets this delete through for this tenant only, and
    -- checks each row's age against the retention again.
    PERFORM pg_catalog.set_config('pgfacts.audit_purge', tenant, true);
    DELETE FROM @schema@_internal.audit_log AS a WHERE a.tenant = tenant AND a.at < before;
    GET DIAGNOSTICS purged = ROW_COUNT;
    PERFORM pg_catalog.set_config('pgfacts.audit_purge', '', true);
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        tenant, pg_catalog.clock_timestamp(), 'purge_audit_log', 'audit_log', NULL,
        pg_catalog.jsonb_build_object('before', before, 'purged', purged,
            'retention_days', @schema@_internal.setting(tenant, 'audit_retention_days'))
    )::@schema@_internal.audit_entry], true);
    RETURN pg_catalog.jsonb_build_object('before', before, 'purged', purged);
END
$fn$;

COMMENT ON FUNCTION @schema@.purge_audit_log(timestamptz) IS
'Operator only: delete the tenant''s audit rows older than before (default: the retention '
'cutoff, now minus audit_retention_days; a later instant is refused, 22023). Leaves a '
'purge_audit_log row. Returns {before, purged}.';
