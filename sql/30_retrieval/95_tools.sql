-- The retrieval agent tools: facts_search, facts_similar and
-- search_skills, with PilotSwarm's argument names. SQL cannot embed text: the caller embeds
-- the query with its embedding model and passes vector and model (the Python client and CLI
-- embed nothing; a pgfacts.retrieval Embedder can do it).
-- Rows of search, similar_facts and search_skills are read by column name (WITH ORDINALITY
-- AS s, no column list), as in sql/10_memory/95_tools.sql.

CREATE OR REPLACE FUNCTION @schema@_internal.arg_vector(args jsonb)
RETURNS public.vector
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    worst integer;
BEGIN
    IF coalesce(pg_catalog.jsonb_typeof(args -> 'vector'), 'null') = 'null' THEN
        RETURN NULL;
    END IF;
    IF pg_catalog.jsonb_typeof(args -> 'vector') <> 'array' THEN
        RAISE EXCEPTION 'argument vector must be an array of numbers' USING ERRCODE = '22023';
    END IF;
    -- Capped before the cast: pgvector refuses more than 16,000 numbers with 54000.
    IF pg_catalog.jsonb_array_length(args -> 'vector') NOT BETWEEN 1 AND @schema@_internal.max_embedding_dimension() THEN
        RAISE EXCEPTION 'argument vector holds 1 to % numbers, not %',
            @schema@_internal.max_embedding_dimension(), pg_catalog.jsonb_array_length(args -> 'vector')
            USING ERRCODE = '22023', HINT = 'pass the query embedded with the model it names';
    END IF;
    -- 2 not a number, 1 beyond halfvec's largest number (65504), as check_vector refuses.
    SELECT pg_catalog.max(CASE WHEN pg_catalog.jsonb_typeof(x) <> 'number' THEN 2
                               WHEN pg_catalog.abs(x::numeric) > 65504 THEN 1 ELSE 0 END)
      INTO worst FROM pg_catalog.jsonb_array_elements(args -> 'vector') AS x;
    IF worst = 2 THEN
        RAISE EXCEPTION 'argument vector must be an array of numbers' USING ERRCODE = '22023';
    ELSIF worst = 1 THEN
        RAISE EXCEPTION 'argument vector''s numbers must be within +-65504 (halfvec)'
            USING ERRCODE = '22023', HINT = 'normalise the vector';
    END IF;
    RETURN (args ->> 'vector')::public.vector;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.arg_vector(jsonb) IS
'The optional vector argument of a tool (an array of at most 4000 numbers within +-65504) as '
'a pgvector vector; 22023 otherwise.';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_search_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    query text := @schema@_internal.arg_text(args, 'query');
    mode text := coalesce(@schema@_internal.arg_text(args, 'mode'), 'hybrid');
    qv public.vector := @schema@_internal.arg_vector(args);
    prefix text := NULLIF(pg_catalog.rtrim(@schema@_internal.arg_text(args, 'keyPrefix'), '/'), '');
    weights jsonb := coalesce(args -> 'weights', '{}');
    result jsonb;
