-- The embedding queue: rows whose content is new or changed
-- are queued in the writing transaction; workers claim batches with SKIP LOCKED and store
-- the vectors with set_embeddings in the same transaction, so a worker killed mid-batch
-- loses nothing and embeds nothing twice.

CREATE OR REPLACE FUNCTION @schema@_internal.embedding_error_codes()
RETURNS integer []
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- 1001 too large, 1400 bad input, 1401 auth, 1403 forbidden, 1429 rate limited,
    -- 1500 server error, 1901 malformed payload, 9999 unknown.
    SELECT ARRAY[1001, 1400, 1401, 1403, 1429, 1500, 1901, 9999]
$fn$;

COMMENT ON FUNCTION @schema@_internal.embedding_error_codes() IS
'The embedder error codes a row can record.';

CREATE OR REPLACE FUNCTION @schema@_internal.enqueue_item(
    for_tenant text, item_kind text, item_id bigint
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    content text := @schema@_internal.item_content(for_tenant, item_kind, item_id);
BEGIN
    IF content IS NULL THEN
        -- Deleted: its vectors go too (they are derived from its content).
        DELETE FROM @schema@_internal.embedding_queue AS q
         WHERE q.tenant = for_tenant AND q.item_kind = enqueue_item.item_kind
           AND q.item_id = enqueue_item.item_id;
        -- A fact's are kept: the history's versions are still ranked by them.
        WITH gone AS (
            DELETE FROM @schema@_internal.embeddings AS e
             WHERE e.tenant = for_tenant AND e.item_kind = enqueue_item.item_kind
               AND e.item_id = enqueue_item.item_id
            RETURNING e.*)
        INSERT INTO @schema@_internal.replaced_fact_embeddings AS r (
            tenant, model, fact_id, content_hash, dimension, embedding, embedded_at)
        SELECT g.tenant, g.model, g.item_id, g.content_hash, g.dimension, g.embedding,
               g.embedded_at
          FROM gone AS g
         WHERE g.item_kind = 'fact'
        ON CONFLICT ON CONSTRAINT replaced_fact_embeddings_pkey DO NOTHING;
        RETURN;
    END IF;
    -- New or changed content: queued afresh (a content change clears an error).
    INSERT INTO @schema@_internal.embedding_queue AS q (tenant, item_kind, item_id, content_hash)
    VALUES (for_tenant, item_kind, item_id, pg_catalog.md5(content))
    ON CONFLICT ON CONSTRAINT embedding_queue_pkey DO UPDATE
       SET content_hash = excluded.content_hash, enqueued_at = excluded.enqueued_at,
           retry = false, attempts = 0, error_code = NULL, failed_at = NULL
     WHERE q.content_hash <> excluded.content_hash;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.enqueue_item(text, text, bigint) IS
'Queue a fact or claim for embedding when its content is new or changed (clearing its error '
'state); a deleted row leaves the queue and its embeddings are removed (a fact''s are kept '
'in replaced_fact_embeddings for its history).';

CREATE OR REPLACE FUNCTION @schema@_internal.enqueue_tenant(for_tenant text)
RETURNS bigint
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    queued bigint;
BEGIN
    -- The content from the rows read here (item_content's two texts), not item_content
    -- per row: a lookup per row took 0.5 ms, 6.6 s for a tenant of 12,000 facts.
    INSERT INTO @schema@_internal.embedding_queue AS q (tenant, item_kind, item_id, content_hash)
    SELECT for_tenant, 'fact', f.fact_id,
           pg_catalog.md5(@schema@_internal.fact_content(f.key, f.value))
      FROM @schema@_internal.facts AS f
     WHERE f.tenant = for_tenant AND f.deleted_at IS NULL
    UNION ALL
    SELECT for_tenant, 'claim', c.claim_id,
           pg_catalog.md5(@schema@_internal.claim_document(c.tenant, c.text, c.object_value,
                                                           c.predicate, c.subject_id,
                                                           c.object_entity_id))
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = for_tenant
    ON CONFLICT ON CONSTRAINT embedding_queue_pkey DO NOTHING;
    GET DIAGNOSTICS queued = ROW_COUNT;
    RETURN queued;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.enqueue_tenant(text) IS
'Queue every live fact and every claim of a tenant for embedding (a model was registered).';

CREATE OR REPLACE FUNCTION @schema@_internal.embeds(tenant text)
RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Only tenants with an embedding model keep a queue.
    RETURN EXISTS (SELECT 1 FROM @schema@_internal.embedding_models AS m
                    WHERE m.tenant = embeds.tenant);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.embeds(text) IS
'Whether a tenant has an embedding model, so its writes are queued for embedding.';

CREATE OR REPLACE FUNCTION @schema@_internal.queue_fact_embedding()
RETURNS trigger
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- The row's own fields, no JSON copy of it: this runs for every write.
    IF @schema@_internal.embeds(NEW.tenant) THEN
        PERFORM @schema@_internal.enqueue_item(NEW.tenant, 'fact', NEW.fact_id);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.queue_fact_embedding() IS
'Trigger on facts: queue the fact for embedding in the writing transaction when its content '
'is new or changed.';

CREATE OR REPLACE FUNCTION @schema@_internal.queue_claim_embedding()
RETURNS trigger
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF @schema@_internal.embeds(OLD.tenant) THEN
            PERFORM @schema@_internal.enqueue_item(OLD.tenant, 'claim', OLD.claim_id);
        END IF;
    ELSIF @schema@_internal.embeds(NEW.tenant) THEN
        PERFORM @schema@_internal.enqueue_item(NEW.tenant, 'claim', NEW.claim_id);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.queue_claim_embedding() IS
'Trigger on claims: queue a new claim row for embedding in the writing transaction; a '
'purged row loses its queue entry and vectors.';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_embeds_statement()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    caller_tenant text := NULLIF(pg_catalog.current_setting('pgfacts.tenant', true), '');
BEGIN
    -- Once per insert or update statement: does the caller's tenant (without a context:
    -- any tenant the writer sees) embed? If not, no row is queued and the row triggers do
    -- not even fire (their WHEN), instead of asking embeds() row by row. 'off <tenant>'
    -- holds for that tenant's rows alone; the tenant is asked first, as a table
    -- distributed by tenant needs.
    IF caller_tenant IS NULL THEN
        PERFORM pg_catalog.set_config('pgfacts.embeds',
            CASE WHEN EXISTS (SELECT 1 FROM @schema@_internal.embedding_models AS m)
                 THEN 'on' ELSE 'off' END, true);
    ELSE
        PERFORM pg_catalog.set_config('pgfacts.embeds',
            CASE WHEN EXISTS (SELECT 1 FROM @schema@_internal.embedding_models AS m
                               WHERE m.tenant = caller_tenant)
                 THEN 'on' ELSE 'off ' || caller_tenant END, true);
    END IF;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_embeds_statement() IS
'Statement trigger on facts inserts and updates: note whether any tenant the writer sees has an '
'embedding model, so rows are queued (queue_fact_embedding) only then.';

CREATE OR REPLACE TRIGGER facts_embeds_statement BEFORE INSERT OR UPDATE ON @schema@_internal.facts
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.facts_embeds_statement();

-- 'off' only when this statement found no model (for the row's tenant); a missing
-- setting queues as before.
CREATE OR REPLACE TRIGGER facts_queue_embedding_insert AFTER INSERT ON @schema@_internal.facts
FOR EACH ROW WHEN (coalesce(pg_catalog.current_setting('pgfacts.embeds', true), 'on')
                   NOT IN ('off', 'off ' || NEW.tenant))
EXECUTE FUNCTION @schema@_internal.queue_fact_embedding();

CREATE OR REPLACE TRIGGER facts_queue_embedding
AFTER UPDATE OF key, value, deleted_at ON @schema@_internal.facts
FOR EACH ROW WHEN (coalesce(pg_catalog.current_setting('pgfacts.embeds', true), 'on')
                   NOT IN ('off', 'off ' || NEW.tenant))
EXECUTE FUNCTION @schema@_internal.queue_fact_embedding();

CREATE OR REPLACE TRIGGER claims_queue_embedding
AFTER INSERT OR DELETE ON @schema@_internal.claims
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.queue_claim_embedding();

CREATE OR REPLACE FUNCTION @schema@.claim_embedding_work(batch_size integer DEFAULT 64)
RETURNS TABLE (item_kind text, item_id bigint, content_hash text, content text, retry boolean)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.context_kind();
    one_retry boolean;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['facts_manager', 'crawler', 'operator'],
                                           'claim_embedding_work');
    batch_size := @schema@_internal.check_limit(batch_size, 'batch_size', 1, 1000);
    -- Rows of a failed batch are retried one by one, before fresh work. A worker is handed
    -- only rows its kind may read; the others wait for a worker of a kind that may.
    -- Claims are read by every kind, a fact by the kinds read_facts shows its key
    -- (readable_by).
    one_retry := EXISTS (SELECT 1 FROM @schema@_internal.embedding_queue AS r
                           LEFT JOIN @schema@_internal.facts AS f
                             ON r.item_kind = 'fact' AND f.tenant = r.tenant AND f.fact_id = r.item_id
                          WHERE r.tenant = tenant AND r.retry AND r.error_code IS NULL
                            AND (r.item_kind = 'claim' OR @schema@_internal.readable_by(f.key, kind)));
    RETURN QUERY
    WITH claimed AS (
        SELECT q.item_kind, q.item_id, q.retry FROM @schema@_internal.embedding_queue AS q
          LEFT JOIN @schema@_internal.facts AS f
            ON q.item_kind = 'fact' AND f.tenant = q.tenant AND f.fact_id = q.item_id
         WHERE q.tenant = tenant AND q.error_code IS NULL AND q.retry = one_retry
           AND (q.item_kind = 'claim' OR @schema@_internal.readable_by(f.key, kind))
         ORDER BY q.enqueued_at, q.item_kind, q.item_id
         LIMIT CASE WHEN one_retry THEN 1 ELSE batch_size END
           FOR UPDATE OF q SKIP LOCKED),
    counted AS (
        UPDATE @schema@_internal.embedding_queue AS u SET attempts = u.attempts + 1
          FROM claimed AS c
         WHERE u.tenant = tenant AND u.item_kind = c.item_kind AND u.item_id = c.item_id
        RETURNING u.item_kind, u.item_id, u.retry)
    SELECT n.item_kind, n.item_id, pg_catalog.md5(t.content), t.content, n.retry
      FROM counted AS n
     CROSS JOIN LATERAL (SELECT @schema@_internal.item_content(tenant, n.item_kind, n.item_id)
                                AS content) AS t
     WHERE t.content IS NOT NULL
     ORDER BY n.item_kind, n.item_id;
END
$fn$;

COMMENT ON FUNCTION @schema@.claim_embedding_work(integer) IS
'Embedding workers (facts manager, crawler, operator): claim up to batch_size (1..1000, '
'default 64) queued rows of the tenant that the caller''s kind may read (claims, and facts '
'whose keys read_facts shows it; the rest stay queued for a facts manager''s worker) with FOR '
'UPDATE SKIP LOCKED, or one row marked for retry when any is, with the text to embed and its '
'content_hash. Hold the transaction open, embed, then set_embeddings (success) or '
'fail_embedding_work (failure) and commit.';

CREATE OR REPLACE FUNCTION @schema@.fail_embedding_work(items jsonb, error_code integer)
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
    n integer;
    changed integer;
BEGIN
    PERFORM @schema@_internal.require_kind(ARRAY['facts_manager', 'crawler', 'operator'],
                                           'fail_embedding_work');
    IF error_code IS NULL OR NOT error_code = ANY (@schema@_internal.embedding_error_codes()) THEN
        RAISE EXCEPTION 'unknown embedding error code %', coalesce(error_code::text, 'null')
            USING ERRCODE = '22023', HINT = 'one of: ' || pg_catalog.array_to_string(
                @schema@_internal.embedding_error_codes(), ', ');
    END IF;
    IF items IS NULL OR pg_catalog.jsonb_typeof(items) <> 'array' OR EXISTS (
           SELECT 1 FROM pg_catalog.jsonb_array_elements(items) AS i
            WHERE coalesce(i ->> 'item_kind', '') NOT IN ('fact', 'claim')
               OR NOT pg_catalog.pg_input_is_valid(coalesce(i ->> 'item_id', ''), 'bigint')) THEN
        RAISE EXCEPTION 'items must be a JSON array of {item_kind, item_id}' USING ERRCODE = '22023';
    END IF;
    n := pg_catalog.jsonb_array_length(items);
    -- A failed batch: its rows are retried one by one. A row that failed alone: its error
    -- is recorded and the worker moves on (a content change clears it).
    UPDATE @schema@_internal.embedding_queue AS q
       SET retry = (n > 1),
           error_code = CASE WHEN n > 1 THEN NULL ELSE fail_embedding_work.error_code END,
           failed_at = CASE WHEN n > 1 THEN NULL ELSE pg_catalog.now() END
      FROM pg_catalog.jsonb_array_elements(items) AS i
     WHERE q.tenant = tenant AND q.item_kind = i ->> 'item_kind'
       AND q.item_id = (i ->> 'item_id')::bigint
       AND (q.item_kind = 'claim' OR EXISTS (
               SELECT 1 FROM @schema@_internal.facts AS f
                WHERE f.tenant = q.tenant AND f.fact_id = q.item_id
                  AND @schema@_internal.readable_by(f.key, kind)));
    GET DIAGNOSTICS changed = ROW_COUNT;
    RETURN pg_catalog.jsonb_build_object(
        CASE WHEN n > 1 THEN 'marked_for_retry' ELSE 'failed' END, changed,
        'error_code', error_code);
END
$fn$;

COMMENT ON FUNCTION @schema@.fail_embedding_work(jsonb, integer) IS
'Embedding workers: report that embedding items [{item_kind, item_id}] failed with an '
'embedder error code (1001 too large, 1400 bad input, 1401 auth, 1403 forbidden, 1429 rate '
'limited, 1500 server error, 1901 malformed payload, 9999 unknown). Several items (a batch): '
'marked for one-by-one retry; one item: its error_code is recorded and it is skipped until '
'its content changes. Rows the caller''s kind may not read are left alone, as unknown ones. '
'22023 unknown code or bad items.';

CREATE OR REPLACE FUNCTION @schema@.embedding_backlog()
RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'queued', pg_catalog.count(*) FILTER (WHERE q.error_code IS NULL AND NOT q.retry),
        'retry', pg_catalog.count(*) FILTER (WHERE q.error_code IS NULL AND q.retry),
        'failed', pg_catalog.count(*) FILTER (WHERE q.error_code IS NOT NULL),
        'errors', coalesce((SELECT pg_catalog.jsonb_object_agg(e.code, e.n)
                              FROM (SELECT x.error_code::text AS code, pg_catalog.count(*) AS n
                                      FROM @schema@_internal.embedding_queue AS x
                                     WHERE x.tenant = @schema@_internal.context_tenant()
                                       AND x.error_code IS NOT NULL
                                     GROUP BY x.error_code) AS e), '{}'))
      FROM @schema@_internal.embedding_queue AS q
     WHERE q.tenant = @schema@_internal.context_tenant()
