-- Predicates and entities: the vocabulary claims are written in.

CREATE OR REPLACE FUNCTION @schema@.define_predicate(
    name text, cardinality text, description text DEFAULT ''
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    existing text;
BEGIN
    PERFORM @schema@_internal.require_kind(
        @schema@_internal.writer_kinds(), 'define_predicate');
    IF name IS NULL OR name !~ '^[a-z][a-z0-9_]{0,99}$' THEN
        RAISE EXCEPTION 'predicate name % must be lower_snake_case, 1 to 100 characters',
            @schema@_internal.shown(name) USING ERRCODE = '22023';
    END IF;
    IF cardinality IS NULL OR cardinality NOT IN ('one', 'many', 'event') THEN
        RAISE EXCEPTION 'cardinality must be one, many or event, not %',
            @schema@_internal.shown(cardinality) USING ERRCODE = '22023';
    END IF;
    -- The description is part of every claim's search document (claim_document).
    PERFORM @schema@_internal.check_text(description, 'description', 2000);
    SELECT p.cardinality INTO existing FROM @schema@_internal.predicates AS p
     WHERE p.tenant = tenant AND p.name = define_predicate.name;
    IF existing IS NOT NULL AND existing <> cardinality THEN
        RAISE EXCEPTION 'predicate % is already defined as %', @schema@_internal.shown(name), existing
            USING ERRCODE = 'PF003', HINT = 'a predicate''s cardinality never changes; define a new one';
    END IF;
    INSERT INTO @schema@_internal.predicates AS p (tenant, name, cardinality, description)
    VALUES (tenant, name, cardinality, coalesce(description, ''))
    ON CONFLICT ON CONSTRAINT predicates_pkey
    DO UPDATE SET description = excluded.description;
    RETURN pg_catalog.jsonb_build_object('name', name, 'cardinality', cardinality);
END
$fn$;

COMMENT ON FUNCTION @schema@.define_predicate(text, text, text) IS
'Define (or re-describe) a predicate: one (a single value at a time), many (values coexist) '
'or event (a point in time). A predicate''s cardinality never changes. The description has '
'at most 2000 characters.';

CREATE OR REPLACE FUNCTION @schema@.ensure_entity(
    kind text, name text, aliases text [] DEFAULT '{}', external_ref text DEFAULT NULL
) RETURNS bigint
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    found_id bigint;
BEGIN
    PERFORM @schema@_internal.require_kind(
        @schema@_internal.writer_kinds(), 'ensure_entity');
    IF kind IS NULL OR pg_catalog.length(kind) NOT BETWEEN 1 AND 100
       OR name IS NULL OR pg_catalog.length(name) NOT BETWEEN 1 AND 500 THEN
        RAISE EXCEPTION 'an entity needs a kind (1 to 100 characters) and a name (1 to 500)'
            USING ERRCODE = '22023';
    END IF;
    -- Names and aliases are part of the search document of every claim about the entity.
    IF pg_catalog.cardinality(aliases) > 64
       OR EXISTS (SELECT 1 FROM pg_catalog.unnest(aliases) AS a
                   WHERE a IS NULL OR a = '' OR pg_catalog.length(a) > 200) THEN
        RAISE EXCEPTION 'aliases must be at most 64 aliases, each a non-empty string of at most '
            '200 characters' USING ERRCODE = '22023', HINT = 'see "Limits" in docs/errors.md';
    END IF;
    -- In the unique index (external_ref, tenant), whose rows have at most 2704 bytes.
    PERFORM @schema@_internal.check_bytes(external_ref, 'external_ref', 1024);
    IF external_ref IS NOT NULL THEN
        -- The same external reference never makes a second entity.
        INSERT INTO @schema@_internal.entities AS e (tenant, kind, name, aliases, external_ref)
        VALUES (tenant, kind, name, coalesce(aliases, '{}'), external_ref)
        ON CONFLICT ON CONSTRAINT entities_external_ref_key DO NOTHING
        RETURNING e.entity_id INTO found_id;
        IF found_id IS NULL THEN
            SELECT e.entity_id INTO found_id FROM @schema@_internal.entities AS e
             WHERE e.tenant = tenant AND e.external_ref = ensure_entity.external_ref;
            PERFORM @schema@_internal.add_entity_aliases(tenant, found_id, aliases);
        END IF;
        RETURN found_id;
    END IF;
    SELECT e.entity_id INTO found_id FROM @schema@_internal.entities AS e
     WHERE e.tenant = tenant AND e.kind = ensure_entity.kind
       AND pg_catalog.lower(e.name) = pg_catalog.lower(ensure_entity.name)
       AND e.external_ref IS NULL
     ORDER BY e.entity_id LIMIT 1;
    IF found_id IS NULL THEN
        INSERT INTO @schema@_internal.entities AS e (tenant, kind, name, aliases)
        VALUES (tenant, kind, name, coalesce(aliases, '{}'))
        RETURNING e.entity_id INTO found_id;
    ELSE
        PERFORM @schema@_internal.add_entity_aliases(tenant, found_id, aliases);
    END IF;
    RETURN found_id;
END
$fn$;

COMMENT ON FUNCTION @schema@.ensure_entity(text, text, text [], text) IS
'The id of the entity with this external_ref (created if new; the same ref never makes a '
'second entity), or without a ref the one of this kind and name (case-insensitive); aliases '
'an existing entity lacks are added to it. Kind 1 to 100 characters, name 1 to 500, at most '
'64 aliases of 1 to 200 (in all), external_ref at most 1024 bytes.';

CREATE OR REPLACE FUNCTION @schema@_internal.add_entity_aliases(
    tenant text, entity bigint, aliases text []
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    merged text [];
BEGIN
    -- The entity's aliases and after them the new ones, each once; unchanged when none is new.
    SELECT e.aliases || ARRAY(SELECT DISTINCT ON (a.alias) a.alias
                                FROM pg_catalog.unnest(aliases) WITH ORDINALITY AS a (alias, n)
                               WHERE NOT a.alias = ANY (e.aliases)
                               ORDER BY a.alias, a.n)
      INTO merged
      FROM @schema@_internal.entities AS e
     WHERE e.tenant = tenant AND e.entity_id = entity
       FOR UPDATE;
    IF pg_catalog.cardinality(merged) > 64 THEN
        RAISE EXCEPTION 'an entity has at most 64 aliases; this would make %',
            pg_catalog.cardinality(merged)
            USING ERRCODE = '22023', HINT = 'see "Limits" in docs/errors.md';
    END IF;
    UPDATE @schema@_internal.entities AS e SET aliases = merged
     WHERE e.tenant = tenant AND e.entity_id = entity AND e.aliases IS DISTINCT FROM merged;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.add_entity_aliases(text, bigint, text []) IS
'Add to an entity the aliases it lacks (at most 64 in all: 22023 beyond).';
