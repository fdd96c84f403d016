-- Redaction refusal (issue 25): a redaction placeholder ([EMAIL], [PHONE], [SSN], [CARD],
-- [IP], [ADDRESS], or a tenant's own list) is the mark an upstream redactor leaves where it
-- removed something. Stored, it would become memory that later reads present as fact, so
-- every write of content is refused with PF010, naming the placeholder, and nothing of the
-- call is written. The layer hooks into the earlier layers' tables with triggers of its own
-- (like the audit), so every write path is covered, none of them names this layer:
--   facts: value (its string leaves)          store_fact, store_facts, bulk_store_facts
--   episodes: the claims an episode stored    ingest, override, complete_extraction
--     (object's string leaves, text, quote)
--   entities: name, aliases                   ensure_entity (and ingest's vocabulary)
--   memories: lines (string leaves)           record_memory
--   graph nodes: name, aliases; edges: predicate  the graph's writes
-- A check is one regular expression per stored text (the tenant's list as one pattern, read
-- by its key once per statement); a JSON value is tested as its text first and its string
-- leaves only when that matches (a placeholder has no character JSON escapes).

CREATE OR REPLACE FUNCTION @schema@_internal.redaction_defaults()
RETURNS text []
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT ARRAY['[EMAIL]', '[PHONE]', '[SSN]', '[CARD]', '[IP]', '[ADDRESS]']
$fn$;

COMMENT ON FUNCTION @schema@_internal.redaction_defaults() IS
'The redaction placeholders refused for a tenant that configured none. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.redaction_pattern_of(placeholders text [])
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF placeholders IS NULL OR pg_catalog.cardinality(placeholders) = 0 THEN
        RETURN NULL;
    END IF;
    -- One group of literal alternatives: every character but letters, digits and spaces
    -- escaped (a backslash before any other character is that character). Longest first,
    -- so the one named is the longest that matches at the first place any does.
    RETURN '(' || (SELECT pg_catalog.string_agg(
                       pg_catalog.regexp_replace(p, '([^[:alnum:][:space:]])', '\\\1', 'g'), '|'
                       ORDER BY pg_catalog.length(p) DESC, p)
                     FROM pg_catalog.unnest(placeholders) AS p) || ')';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.redaction_pattern_of(text []) IS
'A list of redaction placeholders as one regular expression of literal alternatives '
'(NULL for an empty list).';

-- The defaults' pattern: a constant the planner folds.
-- Written with the pattern as a literal, worked out here once: computed on each call it cost
-- about 50 µs of every store_fact, twice (each redaction trigger reads it).
DO $define$
BEGIN
    EXECUTE pg_catalog.format($body$
CREATE OR REPLACE FUNCTION @schema@_internal.redaction_default_pattern()
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS %L
$body$, 'SELECT ' || pg_catalog.quote_literal(
            @schema@_internal.redaction_pattern_of(@schema@_internal.redaction_defaults()))
            || '::text');
END
$define$;

COMMENT ON FUNCTION @schema@_internal.redaction_default_pattern() IS
'The six default redaction placeholders as one regular expression (inlined).';

-- PL/pgSQL, for its cached plan: as SQL (a sub-select, so never inlined) it was planned
-- again on every call, about 65 µs of each store_fact, twice. The tenant's row by its key,
-- '' for an empty list, the defaults when it has none.
CREATE OR REPLACE FUNCTION @schema@_internal.redaction_pattern(for_tenant text)
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    own text;
BEGIN
    SELECT coalesce(r.pattern, '') INTO own FROM @schema@_internal.redaction_placeholders AS r
     WHERE r.tenant = for_tenant;
    IF NOT FOUND THEN
        RETURN @schema@_internal.redaction_default_pattern();
    END IF;
    RETURN NULLIF(own, '');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.redaction_pattern(text) IS
'The tenant''s redaction placeholders as one regular expression (its own list, else the '
'defaults; NULL when it refuses none).';

-- Inlinable (the triggers evaluate it per row): the placeholder a text holds, or NULL.
CREATE OR REPLACE FUNCTION @schema@_internal.redaction_in_text(pattern text, content text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.substring(content, pattern)
$fn$;

COMMENT ON FUNCTION @schema@_internal.redaction_in_text(text, text) IS
'The first redaction placeholder of pattern that a text holds, or NULL (inlined).';

-- A JSON value's text is tested first (one regex); only a match looks at its string leaves,
-- so a placeholder in an object key is not content. PL/pgSQL for its cached plan, as
-- redaction_pattern.
-- Inlined (no SET clause, every name qualified): the fact triggers ask it of every row
-- before calling redaction_in_json (a call a row cost about 1 us).
CREATE OR REPLACE FUNCTION @schema@_internal.may_hold_redaction(pattern text, content jsonb)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- A string is searched itself; any other value only if its JSON text matches (a
    -- placeholder in a key or across leaves matches too, so redaction_in_json looks further).
    SELECT pg_catalog.jsonb_typeof(content) OPERATOR(pg_catalog.=) 'string'
           OR pg_catalog.textregexeq(content::pg_catalog.text, pattern)
$fn$;

COMMENT ON FUNCTION @schema@_internal.may_hold_redaction(text, jsonb) IS
'Whether a JSON value may hold a redaction placeholder of pattern: a string, or a value '
'whose JSON text matches (redaction_in_json''s first test). (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.redaction_in_json(pattern text, content jsonb)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pattern IS NULL OR content IS NULL
       OR NOT @schema@_internal.may_hold_redaction(pattern, content) THEN
        RETURN NULL;
    ELSIF pg_catalog.jsonb_typeof(content) = 'string' THEN
        RETURN pg_catalog.substring(content #>> '{}', pattern);
    END IF;
    RETURN (SELECT pg_catalog.substring(l #>> '{}', pattern)
              FROM pg_catalog.jsonb_path_query(content, 'strict $.**') AS l
             WHERE pg_catalog.jsonb_typeof(l) = 'string'
               AND pg_catalog.textregexeq(l #>> '{}', pattern)
             LIMIT 1);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.redaction_in_json(text, jsonb) IS
'The first redaction placeholder of pattern that a string leaf of a JSON value holds, or '
'NULL.';

CREATE OR REPLACE FUNCTION @schema@_internal.raise_redacted(
    what text, placeholder text, field text
) RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RAISE EXCEPTION '% holds the redaction placeholder %', field, @schema@_internal.shown(placeholder)
        USING ERRCODE = 'PF010',
              DETAIL = what,
              HINT = pg_catalog.format(
                  '%s marks text a redactor removed; store the content without it (or leave '
                  'it out): a placeholder stored would read as fact. redaction_placeholders() '
                  'lists this tenant''s', @schema@_internal.shown(placeholder));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.raise_redacted(text, text, text) IS
'Raise PF010: a field of a write (what names it) holds a redaction placeholder.';

CREATE OR REPLACE FUNCTION @schema@_internal.refuse_redacted_facts_inserted()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- Read once a statement into a variable: inlined into the query below, the planner
    -- flattened it and read the tenant's list again for every row.
    pattern text := @schema@_internal.redaction_pattern(
        pg_catalog.current_setting('pgfacts.tenant', true));
    bad record;
BEGIN
    IF pattern IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT n.scope_key, @schema@_internal.redaction_in_json(pattern, n.value) AS found
      INTO bad
      FROM inserted AS n
     WHERE @schema@_internal.may_hold_redaction(pattern, n.value)
       AND @schema@_internal.redaction_in_json(pattern, n.value) IS NOT NULL
     LIMIT 1;
    IF FOUND THEN
        PERFORM @schema@_internal.raise_redacted(
            'fact ' || @schema@_internal.shown(bad.scope_key), bad.found, 'value');
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.refuse_redacted_facts_inserted() IS
'Statement trigger on facts: PF010 when an inserted value holds a redaction placeholder in a '
'string leaf.';

CREATE OR REPLACE FUNCTION @schema@_internal.refuse_redacted_facts_updated()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    pattern text := @schema@_internal.redaction_pattern(
        pg_catalog.current_setting('pgfacts.tenant', true));  -- once, as on insert
    bad record;
BEGIN
    IF pattern IS NULL THEN
        RETURN NULL;
    END IF;
    -- New content only: a changed value or a revival; never a tombstone or a crawl mark (a
    -- fact stored before the tenant's list changed can still be deleted and crawled). The
    -- values are tested first, the old rows joined only for a value that matches.
    SELECT n.scope_key, @schema@_internal.redaction_in_json(pattern, n.value) AS found
      INTO bad
      FROM updated_new AS n
      JOIN updated_old AS o ON o.tenant = n.tenant AND o.fact_id = n.fact_id
     WHERE n.deleted_at IS NULL
       AND @schema@_internal.may_hold_redaction(pattern, n.value)
       AND @schema@_internal.redaction_in_json(pattern, n.value) IS NOT NULL
       AND (o.value IS DISTINCT FROM n.value OR o.deleted_at IS NOT NULL)
     LIMIT 1;
    IF FOUND THEN
        PERFORM @schema@_internal.raise_redacted(
            'fact ' || @schema@_internal.shown(bad.scope_key), bad.found, 'value');
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.refuse_redacted_facts_updated() IS
'Statement trigger on facts: PF010 when a changed or revived value holds a redaction '
'placeholder in a string leaf.';

CREATE OR REPLACE FUNCTION @schema@_internal.refuse_redacted_episode()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    pattern text;
    bad record;
BEGIN
    IF NEW.written IS NULL OR pg_catalog.cardinality(NEW.written) = 0 THEN
        RETURN NULL;
    END IF;
    pattern := @schema@_internal.redaction_pattern(NEW.tenant);
    IF pattern IS NULL THEN
        RETURN NULL;
    END IF;
    -- The claims the episode stored (corroborating and outranked ones too), as written.
    SELECT w.position, f.field, f.found INTO bad
      FROM pg_catalog.unnest(NEW.written) AS w
     CROSS JOIN LATERAL (VALUES
         (1, 'object', @schema@_internal.redaction_in_json(pattern, w.object)),
         (2, 'text', @schema@_internal.redaction_in_text(pattern, w.text)),
         (3, 'quote', @schema@_internal.redaction_in_text(pattern, w.quote))) AS f (o, field, found)
     WHERE f.found IS NOT NULL
     ORDER BY w.position, f.o
     LIMIT 1;
    IF FOUND THEN
        PERFORM @schema@_internal.raise_redacted(
            pg_catalog.format('claim %s: redacted (the whole episode is refused)', bad.position),
            bad.found, 'a claim''s ' || bad.field);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.refuse_redacted_episode() IS
'Row trigger on episodes: PF010 when a claim the episode stored holds a redaction placeholder '
'in its object (a string leaf), text or quote.';

CREATE OR REPLACE FUNCTION @schema@_internal.refuse_redacted_names()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    pattern text := @schema@_internal.redaction_pattern(NEW.tenant);
    found text;
BEGIN
    -- entities and graph_nodes: a name and aliases (one text, the aliases a line each).
    found := coalesce(@schema@_internal.redaction_in_text(pattern, NEW.name),
                      @schema@_internal.redaction_in_text(pattern,
                          pg_catalog.array_to_string(NEW.aliases, pg_catalog.chr(10))));
    IF found IS NOT NULL THEN
        PERFORM @schema@_internal.raise_redacted(TG_TABLE_NAME, found,
            CASE TG_TABLE_NAME WHEN 'entities' THEN 'an entity''s name or aliases'
                               ELSE 'a graph node''s name or aliases' END);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.refuse_redacted_names() IS
'Row trigger on entities and graph nodes: PF010 when a name or an alias holds a redaction '
'placeholder.';

CREATE OR REPLACE FUNCTION @schema@_internal.refuse_redacted_edge()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    found text := @schema@_internal.redaction_in_text(
        @schema@_internal.redaction_pattern(NEW.tenant), NEW.predicate);
BEGIN
    IF found IS NOT NULL THEN
        PERFORM @schema@_internal.raise_redacted('graph_edges', found, 'a graph edge''s predicate');
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.refuse_redacted_edge() IS
'Row trigger on graph edges: PF010 when a predicate holds a redaction placeholder.';

CREATE OR REPLACE FUNCTION @schema@_internal.refuse_redacted_memory()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    found text := @schema@_internal.redaction_in_json(
        @schema@_internal.redaction_pattern(NEW.tenant), NEW.lines);
BEGIN
    IF found IS NOT NULL THEN
        PERFORM @schema@_internal.raise_redacted('memories', found, 'a memory''s lines');
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.refuse_redacted_memory() IS
'Row trigger on memories: PF010 when a recorded line (a string leaf) holds a redaction '
'placeholder.';

CREATE OR REPLACE TRIGGER facts_redaction_inserted AFTER INSERT ON @schema@_internal.facts
REFERENCING NEW TABLE AS inserted
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.refuse_redacted_facts_inserted();

CREATE OR REPLACE TRIGGER facts_redaction_updated AFTER UPDATE ON @schema@_internal.facts
REFERENCING OLD TABLE AS updated_old NEW TABLE AS updated_new
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.refuse_redacted_facts_updated();

CREATE OR REPLACE TRIGGER episodes_redaction AFTER INSERT ON @schema@_internal.episodes
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.refuse_redacted_episode();

CREATE OR REPLACE TRIGGER entities_redaction AFTER INSERT OR UPDATE OF name, aliases
ON @schema@_internal.entities
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.refuse_redacted_names();

CREATE OR REPLACE TRIGGER graph_nodes_redaction AFTER INSERT OR UPDATE OF name, aliases
ON @schema@_internal.graph_nodes
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.refuse_redacted_names();

CREATE OR REPLACE TRIGGER graph_edges_redaction AFTER INSERT OR UPDATE OF predicate
ON @schema@_internal.graph_edges
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.refuse_redacted_edge();

CREATE OR REPLACE TRIGGER memories_redaction AFTER INSERT ON @schema@_internal.memories
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.refuse_redacted_memory();

-- A tenant's list changed: audited like a setting, even with the audit off (what is refused
-- is governance itself). NULL before or after: the defaults.
CREATE OR REPLACE FUNCTION @schema@_internal.audit_redaction_placeholders_changed()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        coalesce(NEW.tenant, OLD.tenant), coalesce(NEW.set_at, pg_catalog.clock_timestamp()),
        'set_redaction_placeholders', 'redaction_placeholders',
        pg_catalog.jsonb_build_object('placeholders', CASE WHEN TG_OP <> 'INSERT'
                                                           THEN pg_catalog.to_jsonb(OLD.placeholders) END),
        pg_catalog.jsonb_build_object('placeholders', CASE WHEN TG_OP <> 'DELETE'
                                                           THEN pg_catalog.to_jsonb(NEW.placeholders) END)
    )::@schema@_internal.audit_entry], true);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_redaction_placeholders_changed() IS
'Row trigger: a set_redaction_placeholders audit row per change of a tenant''s list, before '
'and after (null: the defaults); audited even with the audit off.';

CREATE OR REPLACE TRIGGER redaction_placeholders_audit
AFTER INSERT OR UPDATE OR DELETE ON @schema@_internal.redaction_placeholders
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_redaction_placeholders_changed();

-- The operator's list.
CREATE OR REPLACE FUNCTION @schema@.redaction_placeholders()
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ctx_tenant text := @schema@_internal.context_tenant();
    found record;
BEGIN
    PERFORM @schema@_internal.context_kind();
    SELECT r.placeholders, r.set_at INTO found
      FROM @schema@_internal.redaction_placeholders AS r
     WHERE r.tenant = ctx_tenant;
    RETURN pg_catalog.jsonb_build_object(
        'tenant', ctx_tenant,
        'placeholders', pg_catalog.to_jsonb(coalesce(found.placeholders,
                                                    @schema@_internal.redaction_defaults())),
        'configured', found.placeholders IS NOT NULL,
        'set_at', found.set_at);
END
$fn$;

COMMENT ON FUNCTION @schema@.redaction_placeholders() IS
'The redaction placeholders refused as stored content for the caller''s tenant: {tenant, '
'placeholders, configured (false: the six defaults), set_at}.';

CREATE OR REPLACE FUNCTION @schema@.set_redaction_placeholders(placeholders text [])
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ctx_tenant text := @schema@_internal.context_tenant();
    bad text;
    list text [];
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['operator'], 'set_redaction_placeholders');
    IF placeholders IS NULL THEN
        -- Back to the defaults.
        DELETE FROM @schema@_internal.redaction_placeholders AS r
         WHERE r.tenant = ctx_tenant;
        RETURN @schema@.redaction_placeholders();
    END IF;
    IF pg_catalog.cardinality(placeholders) > 64 THEN
        RAISE EXCEPTION 'at most 64 redaction placeholders, not %', pg_catalog.cardinality(placeholders)
            USING ERRCODE = '22023';
    END IF;
    SELECT p INTO bad FROM pg_catalog.unnest(placeholders) AS p
     WHERE p IS NULL OR pg_catalog.length(p) NOT BETWEEN 2 AND 64
        OR p ~ '[[:cntrl:]"\\]' OR pg_catalog.btrim(p) <> p
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'bad redaction placeholder %', coalesce(@schema@_internal.shown(bad), 'NULL')
            USING ERRCODE = '22023',
                  HINT = '2 to 64 characters, no control characters, quotes, backslashes or '
                         'leading and trailing spaces, such as [EMAIL]';
    END IF;
    list := ARRAY(SELECT DISTINCT p FROM pg_catalog.unnest(placeholders) AS p ORDER BY p);
    INSERT INTO @schema@_internal.redaction_placeholders AS r (tenant, placeholders, pattern)
    VALUES (ctx_tenant, list, @schema@_internal.redaction_pattern_of(list))
    ON CONFLICT ON CONSTRAINT redaction_placeholders_pkey
    DO UPDATE SET placeholders = excluded.placeholders, pattern = excluded.pattern,
                  set_at = pg_catalog.clock_timestamp();
    RETURN @schema@.redaction_placeholders();
END
$fn$;

COMMENT ON FUNCTION @schema@.set_redaction_placeholders(text []) IS
'Operator only: the redaction placeholders refused as stored content for the caller''s tenant '
'(at most 64, each 2 to 64 characters without control characters, quotes or backslashes; '
'matched case-sensitively); an empty list refuses none, NULL returns to the six defaults. '
'Applies to later writes. Returns redaction_placeholders().';
