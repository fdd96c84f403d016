-- The full-text documents of facts and claims.

-- PostgreSQL refuses a tsvector whose lexemes pass 1 MB (54000), and a document holds each
-- word twice (as written and stemmed). A fact's value may be far larger (value_max_bytes
-- goes to 64 MiB), so its document reads at most the first 100,000 characters of its text
-- (at most 800 KB of lexemes in UTF-8): a fact of any size the caps allow is stored, and
-- its text past that point is not found by search. A claim's caps (knowledge's limits)
-- keep its whole document under the limit (tests/test_knowledge_limits.py).
CREATE OR REPLACE FUNCTION @schema@_internal.searchable_text(doc text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.left(doc, 100000)
$fn$;

COMMENT ON FUNCTION @schema@_internal.searchable_text(text) IS
'The part of a text a search document reads (inlined): its first 100,000 characters, so '
'the document stays under PostgreSQL''s 1 MB tsvector limit.';

-- A large value's string values joined by spaces, cut by searchable_text; a value up to
-- 100,000 bytes is read whole by to_tsvector(jsonb) instead (fact_search_doc).
CREATE OR REPLACE FUNCTION @schema@_internal.value_searchable_text(value jsonb)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT @schema@_internal.searchable_text(pg_catalog.string_agg(s.v OPERATOR(pg_catalog.#>>) '{}', ' '))
      FROM pg_catalog.jsonb_path_query(value, 'strict $.** ? (@.type() == "string")') AS s (v)
$fn$;

COMMENT ON FUNCTION @schema@_internal.value_searchable_text(jsonb) IS
'The text a search document reads from a large JSON value: its string values '
'joined by spaces, up to searchable_text''s limit.';

-- Facts: the key (its path separators as spaces), the string values of the value, the tags.
-- Each text twice, as written ('simple': short tokens and negations survive) and stemmed
-- ('english': deploying ~ deployment), in one vector; the key weighs most. A value over
-- 100,000 bytes is read through value_searchable_text (pg_column_size is the datum's size
-- as written, which is what the write triggers see). Retrieval's facts_set_search_doc
-- trigger stores it, so a facts write pays for no trigger of its own.
-- STABLE, not IMMUTABLE: pg_column_size is stable, and the planner inlines no immutable
-- function whose body is less than immutable (called instead, it cost about 3 us a fact).
CREATE OR REPLACE FUNCTION @schema@_internal.fact_search_doc(key text, value jsonb, tags text [])
RETURNS tsvector
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT pg_catalog.setweight(pg_catalog.to_tsvector('simple'::pg_catalog.regconfig,
               pg_catalog.translate(key, '/_-.:', '     ')), 'A')
        OPERATOR(pg_catalog.||) pg_catalog.setweight(pg_catalog.to_tsvector(
               'english'::pg_catalog.regconfig, pg_catalog.translate(key, '/_-.:', '     ')), 'A')
        OPERATOR(pg_catalog.||) pg_catalog.setweight(CASE
               WHEN pg_catalog.pg_column_size(value) OPERATOR(pg_catalog.<=) 100000
               THEN pg_catalog.to_tsvector('simple'::pg_catalog.regconfig, value)
                    OPERATOR(pg_catalog.||)
                    pg_catalog.to_tsvector('english'::pg_catalog.regconfig, value)
               ELSE pg_catalog.to_tsvector('simple'::pg_catalog.regconfig,
                        @schema@_internal.value_searchable_text(value))
                    OPERATOR(pg_catalog.||)
                    pg_catalog.to_tsvector('english'::pg_catalog.regconfig,
                        @schema@_internal.value_searchable_text(value))
               END, 'B')
        OPERATOR(pg_catalog.||) pg_catalog.setweight(pg_catalog.array_to_tsvector(tags), 'C')
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_search_doc(text, jsonb, text []) IS
'The search vector of a fact (inlined): its key and value as written and stemmed, its tags; '
'of a value over 100,000 bytes, the first 100,000 characters of its strings.';

-- What a fact is embedded from and a hit shows (item_content, item_details). Inlined (no SET
-- clause, every name qualified).
CREATE OR REPLACE FUNCTION @schema@_internal.fact_content(key text, value jsonb)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- A JSON null value reads as the text null (its #>> is NULL, which means "gone").
    SELECT key OPERATOR(pg_catalog.||) ': '
           OPERATOR(pg_catalog.||) coalesce(value OPERATOR(pg_catalog.#>>) '{}', 'null')
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_content(text, jsonb) IS
'The text of a fact (inlined): key: value, a JSON null as null.';

CREATE OR REPLACE FUNCTION @schema@_internal.document_vector(doc text)
RETURNS tsvector
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- As written (short tokens and negations survive) and stemmed (deploying ~ deployment).
    SELECT pg_catalog.setweight(pg_catalog.to_tsvector('simple'::regconfig, doc), 'A')
           || pg_catalog.setweight(pg_catalog.to_tsvector('english'::regconfig, doc), 'B')
$fn$;

COMMENT ON FUNCTION @schema@_internal.document_vector(text) IS
'The search vector of a text: its words as written (simple) and stemmed (english).';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_document(
    tenant text, claim_text text, object_value jsonb, predicate text, subject_id bigint,
    object_entity_id bigint
) RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    names text;
    meaning text;
BEGIN
    -- The entities' names and aliases as they are when the claim is written.
    SELECT pg_catalog.string_agg(e.name || ' ' || pg_catalog.array_to_string(e.aliases, ' '), ' ')
      INTO names
      FROM @schema@_internal.entities AS e
     WHERE e.tenant = claim_document.tenant
       AND e.entity_id IN (claim_document.subject_id, claim_document.object_entity_id);
    -- The predicate's description says in words what it means ("employer", "home city"),
    -- so a question in those words finds claims whose text does not use them.
    SELECT NULLIF(p.description, '') INTO meaning
      FROM @schema@_internal.predicates AS p
     WHERE p.tenant = claim_document.tenant AND p.name = claim_document.predicate;
    RETURN pg_catalog.concat_ws(' ', claim_text, object_value #>> '{}',
                                pg_catalog.translate(predicate, '_', ' '), names, meaning);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_document(text, text, jsonb, text, bigint, bigint) IS
'The text a claim is found by: its text, object, predicate (words), the names and aliases '
'of its subject and object entities, and the predicate''s description.';

CREATE OR REPLACE FUNCTION @schema@_internal.claims_set_search_doc()
RETURNS trigger
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A piece of a row written again with another valid range says what the row said: it
    -- takes the row's document rather than building the same one again.
    IF NEW.copied_from IS NOT NULL THEN
        SELECT c.search_doc INTO NEW.search_doc FROM @schema@_internal.claims AS c
         WHERE c.tenant = NEW.tenant AND c.claim_id = NEW.copied_from;
        IF NEW.search_doc IS NOT NULL THEN
            RETURN NEW;
        END IF;
    END IF;
    NEW.search_doc := @schema@_internal.document_vector(@schema@_internal.claim_document(
        NEW.tenant, NEW.text, NEW.object_value, NEW.predicate, NEW.subject_id,
        NEW.object_entity_id));
    RETURN NEW;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claims_set_search_doc() IS
'Trigger: a new claim row gets its search document (claim_document, document_vector); a '
'copy of a row takes that row''s.';

CREATE OR REPLACE TRIGGER claims_set_search_doc BEFORE INSERT ON @schema@_internal.claims
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.claims_set_search_doc();

-- The facts' search document is retrieval's, set here rather than by working memory's
-- write triggers (a lower layer never calls a higher one). It fires on an insert and on an
-- update that targets the document's inputs and changes one of them (or the document
-- itself, which no writer sets): a tombstone or a crawl mark keeps the document, as
-- migration 0024 made it. Named after working memory's BEFORE triggers, so it fires after
-- them (PostgreSQL fires a table's triggers of one kind in name order).
CREATE OR REPLACE FUNCTION @schema@_internal.facts_set_search_doc()
RETURNS trigger
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    NEW.search_doc := @schema@_internal.fact_search_doc(NEW.key, NEW.value, NEW.tags);
    RETURN NEW;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_set_search_doc() IS
'Trigger: a fact inserted, or changed in its key, value or tags, gets its search document '
'(fact_search_doc).';

CREATE OR REPLACE TRIGGER facts_set_search_doc BEFORE INSERT ON @schema@_internal.facts
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.facts_set_search_doc();

CREATE OR REPLACE TRIGGER facts_set_search_doc_on_change
BEFORE UPDATE OF key, value, tags, search_doc ON @schema@_internal.facts
FOR EACH ROW
WHEN ((OLD.key, OLD.value, OLD.tags, OLD.search_doc)
      IS DISTINCT FROM (NEW.key, NEW.value, NEW.tags, NEW.search_doc))
EXECUTE FUNCTION @schema@_internal.facts_set_search_doc();

CREATE OR REPLACE FUNCTION @schema@_internal.entity_refresh_claim_documents()
RETURNS trigger
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A claim is found by its entities' names and aliases (claim_document): when they
    -- change, every row about the entity, retired ones too, is found by the new ones.
    UPDATE @schema@_internal.claims AS c
       SET search_doc = @schema@_internal.document_vector(@schema@_internal.claim_document(
               c.tenant, c.text, c.object_value, c.predicate, c.subject_id, c.object_entity_id))
     WHERE c.tenant = NEW.tenant
       AND (c.subject_id = NEW.entity_id OR c.object_entity_id = NEW.entity_id);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.entity_refresh_claim_documents() IS
'Trigger: an entity''s new name or aliases rebuild the search documents of its claims.';

CREATE OR REPLACE TRIGGER entities_refresh_claim_documents
AFTER UPDATE OF name, aliases ON @schema@_internal.entities
FOR EACH ROW
WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.aliases IS DISTINCT FROM NEW.aliases)
EXECUTE FUNCTION @schema@_internal.entity_refresh_claim_documents();
