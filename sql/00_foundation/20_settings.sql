-- Per-tenant settings with built-in defaults.

CREATE OR REPLACE FUNCTION @schema@_internal.setting(tenant text, name text, fallback jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- PL/pgSQL rather than SQL: it caches its plan, where a SQL function with a SET clause is
-- planned again on every call (the same holds for the other per-call helpers).
DECLARE
    found_value jsonb;
BEGIN
    -- Settings are per tenant: no row of one tenant (nor a '*' row, which the tenant name
    -- pattern and a CHECK now refuse) changes another tenant's setting.
    SELECT s.value INTO found_value FROM @schema@_internal.settings AS s
     WHERE s.tenant = setting.tenant AND s.name = setting.name;
    RETURN coalesce(found_value, fallback);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.setting(text, text, jsonb) IS
'A setting for a tenant: its own value, else fallback (the built-in default).';

CREATE OR REPLACE FUNCTION @schema@_internal.confidence_floor(tenant text)
RETURNS real
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The one default of the floor: ingest drops weaker claims, search skips them.
    RETURN (@schema@_internal.setting(tenant, 'confidence_floor', '0.55'))::real;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.confidence_floor(text) IS
'The tenant''s confidence_floor setting (default 0.55): weaker claims are not stored or found.';

CREATE OR REPLACE FUNCTION @schema@.set_setting(name text, value jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    known constant text[] := ARRAY['value_max_bytes', 'tombstone_ttl_seconds', 'confidence_floor'];
    tenant text := @schema@_internal.context_tenant();
    upper_bound numeric;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'set_setting');
    IF name IS NULL OR NOT name = ANY (known) THEN
        RAISE EXCEPTION 'unknown setting %', @schema@_internal.shown(name)
            USING ERRCODE = '22023', HINT = 'one of: ' || pg_catalog.array_to_string(known, ', ');
    END IF;
    IF name = 'confidence_floor' THEN
        IF value IS NULL OR pg_catalog.jsonb_typeof(value) <> 'number'
           OR (value)::numeric < 0 OR (value)::numeric > 1 THEN
            RAISE EXCEPTION 'confidence_floor must be a number from 0 to 1' USING ERRCODE = '22023';
        END IF;
        upper_bound := 1;
    END IF;
    -- Upper bounds keep every use of a setting inside its integer type.
    upper_bound := coalesce(upper_bound,
        CASE name WHEN 'value_max_bytes' THEN 67108864 ELSE 315360000 END);
    IF name <> 'confidence_floor' AND (
       value IS NULL OR pg_catalog.jsonb_typeof(value) <> 'number' OR (value)::numeric <= 0
       OR (value)::numeric <> pg_catalog.trunc((value)::numeric)
       OR (value)::numeric > upper_bound) THEN
        RAISE EXCEPTION 'setting % must be a positive integer of at most %', name, upper_bound
            USING ERRCODE = '22023';
    END IF;
    INSERT INTO @schema@_internal.settings AS s (tenant, name, value)
    VALUES (tenant, set_setting.name, set_setting.value)
    ON CONFLICT ON CONSTRAINT settings_pkey
    DO UPDATE SET value = excluded.value, updated_at = pg_catalog.clock_timestamp();
    RETURN pg_catalog.jsonb_build_object('tenant', tenant, 'name', name, 'value', value);
END
$fn$;

COMMENT ON FUNCTION @schema@.set_setting(text, jsonb) IS
'Operator only: set a tenant setting. value_max_bytes caps a fact value''s JSON text '
'(default 1048576); tombstone_ttl_seconds is how long unreconciled tombstones are kept '
'(default 21600); confidence_floor (0..1, default 0.55) drops weaker claims at ingest.';