$fn$;

COMMENT ON FUNCTION @schema@.embedding_backlog() IS
'The tenant''s embedding queue: {queued, retry (rows of failed batches), failed (rows with an '
'error code), errors: {code: rows}}.';

-- Every tenant's embedding queue, for `pgfacts worker --embedder` (which tenants have rows
-- waiting, longest waiting first, so one busy tenant cannot starve the others). It crosses
-- tenants, so its body is the maintainer's (BYPASSRLS), like extraction_backlog's.

SET LOCAL ROLE @schema@_maintainer;

CREATE OR REPLACE FUNCTION @schema@_internal.embedding_backlog_all(for_model text)
RETURNS TABLE (
    tenant text, queued bigint, retry bigint, failed bigint, oldest_enqueued timestamptz
)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT q.tenant,
           pg_catalog.count(*) FILTER (WHERE q.error_code IS NULL AND NOT q.retry),
           pg_catalog.count(*) FILTER (WHERE q.error_code IS NULL AND q.retry),
           pg_catalog.count(*) FILTER (WHERE q.error_code IS NOT NULL),
           pg_catalog.min(q.enqueued_at) FILTER (WHERE q.error_code IS NULL)
      FROM @schema@_internal.embedding_queue AS q
     WHERE for_model IS NULL OR EXISTS (
               SELECT 1 FROM @schema@_internal.embedding_models AS m
                WHERE m.tenant = q.tenant AND m.model = for_model)
     GROUP BY q.tenant
     ORDER BY pg_catalog.min(q.enqueued_at) FILTER (WHERE q.error_code IS NULL) NULLS LAST,
              q.tenant
