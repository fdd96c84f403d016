-- Layer: 60_governance
--
-- Redaction refusal (issue 25): the placeholders an upstream redactor leaves in a text
-- ([EMAIL], [PHONE], ...) are refused as stored content. A tenant without a row here is
-- refused the six defaults (redaction_defaults()); a row names the tenant's own list (an
-- empty list refuses none). The pattern is the list as one regular expression, computed
-- when the list is set, so a write reads one row by its key and runs one regex per text.

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.redaction_placeholders (
    tenant text NOT NULL,
    placeholders text [] NOT NULL,
    pattern text,
    set_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    CONSTRAINT redaction_placeholders_pkey PRIMARY KEY (tenant),
    CONSTRAINT redaction_placeholders_count CHECK (pg_catalog.cardinality(placeholders) <= 64),
    CONSTRAINT redaction_placeholders_pattern CHECK (
        (pattern IS NULL) = (pg_catalog.cardinality(placeholders) = 0)
    )
);
COMMENT ON TABLE @schema@_internal.redaction_placeholders IS
'A tenant''s redaction placeholders, refused as stored content (no row: the six defaults); '
'pattern is the list as one regular expression (NULL: none refused)';

ALTER TABLE @schema@_internal.redaction_placeholders ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.redaction_placeholders FORCE ROW LEVEL SECURITY;
