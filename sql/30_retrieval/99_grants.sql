-- Retrieval grants: every kind searches (each sees what read_facts shows it); the facts
-- manager and operator register models; writers store embeddings; embedding workers (facts
-- manager, crawler, operator) work the queue.

SELECT @schema@_internal.register_api('@schema@.detect_intent(text)', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api(
    '@schema@.search(text,public.vector,text,integer,text,text[],text,text[],text,timestamptz,timestamptz,real,real)',
    @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api(
    '@schema@.nearest(text,public.vector,integer,text[],text,timestamptz,timestamptz,boolean)',
    @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.context_pack(text,integer,public.vector,text,text,integer,real,boolean,integer)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.find_keys(text,integer,text)', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.search_claims(text,real,boolean,integer)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.similar_facts(text,integer,text)', @schema@_internal.agent_kinds());
-- PilotSwarm does not give search_skills to the facts manager.
SELECT @schema@_internal.register_api('@schema@.search_skills(text,public.vector,text,integer)',
                                      '{agent,crawler,tuner,operator}');

SELECT @schema@_internal.register_api('@schema@.register_embedding_model(text,integer)',
                                      '{facts_manager,operator}');
-- DBA only: a dimension's index costs every tenant's statements on embeddings.
SELECT @schema@_internal.register_api('@schema@.allow_embedding_dimension(integer)', '{}');
SELECT @schema@_internal.register_api('@schema@.set_embeddings(text,jsonb)', @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.claim_embedding_work(integer)',
                                      '{facts_manager,crawler,operator}');
SELECT @schema@_internal.register_api('@schema@.fail_embedding_work(jsonb,integer)',
                                      '{facts_manager,crawler,operator}');
SELECT @schema@_internal.register_api('@schema@.embedding_backlog()', @schema@_internal.agent_kinds());
-- Crosses tenants (the worker's list of queues to serve), like extraction_backlog.
SELECT @schema@_internal.register_api('@schema@.embedding_backlog_by_tenant(text)', '{operator}');
GRANT SELECT ON @schema@_internal.embedding_queue, @schema@_internal.embedding_models
TO @schema@_maintainer;

-- Read-only table access for audits; row level security keeps it to the caller's tenant.
GRANT SELECT ON @schema@_internal.embedding_models, @schema@_internal.embeddings,
    @schema@_internal.embedding_queue, @schema@_internal.replaced_fact_embeddings
TO @schema@_tuner, @schema@_operator;

-- The searcher reads what the candidate queries read (it bypasses row level security; its
-- functions name the tenant in every condition), runs the helpers they inline, and only
-- the owner may run its functions.
GRANT SELECT ON @schema@_internal.facts, @schema@_internal.fact_versions,
    @schema@_internal.claims, @schema@_internal.embeddings,
    @schema@_internal.replaced_fact_embeddings, @schema@_internal.retractions,
    @schema@_internal.entities
TO @schema@_searcher;
-- The searcher's own functions: only the owner may run them (set as their owner).
SET LOCAL ROLE @schema@_searcher;
DO $searcher$
DECLARE
    fn regprocedure;
BEGIN
    FOR fn IN
        SELECT p.oid::regprocedure FROM pg_catalog.pg_proc AS p
         WHERE p.pronamespace = '@schema@_internal'::regnamespace
           AND p.proowner = '@schema@_searcher'::regrole
    LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', fn);
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO @schema@_owner', fn);
    END LOOP;
END
$searcher$;
SET LOCAL ROLE @schema@_owner;
GRANT EXECUTE ON FUNCTION @schema@_internal.text_score(tsvector, tsquery, tsquery [], boolean, tsquery),
    @schema@_internal.text_score_of(tsvector, tsquery, tsquery, tsquery, tsquery, tsquery, tsquery,
                                    tsquery, tsquery, tsquery, tsquery [], integer, boolean, tsquery),
    @schema@_internal.word_values(tsquery []),
    @schema@_internal.words_held(tsvector, tsquery []),
    @schema@_internal.negation_query(),
    @schema@_internal.fact_visible(
        boolean, text, text, timestamptz, text, boolean, boolean, text []),
    @schema@_internal.facts_as_of(text, timestamptz),
    @schema@_internal.fact_search_doc(text, jsonb, text []),
    @schema@_internal.searchable_text(text),
    @schema@_internal.value_searchable_text(jsonb),
    @schema@_internal.fact_content(text, jsonb),
    @schema@_internal.readable_by(text, text),
    @schema@_internal.fact_scope(boolean, text),
    @schema@_internal.scope_key_scope(text),
    @schema@_internal.scope_key_key(text),
    @schema@_internal.claim_in_view(tstzrange, tstzrange, text, timestamptz, boolean, timestamptz,
                                   timestamptz, boolean),
    @schema@_internal.claim_retracted(text, text, timestamptz),
    @schema@_internal.claim_answers(text, tstzrange, tstzrange, text, timestamptz, text, boolean,
                                    timestamptz, timestamptz, boolean),
    @schema@_internal.query_stop_words(),
    @schema@_internal.query_max_length()
TO @schema@_searcher;

SELECT @schema@_internal.grant_internal_functions();
