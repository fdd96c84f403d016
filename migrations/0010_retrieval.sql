-- Retrieval: a full-text document per fact and claim, fuzzy key
-- lookup, embeddings per (row, model), and the embedding queue.
--
-- Search runs under row level security as the API's owner, where the planner will not use
-- a non-leakproof operator (@@, <=>, %) as an index condition. The candidate queries are
-- therefore owned by a narrow NOLOGIN role that bypasses row level security and applies
-- the tenant and the read_facts access rule itself (sql/30_retrieval/30_candidates.sql);
-- only the owner may execute them.
DO $roles$
BEGIN
    CREATE ROLE @schema@_searcher NOLOGIN BYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$roles$;
DO $grant$
BEGIN
    EXECUTE 'GRANT @schema@_searcher TO @schema@_owner WITH INHERIT FALSE, SET TRUE';
END
$grant$;
GRANT USAGE, CREATE ON SCHEMA @schema@_internal TO @schema@_searcher;
GRANT USAGE ON SCHEMA @schema@ TO @schema@_searcher;

SET LOCAL ROLE @schema@_owner;

-- Facts: the key (its path separators as spaces), the string values of the value, the tags.
-- Each text twice, as written ('simple': short tokens and negations survive) and stemmed
-- ('english': deploying ~ deployment), in one vector; the key weighs most.
ALTER TABLE @schema@_internal.facts ADD COLUMN search_doc tsvector GENERATED ALWAYS AS (
    pg_catalog.setweight(pg_catalog.to_tsvector('simple'::regconfig,
        pg_catalog.translate(key, '/_-.:', '     ')), 'A')
    || pg_catalog.setweight(pg_catalog.to_tsvector('english'::regconfig,
        pg_catalog.translate(key, '/_-.:', '     ')), 'A')
    || pg_catalog.setweight(pg_catalog.to_tsvector('simple'::regconfig, value), 'B')
    || pg_catalog.setweight(pg_catalog.to_tsvector('english'::regconfig, value), 'B')
    || pg_catalog.setweight(pg_catalog.array_to_tsvector(tags), 'C')
) STORED;
CREATE INDEX facts_search_idx ON @schema@_internal.facts USING gin (search_doc)
    WHERE deleted_at IS NULL;
CREATE INDEX facts_key_trgm_idx ON @schema@_internal.facts USING gin (key public.gin_trgm_ops)
    WHERE deleted_at IS NULL;

-- Claims: text, object, the subject's and object entity's names and aliases, the predicate.
-- Written by a trigger (sql/30_retrieval/10_documents.sql) because it reads the entities;
-- claim rows are never edited, so it is computed once per row.
ALTER TABLE @schema@_internal.claims ADD COLUMN search_doc tsvector;
CREATE INDEX claims_search_doc_idx ON @schema@_internal.claims USING gin (search_doc);

CREATE TABLE @schema@_internal.embedding_models (
    tenant text NOT NULL,
    model text NOT NULL,
    dimension integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT embedding_models_pkey PRIMARY KEY (tenant, model),
    CONSTRAINT embedding_models_name_shape CHECK (
        pg_catalog.length(model) BETWEEN 1 AND 200 AND model !~ '[[:cntrl:]]'
    ),
    -- halfvec HNSW indexes take up to 4000 dimensions.
    CONSTRAINT embedding_models_dimension_range CHECK (dimension BETWEEN 1 AND 4000)
);
COMMENT ON TABLE @schema@_internal.embedding_models IS
'Embedding models a tenant uses, each with its dimension';

-- One embedding per (row, model), stored as halfvec; an HNSW index per dimension is
-- created when the first model of that dimension is registered (register_embedding_model).
CREATE TABLE @schema@_internal.embeddings (
    tenant text NOT NULL,
    model text NOT NULL,
    item_kind text NOT NULL,
    item_id bigint NOT NULL,
    dimension integer NOT NULL,
    content_hash text NOT NULL,
    embedding public.halfvec NOT NULL,
    embedded_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT embeddings_pkey PRIMARY KEY (tenant, model, item_kind, item_id),
    CONSTRAINT embeddings_model_fkey FOREIGN KEY (tenant, model)
        REFERENCES @schema@_internal.embedding_models (tenant, model) ON DELETE CASCADE,
    CONSTRAINT embeddings_item_kind_check CHECK (item_kind IN ('fact', 'claim')),
    CONSTRAINT embeddings_dimension_matches CHECK (public.vector_dims(embedding) = dimension)
);
COMMENT ON TABLE @schema@_internal.embeddings IS
'One embedding per (fact or claim, model), halfvec, with the hash of the text embedded';

-- Rows whose content is new or changed, waiting for the embedder: retry marks rows of a failed batch for one-by-one retry; error_code is the
-- last error of a row that failed alone (a content change clears it).
CREATE TABLE @schema@_internal.embedding_queue (
    tenant text NOT NULL,
    item_kind text NOT NULL,
    item_id bigint NOT NULL,
    content_hash text NOT NULL,
    enqueued_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    retry boolean NOT NULL DEFAULT false,
    attempts integer NOT NULL DEFAULT 0,
    error_code integer,
    failed_at timestamptz,
    CONSTRAINT embedding_queue_pkey PRIMARY KEY (tenant, item_kind, item_id),
    CONSTRAINT embedding_queue_item_kind_check CHECK (item_kind IN ('fact', 'claim')),
    CONSTRAINT embedding_queue_error_code_check CHECK (
        error_code IN (1001, 1400, 1401, 1403, 1429, 1500, 1901, 9999)
    )
);
CREATE INDEX embedding_queue_work_idx ON @schema@_internal.embedding_queue (
    tenant, retry DESC, enqueued_at
) WHERE error_code IS NULL;
COMMENT ON TABLE @schema@_internal.embedding_queue IS
'Facts and claims waiting to be embedded; retry and error_code are embedder state';

ALTER TABLE @schema@_internal.embedding_models ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.embedding_models FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.embeddings ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.embeddings FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.embedding_queue ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.embedding_queue FORCE ROW LEVEL SECURITY;

-- Claims stored before this migration get their document here (as the migrating
-- superuser, which row level security does not restrict); new rows get it from the trigger.
RESET ROLE;
UPDATE @schema@_internal.claims AS c
   SET search_doc = pg_catalog.setweight(pg_catalog.to_tsvector('simple'::regconfig, d.doc), 'A')
                    || pg_catalog.setweight(pg_catalog.to_tsvector('english'::regconfig, d.doc), 'B')
  FROM (
      SELECT
          x.tenant,
          x.claim_id,
          pg_catalog.concat_ws(' ', x.text, x.object_value #>> '{}',
              pg_catalog.translate(x.predicate, '_', ' '), s.name,
              pg_catalog.array_to_string(s.aliases, ' '), o.name,
              pg_catalog.array_to_string(o.aliases, ' ')) AS doc
      FROM @schema@_internal.claims AS x
      INNER JOIN @schema@_internal.entities AS s
          ON x.tenant = s.tenant AND x.subject_id = s.entity_id
      LEFT JOIN @schema@_internal.entities AS o
          ON x.tenant = o.tenant AND x.object_entity_id = o.entity_id
  ) AS d
 WHERE c.tenant = d.tenant AND c.claim_id = d.claim_id;
