-- Layer: 00_foundation
--
-- The settings each layer registers from its own folder (register_setting, in
-- sql/<layer>/05_settings.sql): a setting's name, type, bounds and default live here, once,
-- so set_setting checks a value and setting() falls back to the default without foundation
-- knowing the layers' settings. It describes the install, not a tenant, so it has no tenant
-- column (nor row level security); the definitions refill it whenever they are applied.

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.setting_definitions (
    name text NOT NULL,
    -- The layer folder that registered it (sql/<layer>/).
    layer text NOT NULL,
    position integer NOT NULL,
    -- 'integer' (a whole number) or 'number', from minimum to maximum.
    value_type text NOT NULL,
    minimum numeric NOT NULL,
    maximum numeric NOT NULL,
    default_value jsonb NOT NULL,
    description text NOT NULL,
    CONSTRAINT setting_definitions_pkey PRIMARY KEY (name),
    CONSTRAINT setting_definitions_position_key UNIQUE (position),
    CONSTRAINT setting_definitions_value_type_check CHECK (value_type IN ('integer', 'number')),
    CONSTRAINT setting_definitions_bounds_check CHECK (minimum <= maximum)
);

COMMENT ON TABLE @schema@_internal.setting_definitions IS
'The tenant settings of this install, one row per setting, written by register_setting() from '
'each layer''s definitions; read by set_setting (the bounds) and setting() (the default).';