BEGIN
    IF mode NOT IN ('lexical', 'semantic', 'hybrid') THEN
        RAISE EXCEPTION 'facts_search: unknown mode %', @schema@_internal.shown(mode)
            USING ERRCODE = '22023', HINT = 'one of: lexical, semantic, hybrid';
    END IF;
    IF mode = 'semantic' AND qv IS NULL THEN
        RAISE EXCEPTION 'semantic search needs a query vector and its model'
            USING ERRCODE = '22023',
                  HINT = 'embed the query with your embedding model and pass vector and model, '
                         'or use mode lexical or hybrid';
    END IF;
    IF prefix IS NOT NULL AND NOT @schema@_internal.readable_by(prefix || '/', @schema@_internal.context_kind()) THEN
        RAISE EXCEPTION 'agent kind % may not search keys under %', @schema@_internal.context_kind(),
            @schema@_internal.shown(prefix)
            USING ERRCODE = '42501';
    END IF;
    IF coalesce(pg_catalog.btrim(query), '') = '' AND qv IS NULL THEN
        RETURN pg_catalog.jsonb_build_object('count', 0, 'mode', mode, 'facts', '[]'::jsonb);
    END IF;
    SELECT pg_catalog.jsonb_build_object('count', pg_catalog.count(*), 'mode', mode,
               'intent', @schema@.detect_intent(query) -> 'intent',
               'facts', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'key', s.key, 'scopeKey', s.ref, 'value', s.value, 'score', s.score,
                   'textRank', s.text_rank, 'vectorRank', s.vector_rank,
                   'similarity', s.similarity, 'stale', s.stale) ORDER BY s.ordinality), '[]'))
      INTO result
      FROM @schema@.search(
               query => query, query_vector => CASE WHEN mode <> 'lexical' THEN qv END,
               model => @schema@_internal.arg_text(args, 'model'),
               "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 20),
               scope => coalesce(@schema@_internal.arg_text(args, 'scope'), 'accessible'),
               item_kinds => '{fact}', key_prefix => prefix || '/',
               tags => @schema@_internal.arg_text_array(args, 'tags'),
               text_weight => CASE WHEN mode = 'semantic' THEN 0
                                   ELSE coalesce((weights ->> 'lexical')::real, 1) END,
               vector_weight => CASE WHEN mode = 'lexical' THEN 0
                                     ELSE coalesce((weights ->> 'semantic')::real, 1) END)
           WITH ORDINALITY AS s;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_search_tool(jsonb) IS
'The facts_search tool: {count, mode, intent, facts: [{key, scopeKey, value, score, textRank, '
'vectorRank, similarity, stale}]}; an empty query finds nothing.';

CREATE OR REPLACE FUNCTION @schema@_internal.facts_similar_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    result jsonb;
BEGIN
    IF @schema@_internal.arg_text(args, 'scopeKey') IS NULL THEN
        RAISE EXCEPTION 'facts_similar needs scopeKey' USING ERRCODE = '22023';
    END IF;
    SELECT pg_catalog.jsonb_build_object('count', pg_catalog.count(*),
               'mode', coalesce(pg_catalog.min(s.mode), 'semantic'),
               'facts', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'key', s.key, 'scopeKey', s.similar_scope_key, 'value', s.value,
                   'similarity', s.similarity, 'score', s.score) ORDER BY s.ordinality), '[]'))
      INTO result
      FROM @schema@.similar_facts(scope_key => @schema@_internal.arg_text(args, 'scopeKey'),
               k => coalesce(@schema@_internal.arg_int(args, 'k'), 8),
               model => @schema@_internal.arg_text(args, 'model'))
           WITH ORDINALITY AS s;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.facts_similar_tool(jsonb) IS
'The facts_similar tool: {count, mode, facts: [{key, scopeKey, value, similarity, score}]}; '
'an unknown or inaccessible anchor gives {count: 0, facts: []}.';

CREATE OR REPLACE FUNCTION @schema@_internal.search_skills_tool(args jsonb)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    result jsonb;
BEGIN
    SELECT pg_catalog.jsonb_build_object('count', pg_catalog.count(*),
               'skills', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'key', s.key, 'name', s.name, 'description', s.description,
                   'score', s.score) ORDER BY s.ordinality), '[]'))
      INTO result
      FROM @schema@.search_skills(query => @schema@_internal.arg_text(args, 'query'),
               query_vector => @schema@_internal.arg_vector(args),
               model => @schema@_internal.arg_text(args, 'model'),
               "limit" => coalesce(@schema@_internal.arg_int(args, 'limit'), 8))
           WITH ORDINALITY AS s;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.search_skills_tool(jsonb) IS
'The search_skills tool: {count, skills: [{key, name, description, score}]}.';

