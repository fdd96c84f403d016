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
        SELECT @schema@_internal.fact_content(f.key, f.value) INTO content
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
'The text a fact (key: value, a JSON null as null) or claim (claim_document) is embedded '
'from; NULL when the row is gone or deleted.';

CREATE OR REPLACE FUNCTION @schema@_internal.readable_item_content(
    for_tenant text, item_kind text, item_id bigint, kind text
) RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A fact whose key the kind may not read is, to that kind, a fact that does not exist.
    IF item_kind = 'fact' AND NOT EXISTS (
           SELECT 1 FROM @schema@_internal.facts AS f
            WHERE f.tenant = for_tenant AND f.fact_id = item_id
              AND @schema@_internal.readable_by(f.key, kind)) THEN
        RETURN NULL;
    END IF;
    RETURN @schema@_internal.item_content(for_tenant, item_kind, item_id);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.readable_item_content(text, text, bigint, text) IS
'item_content for a caller of an agent kind: NULL also for a fact whose key the kind may not '
'read (readable_by), so it answers as for a row that does not exist.';

CREATE OR REPLACE FUNCTION @schema@_internal.max_embedding_dimension()
RETURNS integer
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 4000  -- halfvec HNSW indexes take up to 4000 dimensions
$fn$;

COMMENT ON FUNCTION @schema@_internal.max_embedding_dimension() IS
'The largest embedding dimension (4000, what a halfvec HNSW index takes): of a model, an '
'allowed dimension and a tool''s vector argument.';

CREATE OR REPLACE FUNCTION @schema@_internal.max_embedding_models()
RETURNS integer
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 16
$fn$;

COMMENT ON FUNCTION @schema@_internal.max_embedding_models() IS
'How many embedding models a tenant may register (16).';

CREATE OR REPLACE FUNCTION @schema@_internal.dimension_index(dimension integer)
RETURNS TABLE (index_name text, valid boolean)
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT c.relname::text, i.indisvalid AND i.indisready
      FROM pg_catalog.pg_index AS i
      JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
     WHERE i.indrelid = '@schema@_internal.embeddings'::regclass
       AND c.relname = 'embeddings_hnsw_' || dimension
$fn$;

COMMENT ON FUNCTION @schema@_internal.dimension_index(integer) IS
'The HNSW index of a dimension on embeddings (embeddings_hnsw_<dimension>) and whether it is '
'valid; no row when there is none.';

CREATE OR REPLACE FUNCTION @schema@_internal.allowed_dimensions()
RETURNS integer []
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- The install's allow list is its valid HNSW indexes: what every tenant's statement on
    -- embeddings pays for (a lock and a predicate check per index), kept by the DBA.
    SELECT coalesce(pg_catalog.array_agg(d.dimension ORDER BY d.dimension), '{}')
      FROM (SELECT pg_catalog.substring(c.relname, '^embeddings_hnsw_([0-9]{1,4})$')::integer
                   AS dimension
              FROM pg_catalog.pg_index AS i
              JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
             WHERE i.indrelid = '@schema@_internal.embeddings'::regclass
               AND i.indisvalid AND i.indisready
               AND c.relname ~ '^embeddings_hnsw_[0-9]{1,4}$') AS d
$fn$;

COMMENT ON FUNCTION @schema@_internal.allowed_dimensions() IS
'The embedding dimensions a tenant may register a model of: those with a valid HNSW index '
'(embeddings_hnsw_<dimension>), which only allow_embedding_dimension (the DBA) builds.';

CREATE OR REPLACE FUNCTION @schema@_internal.dimension_index_sql(dimension integer, build_concurrently boolean)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF dimension IS NULL OR dimension NOT BETWEEN 1 AND @schema@_internal.max_embedding_dimension() THEN
        RAISE EXCEPTION 'dimension must be from 1 to %, not %',
            @schema@_internal.max_embedding_dimension(), coalesce(dimension::text, 'null')
            USING ERRCODE = '22023', HINT = 'halfvec HNSW indexes take up to 4000 dimensions';
    END IF;
    -- One HNSW index per dimension, over the rows of that dimension (the cast fixes the
    -- type the index needs). Build it serially (max_parallel_maintenance_workers = 0):
    -- pgvector 0.8.0's parallel HNSW build is unsafe. ef_construction 128 (pgvector's
    -- default 64): recall@10 0.99 rather than 0.97 at ef_search 100 (migration 0020).
    RETURN pg_catalog.format(
        'CREATE INDEX %s IF NOT EXISTS %I ON @schema@_internal.embeddings USING hnsw '
        '((embedding::public.halfvec(%s)) public.halfvec_cosine_ops) '
        'WITH (ef_construction = 128) WHERE dimension = %s',
        CASE WHEN build_concurrently THEN 'CONCURRENTLY' ELSE '' END,
        'embeddings_hnsw_' || dimension, dimension, dimension);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.dimension_index_sql(integer, boolean) IS
