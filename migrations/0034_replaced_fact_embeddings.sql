-- Layer: 30_retrieval
--
-- The vectors of a fact's replaced content. An embedding is derived from a fact's content
-- (its key and value) and was kept for the current content only: when an overwrite was
-- embedded afresh, or the fact deleted, the old vector went. nearest and search as of an
-- instant could then rank only the facts whose version of that instant is still current.
-- Now the vector a re-embed or a delete would drop moves here, keyed by the fact and the
-- hash of the content it was embedded from; a version of the history finds its vector by
-- the hash of its own content (here, or the current embedding while it is not re-embedded).
-- The history of facts is never deleted, so neither are these (a model's removal takes its
-- vectors, here too). No vector index: an as-of read scans, exactly, only the versions
-- current at its instant that are no longer current (facts changed or deleted since).

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.replaced_fact_embeddings (
    tenant text NOT NULL,
    model text NOT NULL,
    fact_id bigint NOT NULL,
    content_hash text NOT NULL,
    dimension integer NOT NULL,
    embedding public.halfvec NOT NULL,
    embedded_at timestamptz NOT NULL,
    replaced_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT replaced_fact_embeddings_pkey PRIMARY KEY (tenant, model, fact_id, content_hash),
    CONSTRAINT replaced_fact_embeddings_model_fkey FOREIGN KEY (tenant, model)
    REFERENCES @schema@_internal.embedding_models (tenant, model) ON DELETE CASCADE,
    CONSTRAINT replaced_fact_embeddings_dimension_matches CHECK (
        public.vector_dims(embedding) = dimension
    )
);

COMMENT ON TABLE @schema@_internal.replaced_fact_embeddings IS
'Vectors of content a fact no longer has (overwritten and embedded again, or deleted), by '
'fact and content hash, so a version of the history is ranked by the vector of its content';

ALTER TABLE @schema@_internal.replaced_fact_embeddings ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.replaced_fact_embeddings FORCE ROW LEVEL SECURITY;