SELECT @schema@_internal.register_tool(
    layer => 'retrieval', name => 'facts_search', handler => '@schema@_internal.facts_search_tool',
    api_functions => '{"@schema@.search(text,public.vector,text,integer,text,text[],text,text[],text,timestamp with time zone,timestamp with time zone,real,real)"}',
    description => 'Search the facts you can read by meaning and words: a question in natural '
        'language works. Ranked best first; stale = superseded by newer knowledge.',
    -- The tags argument's caps come from tag_limits(), which search checks (check_tags).
    input_schema => pg_catalog.jsonb_set($json$
{"type": "object", "additionalProperties": false, "properties": {
  "query": {"type": "string", "maxLength": 1000, "description": "What to look for; quotes, OR and -word work as in a web search"},
  "mode": {"type": "string", "enum": ["lexical", "semantic", "hybrid"], "description": "Default hybrid (lexical only when no vector is passed)"},
  "scope": {"type": "string", "enum": ["accessible", "shared", "session", "descendants"], "description": "Default accessible"},
  "keyPrefix": {"type": "string", "description": "Only keys under this namespace, e.g. corpus/acme"},
  "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Max results (default 20)"},
  "weights": {"type": "object", "properties": {"lexical": {"type": "number", "minimum": 0}, "semantic": {"type": "number", "minimum": 0}}, "description": "Per-list weights of the fused score: each list's scores standardised over it, then weighted (default 1 and 1)"},
  "vector": {"type": "array", "maxItems": 4000, "items": {"type": "number"}, "description": "The query embedded by the caller's embedding model"},
  "model": {"type": "string", "description": "The registered model that embedded vector"}}}
$json$, '{properties,tags}', @schema@_internal.tags_schema('All listed tags must be present')),
    output_schema => $json$
{"type": "object", "properties": {"count": {"type": "integer"}, "mode": {"type": "string"}, "intent": {"type": "string"}, "facts": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}, "scopeKey": {"type": "string"}, "value": {}, "score": {"type": "number"}, "textRank": {"type": ["integer", "null"]}, "vectorRank": {"type": ["integer", "null"]}, "similarity": {"type": ["number", "null"]}, "stale": {"type": "boolean"}}, "required": ["key", "scopeKey", "value", "score", "textRank", "vectorRank", "similarity", "stale"]}}}, "required": ["count", "mode", "facts"]}
$json$,
    read_only => true, destructive => false, idempotent => true);

SELECT @schema@_internal.register_tool(
    layer => 'retrieval', name => 'facts_similar', handler => '@schema@_internal.facts_similar_tool',
    api_functions => '{"@schema@.similar_facts(text,integer,text)"}',
    description => 'Facts similar to one you know (by its scopeKey), the anchor excluded.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["scopeKey"], "properties": {
  "scopeKey": {"type": "string", "minLength": 1, "description": "The anchor fact, e.g. shared:skills/deploy"},
  "k": {"type": "integer", "minimum": 1, "maximum": 100, "description": "How many (default 8)"},
  "model": {"type": "string", "description": "Embedding model (default: the latest registered)"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"count": {"type": "integer"}, "mode": {"type": "string", "enum": ["semantic", "lexical"]}, "facts": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}, "scopeKey": {"type": "string"}, "value": {}, "similarity": {"type": ["number", "null"]}, "score": {"type": "number"}}, "required": ["key", "scopeKey", "value", "similarity", "score"]}}}, "required": ["count", "mode", "facts"]}
$json$,
    read_only => true, destructive => false, idempotent => true,
    available_when => '@schema@_internal.embeds');

SELECT @schema@_internal.register_tool(
    layer => 'retrieval', name => 'search_skills', handler => '@schema@_internal.search_skills_tool',
    api_functions => '{"@schema@.search_skills(text,public.vector,text,integer)"}',
    description => 'Find curated skills for a task or a question the context does not answer. '
        'Returns hints; read a skill''s full instructions before using it.',
    input_schema => $json$
{"type": "object", "additionalProperties": false, "required": ["query"], "properties": {
  "query": {"type": "string", "minLength": 1, "maxLength": 1000, "description": "The task or question"},
  "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Max results (default 8)"},
  "vector": {"type": "array", "maxItems": 4000, "items": {"type": "number"}, "description": "The query embedded by the caller's embedding model"},
  "model": {"type": "string", "description": "The registered model that embedded vector"}}}
$json$,
    output_schema => $json$
{"type": "object", "properties": {"count": {"type": "integer"}, "skills": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}, "name": {"type": ["string", "null"]}, "description": {"type": ["string", "null"]}, "score": {"type": "number"}}, "required": ["key", "name", "description", "score"]}}}, "required": ["count", "skills"]}
$json$,
    read_only => true, destructive => false, idempotent => true);