'The CREATE INDEX statement of a dimension''s HNSW index (CONCURRENTLY for the CLI, which '
'runs it outside a transaction), the one definition of that index; 22023 outside 1..4000.';

CREATE OR REPLACE FUNCTION @schema@.allow_embedding_dimension(dimension integer)
RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET max_parallel_maintenance_workers = 0
AS $fn$
#variable_conflict use_variable
DECLARE
    found record;
BEGIN
    IF dimension IS NULL OR dimension NOT BETWEEN 1 AND @schema@_internal.max_embedding_dimension() THEN
        RAISE EXCEPTION 'dimension must be from 1 to %, not %',
            @schema@_internal.max_embedding_dimension(), coalesce(dimension::text, 'null')
            USING ERRCODE = '22023', HINT = 'halfvec HNSW indexes take up to 4000 dimensions';
    END IF;
    SELECT * INTO found FROM @schema@_internal.dimension_index(dimension);
    IF found.valid IS NOT NULL AND NOT found.valid THEN
        RAISE EXCEPTION 'index % exists but is not valid', found.index_name
            USING ERRCODE = '55000',
                  DETAIL = 'a CREATE INDEX CONCURRENTLY that failed or is still running leaves it so',
                  HINT = pg_catalog.format('when no build runs: DROP INDEX CONCURRENTLY '
                             '@schema@_internal.%I; then allow the dimension again',
                             found.index_name);
    END IF;
    IF found.valid IS NULL THEN
        -- Holds a SHARE lock on embeddings while it builds: every tenant's writes of
        -- embeddings wait (pgfacts embedding-dimension builds it CONCURRENTLY instead).
        EXECUTE @schema@_internal.dimension_index_sql(dimension, false);
    END IF;
    RETURN pg_catalog.jsonb_build_object('dimension', dimension, 'created', found.valid IS NULL,
                                         'allowed', @schema@_internal.allowed_dimensions());
END
$fn$;

COMMENT ON FUNCTION @schema@.allow_embedding_dimension(integer) IS
'DBA only (not granted to any agent kind): allow tenants to register models of a dimension '
'(1..4000) by building its HNSW index on embeddings, which blocks writes of embeddings while '
'it builds (the CLI''s pgfacts embedding-dimension builds it concurrently first). Returns '
'{dimension, created, allowed}. 55000 when an invalid index of that dimension is left.';

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
    IF dimension IS NULL OR dimension NOT BETWEEN 1 AND @schema@_internal.max_embedding_dimension() THEN
        RAISE EXCEPTION 'dimension must be from 1 to 4000, not %', coalesce(dimension::text, 'null')
            USING ERRCODE = '22023', HINT = 'halfvec HNSW indexes take up to 4000 dimensions';
    END IF;
    -- One registration of the tenant at a time, so the model cap holds.
    PERFORM pg_catalog.pg_advisory_xact_lock(
        @schema@_internal.lock_key('embedding_models:' || tenant));
    SELECT m.dimension INTO known FROM @schema@_internal.embedding_models AS m
     WHERE m.tenant = tenant AND m.model = register_embedding_model.model;
    IF known IS NOT NULL AND known <> dimension THEN
        RAISE EXCEPTION 'model % is registered with dimension %', @schema@_internal.shown(model), known
            USING ERRCODE = '22023', HINT = 'a model keeps its dimension; register a new name';
    END IF;
    IF known IS NULL THEN
        PERFORM @schema@_internal.check_new_model(tenant, dimension);
        INSERT INTO @schema@_internal.embedding_models AS m (tenant, model, dimension)
        VALUES (tenant, model, dimension);
    END IF;
    -- No index is built here: the dimension's index exists (the DBA allowed it), and a
    -- tenant never makes every tenant's statements on embeddings lock one more index.
    queued := @schema@_internal.enqueue_tenant(tenant);
    RETURN pg_catalog.jsonb_build_object('model', model, 'dimension', dimension,
                                         'created', known IS NULL, 'queued', queued);
END
$fn$;

