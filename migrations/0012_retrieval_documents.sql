-- Retrieval: a claim's search document also holds its predicate's description
-- (sql/30_retrieval/10_documents.sql, claim_document), so a question in the words the
-- description uses ("employer", "home city") finds claims whose text does not use them.
-- Claims stored before get their document again here (as the migrating superuser, which
-- row level security does not restrict); new rows get it from the trigger. Their
-- embeddings keep the text they were made from until the claim changes.
UPDATE @schema@_internal.claims AS c
   SET search_doc = pg_catalog.setweight(pg_catalog.to_tsvector('simple'::regconfig, d.doc), 'A')
                    || pg_catalog.setweight(pg_catalog.to_tsvector('english'::regconfig, d.doc), 'B')
  FROM (
      SELECT
          x.tenant,
          x.claim_id,
          pg_catalog.concat_ws(' ', x.text, x.object_value #>> '{}',
              pg_catalog.translate(x.predicate, '_', ' '),
              (SELECT pg_catalog.string_agg(e.name || ' '
                          || pg_catalog.array_to_string(e.aliases, ' '), ' ')
                 FROM @schema@_internal.entities AS e
                WHERE e.tenant = x.tenant
                  AND e.entity_id IN (x.subject_id, x.object_entity_id)),
              NULLIF(p.description, '')) AS doc
      FROM @schema@_internal.claims AS x
      INNER JOIN @schema@_internal.predicates AS p
          ON x.tenant = p.tenant AND x.predicate = p.name
      WHERE p.description <> ''
  ) AS d
 WHERE c.tenant = d.tenant AND c.claim_id = d.claim_id;