$fn$;

COMMENT ON FUNCTION @schema@_internal.embedding_backlog_all(text) IS
'The body of embedding_backlog_by_tenant(), owned by the maintainer role (BYPASSRLS) to '
'cross tenants.';

REVOKE ALL ON FUNCTION @schema@_internal.embedding_backlog_all(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @schema@_internal.embedding_backlog_all(text) TO @schema@_operator;

SET LOCAL ROLE @schema@_owner;

CREATE OR REPLACE FUNCTION @schema@.embedding_backlog_by_tenant(model text DEFAULT NULL)
RETURNS TABLE (
    tenant text, queued bigint, retry bigint, failed bigint, oldest_enqueued timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.require_cross_tenant_operator('embedding_backlog_by_tenant');
    IF model IS NOT NULL AND pg_catalog.btrim(model) = '' THEN
        RAISE EXCEPTION 'model must name an embedding model, or be NULL for every model'
            USING ERRCODE = '22023',
                  HINT = 'the name given to register_embedding_model, as the worker''s embedder reports it';
    END IF;
    RETURN QUERY SELECT * FROM @schema@_internal.embedding_backlog_all(model);
END
$fn$;

COMMENT ON FUNCTION @schema@.embedding_backlog_by_tenant(text) IS
'Operator: every tenant with rows in its embedding queue (only those that registered model, '
'when given): how many are queued, marked for one-by-one retry and failed with an error '
'code, and when the oldest workable row was queued; longest waiting first (the order '
'`pgfacts worker --embedder` serves tenants in, one batch each per round). 22023 for an '
'empty model name.';