COMMENT ON FUNCTION @schema@.register_embedding_model(text, integer) IS
'Facts manager / operator: register an embedding model of an allowed dimension for the '
'tenant (out of the box 384, 768, 1024, 1536; the DBA allows more with '
'allow_embedding_dimension) and queue every live fact and claim for embedding. At most 16 '
'models a tenant. Builds no index. Idempotent; another dimension for a known model, a '
'dimension not allowed or a 17th model is 22023.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_new_model(for_tenant text, dimension integer)
RETURNS void
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    allowed integer [] := @schema@_internal.allowed_dimensions();
BEGIN
    IF NOT dimension = ANY (allowed) THEN
        RAISE EXCEPTION 'dimension % is not allowed on this install', dimension
            USING ERRCODE = '22023',
                  DETAIL = 'allowed: ' || coalesce(NULLIF(pg_catalog.array_to_string(allowed, ', '), ''),
                                                   'none'),
                  HINT = pg_catalog.format('the database owner allows a dimension once per install '
                             '(docs/operations.md): pgfacts embedding-dimension %s, or SELECT '
                             '@schema@.allow_embedding_dimension(%s)', dimension, dimension);
    END IF;
    IF (SELECT pg_catalog.count(*) FROM @schema@_internal.embedding_models AS m
         WHERE m.tenant = for_tenant) >= @schema@_internal.max_embedding_models() THEN
        RAISE EXCEPTION 'a tenant holds at most % embedding models', @schema@_internal.max_embedding_models()
            USING ERRCODE = '22023',
                  HINT = 'register a model under a name already registered, or see "Limits" in '
                         'docs/errors.md';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_new_model(text, integer) IS
'Raise 22023 unless a tenant may register one more model of dimension: the dimension is '
'allowed on the install (allowed_dimensions) and the tenant holds fewer than 16 models.';

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
DECLARE
    converted public.halfvec;
BEGIN
    IF query_vector IS NULL THEN
        RAISE EXCEPTION 'a query vector is required' USING ERRCODE = '22023',
            HINT = 'embed the query with the model you name';
    END IF;
    IF public.vector_dims(query_vector) <> dimension THEN
        RAISE EXCEPTION 'vector has % dimensions, the model %', public.vector_dims(query_vector), dimension
            USING ERRCODE = '22023', HINT = 'embed with the model the rows were embedded with';
    END IF;
    IF EXISTS (SELECT 1 FROM pg_catalog.unnest(query_vector::real []) AS x
                WHERE pg_catalog.abs(x) > 65504) THEN  -- the largest finite halfvec number
        RAISE EXCEPTION 'a vector''s numbers must be within +-65504 (halfvec)'
            USING ERRCODE = '22023', HINT = 'embeddings are stored as halfvec; normalise the vector';
    END IF;
    converted := query_vector::public.halfvec;
    -- Checked after the conversion: numbers below halfvec's smallest round to zero.
    IF public.l2_norm(converted) = 0 THEN
        RAISE EXCEPTION 'a zero vector has no direction' USING ERRCODE = '22023',
            HINT = 'as halfvec every number rounds to 0; normalise the vector';
    END IF;
    RETURN converted;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_vector(public.vector, integer) IS
'A query vector as halfvec, after checking it is given, its dimension, that its numbers fit '
'halfvec and that it is not zero as halfvec (22023).';

CREATE OR REPLACE FUNCTION @schema@_internal.check_embedding_rows("rows" jsonb)
RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF "rows" IS NULL OR pg_catalog.jsonb_typeof("rows") <> 'array' THEN
        RAISE EXCEPTION 'rows must be a JSON array of {item_kind, item_id, embedding, content_hash}'
            USING ERRCODE = '22023';
    END IF;
    IF pg_catalog.jsonb_array_length("rows") > 1000 THEN
        RAISE EXCEPTION 'a batch holds at most 1000 embeddings, not %', pg_catalog.jsonb_array_length("rows")
            USING ERRCODE = '22023',
                  HINT = 'split the rows into batches of at most 1000 (claim_embedding_work hands '
                         'out at most 1000); see "Limits" in docs/errors.md';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_embedding_rows(jsonb) IS
'Raise 22023 unless set_embeddings'' rows are a JSON array of at most 1000.';

CREATE OR REPLACE FUNCTION @schema@_internal.keep_replaced_fact_vector()
RETURNS trigger
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- A version of the history is ranked by the vector of its content (nearest and search
    -- as of an instant): the vector an embedding of newer content overwrites is kept, once
    -- per content. From OLD, so set_embeddings reads the embeddings no second time.
    INSERT INTO @schema@_internal.replaced_fact_embeddings AS r (
        tenant, model, fact_id, content_hash, dimension, embedding, embedded_at)
    VALUES (OLD.tenant, OLD.model, OLD.item_id, OLD.content_hash, OLD.dimension,
            OLD.embedding, OLD.embedded_at)
    ON CONFLICT ON CONSTRAINT replaced_fact_embeddings_pkey DO NOTHING;
    RETURN NEW;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.keep_replaced_fact_vector() IS
'Trigger on embeddings: before a fact''s vector is overwritten by one of other content, keep '
'it in replaced_fact_embeddings (a delete keeps it in enqueue_item).';

CREATE OR REPLACE TRIGGER embeddings_keep_replaced_fact_vector
BEFORE UPDATE ON @schema@_internal.embeddings
FOR EACH ROW WHEN (OLD.item_kind = 'fact' AND OLD.content_hash IS DISTINCT FROM NEW.content_hash)
EXECUTE FUNCTION @schema@_internal.keep_replaced_fact_vector();

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
    kind text := @schema@_internal.context_kind();
    dims integer;
    given record;
    vector public.halfvec;
    content text;
    written integer := 0;
    skipped integer := 0;
