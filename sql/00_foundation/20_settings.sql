-- Per-tenant settings. Each layer registers its own (register_setting, in
-- sql/<layer>/05_settings.sql: name, type, bounds, default); an operator sets a tenant's
-- value (set_setting), and setting() reads it, or the registered default.

-- Replaced by setting(tenant, name): the default is the registered one, never the caller's.
DROP FUNCTION IF EXISTS @schema@_internal.setting(text, text, jsonb);

CREATE OR REPLACE FUNCTION @schema@_internal.check_setting_value(
    definition @schema@_internal.setting_definitions, value jsonb
) RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    number numeric;
BEGIN
    IF value IS NOT NULL AND pg_catalog.jsonb_typeof(value) = 'number' THEN
        number := (value)::numeric;
    END IF;
    IF definition.value_type = 'number' THEN
        IF number IS NULL OR number < definition.minimum OR number > definition.maximum THEN
            RAISE EXCEPTION '% must be a number from % to %',
                definition.name, definition.minimum, definition.maximum USING ERRCODE = '22023';
        END IF;
    ELSIF number IS NULL OR number <> pg_catalog.trunc(number) OR number < definition.minimum
          OR number > definition.maximum THEN
        -- Upper bounds keep every use of a setting inside its integer type.
        IF definition.minimum = 1 THEN
            RAISE EXCEPTION 'setting % must be a positive integer of at most %',
                definition.name, definition.maximum USING ERRCODE = '22023';
        END IF;
        RAISE EXCEPTION 'setting % must be an integer from % to %',
            definition.name, definition.minimum, definition.maximum USING ERRCODE = '22023';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_setting_value(
    @schema@_internal.setting_definitions, jsonb
) IS
'Refuse (22023) a value outside a setting''s registered type and bounds.';

CREATE OR REPLACE FUNCTION @schema@_internal.register_setting(
    layer text, name text, value_type text, minimum numeric, maximum numeric,
    default_value jsonb, description text
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    definition @schema@_internal.setting_definitions;
BEGIN
    IF value_type IS NULL OR value_type NOT IN ('integer', 'number') THEN
        RAISE EXCEPTION 'register_setting: % has type %, not integer or number',
            name, value_type USING ERRCODE = '22023';
    END IF;
    IF minimum IS NULL OR maximum IS NULL OR minimum > maximum THEN
        RAISE EXCEPTION 'register_setting: % has no range from % to %', name, minimum, maximum
            USING ERRCODE = '22023';
    END IF;
    definition := ROW(name, layer,
        (SELECT coalesce(pg_catalog.max(o.position), 0) + 1
           FROM @schema@_internal.setting_definitions AS o),
        value_type, minimum, maximum, default_value, description);
    PERFORM @schema@_internal.check_setting_value(definition, default_value);
    INSERT INTO @schema@_internal.setting_definitions SELECT definition.*;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.register_setting(
    text, text, text, numeric, numeric, jsonb, text
) IS
'Definitions only: declare a tenant setting of a layer: its type (integer or number), its '
'bounds and its default (which must lie within them).';

CREATE OR REPLACE FUNCTION @schema@_internal.setting(tenant text, name text)
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
    SELECT coalesce(s.value, d.default_value) INTO found_value
      FROM @schema@_internal.setting_definitions AS d
      LEFT JOIN @schema@_internal.settings AS s ON s.tenant = setting.tenant AND s.name = d.name
     WHERE d.name = setting.name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no setting % is registered', @schema@_internal.shown(name)
            USING ERRCODE = '42704', HINT = 'a layer registers it in its 05_settings.sql';
    END IF;
    RETURN found_value;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.setting(text, text) IS
'A setting for a tenant: its own value, else the registered default.';

CREATE OR REPLACE FUNCTION @schema@.set_setting(name text, value jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tenant text := @schema@_internal.context_tenant();
    definition @schema@_internal.setting_definitions;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'set_setting');
    SELECT d.* INTO definition FROM @schema@_internal.setting_definitions AS d
     WHERE d.name = set_setting.name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown setting %', @schema@_internal.shown(name)
            USING ERRCODE = '22023', HINT = 'one of: ' || (
                SELECT pg_catalog.string_agg(d.name, ', ' ORDER BY d.position)
                  FROM @schema@_internal.setting_definitions AS d);
    END IF;
    PERFORM @schema@_internal.check_setting_value(definition, value);
    INSERT INTO @schema@_internal.settings AS s (tenant, name, value)
    VALUES (tenant, set_setting.name, set_setting.value)
    ON CONFLICT ON CONSTRAINT settings_pkey
    DO UPDATE SET value = excluded.value, updated_at = pg_catalog.clock_timestamp();
    RETURN pg_catalog.jsonb_build_object('tenant', tenant, 'name', name, 'value', value);
END
$fn$;

COMMENT ON FUNCTION @schema@.set_setting(text, jsonb) IS
'Operator only: set a tenant setting, checked against the type and bounds its layer '
'registered; @schema@_internal.setting_definitions lists every setting with its bounds, '
'default and meaning.';

-- The definitions are applied together in one transaction: the layers register their
-- settings again (sql/<layer>/05_settings.sql), so a setting removed from the definitions
-- leaves the registry too. Tenants' values of it stay in settings, unread.
DELETE FROM @schema@_internal.setting_definitions;
