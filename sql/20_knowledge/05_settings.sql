-- Knowledge's tenant settings (foundation's register_setting; set_setting sets them).

SELECT @schema@_internal.register_setting(
    '20_knowledge', 'confidence_floor', 'number', 0, 1, '0.55',
    'Claims weaker than this are counted, not stored, at ingest; search skips them.');

CREATE OR REPLACE FUNCTION @schema@_internal.confidence_floor(tenant text)
RETURNS real
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The one reading of the floor: ingest drops weaker claims, search skips them.
    RETURN (@schema@_internal.setting(tenant, 'confidence_floor'))::real;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.confidence_floor(text) IS
'The tenant''s confidence_floor setting (default 0.55): weaker claims are not stored or found.';