BEGIN
    PERFORM @schema@_internal.require_kind(@schema@_internal.writer_kinds(), 'set_embeddings');
    dims := @schema@_internal.model_dimension(tenant, model);
    PERFORM @schema@_internal.check_embedding_rows("rows");
    FOR given IN
        SELECT r.value AS v, r.ordinality AS position,
               @schema@_internal.embedding_problem(r.value, dims) AS problem
          FROM pg_catalog.jsonb_array_elements("rows") WITH ORDINALITY AS r
    LOOP
        IF given.problem IS NULL THEN
            vector := (given.v -> 'embedding')::text::public.halfvec;
            IF public.l2_norm(vector) = 0 THEN
                given.problem := 'a zero vector (as halfvec) has no direction';
            END IF;
        END IF;
        IF given.problem IS NOT NULL THEN
            RAISE EXCEPTION 'rows[%]: %', given.position, given.problem USING ERRCODE = '22023',
                HINT = pg_catalog.format('each row: {"item_kind": "fact"|"claim", "item_id": n, '
                                         '"embedding": [%s numbers, not all 0, within +-65504], '
                                         '"content_hash"?}', dims);
        END IF;
        -- Gone, not readable by the caller's kind (answered alike), or changed since the
        -- text was read for embedding: the queue has it again.
        content := @schema@_internal.readable_item_content(tenant, given.v ->> 'item_kind',
                                                           (given.v ->> 'item_id')::bigint, kind);
        IF content IS NULL OR (given.v ? 'content_hash'
                               AND given.v ->> 'content_hash' <> pg_catalog.md5(content)) THEN
            skipped := skipped + 1;
            CONTINUE;
        END IF;
        INSERT INTO @schema@_internal.embeddings AS e (
            tenant, model, item_kind, item_id, dimension, content_hash, embedding)
        VALUES (tenant, model, given.v ->> 'item_kind', (given.v ->> 'item_id')::bigint, dims,
                pg_catalog.md5(content), vector)
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
'Writers: store embeddings of a registered model: rows (at most 1000) [{item_kind (fact | '
'claim), item_id, embedding (dimension numbers within +-65504, not zero as halfvec), '
'content_hash (optional: the md5 of the text embedded, from claim_embedding_work)}]. A row '
'gone, changed since, or a fact whose key the caller''s kind may not read is skipped (the '
'same answer for each); a stored row leaves the queue, and a fact''s vector of older content '
'is kept for its history (replaced_fact_embeddings). Returns {model, written, skipped}. '
'22023 bad row or batch, P0002 unknown model; nothing is written on error.';

CREATE OR REPLACE FUNCTION @schema@_internal.embedding_problem(item jsonb, dims integer)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    worst integer;
BEGIN
    IF pg_catalog.jsonb_typeof(item) <> 'object' THEN
        RETURN 'not an object';
    ELSIF coalesce(item ->> 'item_kind', '') NOT IN ('fact', 'claim') THEN
        RETURN 'item_kind must be fact or claim';
    ELSIF NOT pg_catalog.pg_input_is_valid(coalesce(item ->> 'item_id', ''), 'bigint') THEN
        RETURN 'item_id must be an integer';
    ELSIF pg_catalog.jsonb_typeof(item -> 'embedding') IS DISTINCT FROM 'array' THEN
        RETURN 'embedding must be an array of numbers';
    ELSIF pg_catalog.jsonb_array_length(item -> 'embedding') <> dims THEN
        RETURN pg_catalog.format('embedding has %s numbers, the model %s',
                                 pg_catalog.jsonb_array_length(item -> 'embedding'), dims);
    ELSIF item ? 'content_hash' AND pg_catalog.jsonb_typeof(item -> 'content_hash') <> 'string' THEN
        RETURN 'content_hash must be a string';
    END IF;
    -- One pass over the numbers: 2 not a number, 1 beyond halfvec's largest (65504).
    SELECT pg_catalog.max(CASE WHEN pg_catalog.jsonb_typeof(x) <> 'number' THEN 2
                               WHEN pg_catalog.abs(x::numeric) > 65504 THEN 1 ELSE 0 END)
      INTO worst FROM pg_catalog.jsonb_array_elements(item -> 'embedding') AS x;
    RETURN CASE worst WHEN 2 THEN 'embedding must be an array of numbers'
                      WHEN 1 THEN 'embedding numbers must be within +-65504 (halfvec)' END;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.embedding_problem(jsonb, integer) IS
'What is wrong with one row of set_embeddings, or NULL (the zero check follows the halfvec '
'conversion, in set_embeddings).';
