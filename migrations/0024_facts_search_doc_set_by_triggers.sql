-- The facts' search document stops being a generated column. PostgreSQL 17 computes a
-- stored generated column again on every UPDATE, whatever the UPDATE changes, so each
-- delete (a tombstone) and each crawl mark paid for four to_tsvector calls over the key
-- and the value. The write triggers now set it from the same expression
-- (fact_search_doc, sql/30_retrieval/10_documents.sql) when a fact is inserted and when
-- its key, value or tags change. DROP EXPRESSION keeps every stored document; it does not
-- rewrite the table.
SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.facts ALTER COLUMN search_doc DROP EXPRESSION;

COMMENT ON COLUMN @schema@_internal.facts.search_doc IS
'The search vector of the key, value and tags (fact_search_doc), set by the write triggers.';
