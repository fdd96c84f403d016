-- Embeddings per (row, model): models with their dimension, the text a row is embedded
-- from, set_embeddings, and nearest-neighbour candidates that honour tenant, scope and time.

CREATE OR REPLACE FUNCTION @schema@_internal.item_content(
    for_tenant text, item_kind text, item_id bigint
) RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    content text;
BEGIN
    -- What a row is embedded from and shown as: a fact's key and value, a claim's document.
    IF item_kind = 'fact' THEN
        SELECT f.key || ': ' || (f.value #>> '{}') INTO content
          FROM @schema@_internal.facts AS f
         WHERE f.tenant = for_tenant AND f.fact_id = item_id AND f.deleted_at IS NULL;
    ELSIF item_kind = 'claim' THEN
        SELECT @schema@_internal.claim_document(c.tenant, c.text, c.object_value, c.predicate,
                   c.subject_id, c.object_entity_id) INTO content
          FROM @schema@_internal.claims AS c
         WHERE c.tenant = for_tenant AND c.claim_id = item_id;
    END IF;
    RETURN content;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.item_content(text, text, bigint) IS
'The text a fact (key: value) or claim (claim_document) is embedded from; NULL when the row '
'is gone or deleted.';

CREATE OR REPLACE FUNCTION @schema@.register_embedding_model(model text, dimension integer)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    known integer;
    queued bigint;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['facts_manager', 'operator'], 'register_embedding_model');
    IF model IS NULL OR pg_catalog.length(model) NOT BETWEEN 1 AND 200 OR model ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION 'model must be a name of 1 to 200 characters' USING ERRCODE = '22023';
    END IF;
    IF dimension IS NULL OR dimension NOT BETWEEN 1 AND 4000 THEN
        RAISE EXCEPTION 'dimension must be from 1 to 4000, not %', coalesce(dimension::text, 'null')
            USING ERRCODE = '22023', HINT = 'halfvec HNSW indexes take up to 4000 dimensions';
    END IF;
    SELECT m.dimension INTO known FROM @schema@_internal.embedding_models AS m
     WHERE m.tenant = tenant AND m.model = register_embedding_model.model;
    IF known IS NOT NULL AND known <> dimension THEN
        RAISE EXCEPTION 'model % is registered with dimension %', model, known
            USING ERRCODE = '22023', HINT = 'a model keeps its dimension; register a new name';
    END IF;
    INSERT INTO @schema@_internal.embedding_models AS m (tenant, model, dimension)
    VALUES (tenant, model, dimension) ON CONFLICT ON CONSTRAINT embedding_models_pkey DO NOTHING;
    -- One HNSW index per dimension, over the rows of that dimension (the cast fixes the
    -- type the index needs). Built serially: pgvector 0.8.0's parallel HNSW build is unsafe.
    -- ef_construction 128 (pgvector's default 64): a better connected graph, recall@10 0.99
    -- rather than 0.97 at ef_search 100 on clustered embeddings (migration 0020).
    EXECUTE pg_catalog.format(
        'CREATE INDEX IF NOT EXISTS %I ON @schema@_internal.embeddings USING hnsw '
        '((embedding::public.halfvec(%s)) public.halfvec_cosine_ops) '
        'WITH (ef_construction = 128) WHERE dimension = %s',
        'embeddings_hnsw_' || dimension, dimension, dimension);
    queued := @schema@_internal.enqueue_tenant(tenant);
    RETURN pg_catalog.jsonb_build_object('model', model, 'dimension', dimension,
                                         'created', known IS NULL, 'queued', queued);
END
$fn$;

COMMENT ON FUNCTION @schema@.register_embedding_model(text, integer) IS
'Facts manager / operator: register an embedding model with its dimension (1..4000) for the '
'tenant; creates the HNSW index of that dimension when missing and queues every live fact '
'and claim for embedding. Idempotent; another dimension for a known model is 22023.';

CREATE OR REPLACE FUNCTION @schema@_internal.model_dimension(for_tenant text, model text)
RETURNS integer
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    found_dimension integer;
BEGIN
    SELECT m.dimension INTO found_dimension FROM @schema@_internal.embedding_models AS m
     WHERE m.tenant = for_tenant AND m.model = model_dimension.model;
    IF found_dimension IS NULL THEN
        RAISE EXCEPTION 'unknown embedding model %', @schema@_internal.shown(model)
            USING ERRCODE = 'P0002', HINT = 'register it with register_embedding_model(model, dimension)';
    END IF;
    RETURN found_dimension;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.model_dimension(text, text) IS
'The dimension of a registered model of the tenant; P0002 for an unknown model.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_vector(query_vector public.vector, dimension integer)
RETURNS public.halfvec
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF public.vector_dims(query_vector) <> dimension THEN
        RAISE EXCEPTION 'vector has % dimensions, the model %', public.vector_dims(query_vector), dimension
            USING ERRCODE = '22023', HINT = 'embed with the model the rows were embedded with';
    END IF;
    IF public.vector_norm(query_vector) = 0 THEN
        RAISE EXCEPTION 'a zero vector has no direction' USING ERRCODE = '22023';
    END IF;
    RETURN query_vector::public.halfvec;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_vector(public.vector, integer) IS
'A query vector as halfvec, after checking its dimension and that it is not zero (22023).';

CREATE OR REPLACE FUNCTION @schema@.set_embeddings(model text, "rows" jsonb)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    dims integer;
    given record;
    content text;
    written integer := 0;
    skipped integer := 0;
BEGIN
    PERFORM @schema@_internal.require_kind(@schema@_internal.writer_kinds(), 'set_embeddings');
    dims := @schema@_internal.model_dimension(tenant, model);
    IF "rows" IS NULL OR pg_catalog.jsonb_typeof("rows") <> 'array' THEN
        RAISE EXCEPTION 'rows must be a JSON array of {item_kind, item_id, embedding, content_hash}'
            USING ERRCODE = '22023';
    END IF;
    FOR given IN
        SELECT r.value AS v, r.ordinality AS position,
               @schema@_internal.embedding_problem(r.value, dims) AS problem
          FROM pg_catalog.jsonb_array_elements("rows") WITH ORDINALITY AS r
    LOOP
        IF given.problem IS NOT NULL THEN
            RAISE EXCEPTION 'rows[%]: %', given.position, given.problem USING ERRCODE = '22023',
                HINT = pg_catalog.format('each row: {"item_kind": "fact"|"claim", "item_id": n, '
                                         '"embedding": [%s numbers], "content_hash"?}', dims);
        END IF;
        content := @schema@_internal.item_content(tenant, given.v ->> 'item_kind',
                                                  (given.v ->> 'item_id')::bigint);
        -- Gone, or changed since the text was read for embedding: the queue has it again.
        IF content IS NULL OR (given.v ? 'content_hash'
                               AND given.v ->> 'content_hash' <> pg_catalog.md5(content)) THEN
            skipped := skipped + 1;
            CONTINUE;
        END IF;
        INSERT INTO @schema@_internal.embeddings AS e (
            tenant, model, item_kind, item_id, dimension, content_hash, embedding)
        VALUES (tenant, model, given.v ->> 'item_kind', (given.v ->> 'item_id')::bigint, dims,
                pg_catalog.md5(content), (given.v -> 'embedding')::text::public.halfvec)
        ON CONFLICT ON CONSTRAINT embeddings_pkey DO UPDATE
           SET embedding = excluded.embedding, content_hash = excluded.content_hash,
               embedded_at = pg_catalog.now();
        DELETE FROM @schema@_internal.embedding_queue AS q
         WHERE q.tenant = tenant AND q.item_kind = given.v ->> 'item_kind'
           AND q.item_id = (given.v ->> 'item_id')::bigint AND q.content_hash = pg_catalog.md5(content);
        written := written + 1;
    END LOOP;
    RETURN pg_catalog.jsonb_build_object('model', model, 'written', written, 'skipped', skipped);
END
$fn$;

COMMENT ON FUNCTION @schema@.set_embeddings(text, jsonb) IS
'Writers: store embeddings of a registered model: rows [{item_kind (fact | claim), item_id, '
'embedding (dimension numbers), content_hash (optional: the md5 of the text embedded, from '
'claim_embedding_work)}]. A row gone or changed since is skipped (it is queued again); a '
'stored row leaves the queue. Returns {model, written, skipped}. 22023 bad row, P0002 '
'unknown model; nothing is written on error.';

CREATE OR REPLACE FUNCTION @schema@_internal.embedding_problem(item jsonb, dims integer)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN CASE
        WHEN pg_catalog.jsonb_typeof(item) <> 'object' THEN 'not an object'
        WHEN coalesce(item ->> 'item_kind', '') NOT IN ('fact', 'claim')
            THEN 'item_kind must be fact or claim'
        WHEN NOT pg_catalog.pg_input_is_valid(coalesce(item ->> 'item_id', ''), 'bigint')
            THEN 'item_id must be an integer'
        WHEN pg_catalog.jsonb_typeof(item -> 'embedding') IS DISTINCT FROM 'array'
            THEN 'embedding must be an array of numbers'
        WHEN pg_catalog.jsonb_array_length(item -> 'embedding') <> dims
            THEN pg_catalog.format('embedding has %s numbers, the model %s',
                                   pg_catalog.jsonb_array_length(item -> 'embedding'), dims)
        WHEN EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(item -> 'embedding') AS x
                      WHERE pg_catalog.jsonb_typeof(x) <> 'number')
            THEN 'embedding must be an array of numbers'
        WHEN item ? 'content_hash' AND pg_catalog.jsonb_typeof(item -> 'content_hash') <> 'string'
            THEN 'content_hash must be a string'
    END;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.embedding_problem(jsonb, integer) IS
'What is wrong with one row of set_embeddings, or NULL.';
