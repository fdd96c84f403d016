-- Cypher over the projection: a catalogue of named queries whose Cypher text is a constant
-- here; a caller names one and passes its values, which reach AGE as its agtype parameter,
-- never as Cypher text. Every pattern is labeled, directed and of fixed length (AGE 1.5
-- rebuilds a per-backend cache of the whole graph for a variable-length path).

CREATE OR REPLACE FUNCTION @schema@_internal.graph_query_text(name text, hops integer)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE name
        WHEN 'directed_paths' THEN CASE hops
            WHEN 1 THEN 'MATCH (a:node {key: $from})-[e1:edge]->(b:node {key: $to}) '
                        'RETURN {nodes: [a.key, b.key], predicates: [e1.predicate]}'
            WHEN 2 THEN 'MATCH (a:node {key: $from})-[e1:edge]->(m1:node)-[e2:edge]->'
                        '(b:node {key: $to}) '
                        'RETURN {nodes: [a.key, m1.key, b.key], '
                        'predicates: [e1.predicate, e2.predicate]}'
            WHEN 3 THEN 'MATCH (a:node {key: $from})-[e1:edge]->(m1:node)-[e2:edge]->'
                        '(m2:node)-[e3:edge]->(b:node {key: $to}) '
                        'RETURN {nodes: [a.key, m1.key, m2.key, b.key], '
                        'predicates: [e1.predicate, e2.predicate, e3.predicate]}'
        END
        WHEN 'common_neighbours' THEN
            'MATCH (a:node {key: $a})-[:edge]->(c:node)<-[:edge]-(b:node {key: $b}) '
            'RETURN DISTINCT {key: c.key, kind: c.kind}'
        WHEN 'subgraph_by_predicate' THEN
            'MATCH (a:node)-[e:edge {predicate: $predicate}]->(b:node) '
            'RETURN {from: a.key, to: b.key, confidence: e.confidence}'
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_query_text(text, integer) IS
'The constant Cypher text of a named graph query (hops for directed_paths), NULL for an '
'unknown name.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_query_params(name text, params jsonb)
RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    keys text [] := CASE name WHEN 'directed_paths' THEN '{from,to}'
                              WHEN 'common_neighbours' THEN '{a,b}'
                              WHEN 'subgraph_by_predicate' THEN '{predicate}' END;
    k text;
    checked jsonb := '{}';
BEGIN
    -- The parameters a query takes, checked: its text keys (1..1024 bytes, no NUL), and
    -- hops (directed_paths, 1..3, default 2) and limit (1..1000, default 100).
    IF keys IS NULL THEN
        RAISE EXCEPTION 'unknown graph query %', @schema@_internal.shown(name) USING
            ERRCODE = '22023', HINT = 'one of directed_paths, common_neighbours, subgraph_by_predicate';
    END IF;
    params := coalesce(params, '{}');
    IF pg_catalog.jsonb_typeof(params) <> 'object' THEN
        RAISE EXCEPTION 'params must be a JSON object' USING ERRCODE = '22023';
    END IF;
    FOR k IN SELECT pg_catalog.jsonb_object_keys(params) LOOP
        IF NOT (k = ANY (keys) OR k = 'limit' OR (k = 'hops' AND name = 'directed_paths')) THEN
            RAISE EXCEPTION 'graph query % takes no parameter %', name, @schema@_internal.shown(k)
                USING ERRCODE = '22023', HINT = 'it takes ' || pg_catalog.array_to_string(keys, ', ')
                                                || ', limit' || CASE WHEN name = 'directed_paths'
                                                                     THEN ', hops' ELSE '' END;
        END IF;
    END LOOP;
    FOREACH k IN ARRAY keys LOOP
        IF pg_catalog.jsonb_typeof(params -> k) IS DISTINCT FROM 'string'
           OR pg_catalog.octet_length(params ->> k) NOT BETWEEN 1 AND 1024 THEN
            RAISE EXCEPTION 'graph query % needs % as a string of 1 to 1024 bytes', name, k
                USING ERRCODE = '22023';
        END IF;
        checked := checked || pg_catalog.jsonb_build_object(k, params ->> k);
    END LOOP;
    RETURN checked || pg_catalog.jsonb_build_object(
        'hops', @schema@_internal.graph_query_integer(params -> 'hops', 'hops', 1, 3, 2),
        'limit', @schema@_internal.graph_query_integer(params -> 'limit', 'limit', 1, 1000, 100));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_query_params(text, jsonb) IS
'The checked parameters of a named graph query (22023 for an unknown name, a parameter it '
'does not take, or a value out of range).';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_query_integer(
    value jsonb, name text, low integer, high integer, fallback integer
) RETURNS integer
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF value IS NULL OR value = 'null' THEN
        RETURN fallback;
    END IF;
    IF pg_catalog.jsonb_typeof(value) <> 'number' OR value::text !~ '^[0-9]{1,7}$' THEN
        RAISE EXCEPTION '% must be an integer from % to %', name, low, high USING ERRCODE = '22023';
    END IF;
    -- The range by the one rule for counts (its message names the value too).
    RETURN @schema@_internal.check_limit(value::text::integer, name, low, high);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_query_integer(jsonb, text, integer, integer, integer) IS
'An integer parameter of a graph query within [low, high], fallback when absent (22023 '
'otherwise).';

CREATE OR REPLACE FUNCTION @schema@.graph_cypher(name text, params jsonb DEFAULT '{}')
RETURNS jsonb
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, ag_catalog, pg_temp
AS $fn$
DECLARE
    checked jsonb := @schema@_internal.graph_query_params(name, params);
    graph text := @schema@_internal.graph_projection_name_of(@schema@_internal.context_tenant());
    state text := @schema@_internal.graph_projection_state(graph);
    result jsonb;
BEGIN
    IF name = 'subgraph_by_predicate' THEN
        checked := checked || pg_catalog.jsonb_build_object(
            'predicate', @schema@_internal.predicate_key_of(checked ->> 'predicate'));
    END IF;
    IF state = 'missing' THEN
        RETURN '[]';  -- nothing projected yet: the worker builds it on its next pass
    ELSIF state = 'broken' THEN
        RAISE EXCEPTION 'the graph projection % needs a rebuild', graph USING ERRCODE = '55000',
            HINT = 'run rebuild_graph_projection() (after a restore: apache/age#2503)';
    END IF;
    -- The owner runs the constant text on the caller's tenant's graph; values go as $1.
    EXECUTE pg_catalog.format(
        'SELECT coalesce(pg_catalog.jsonb_agg(ag_catalog.agtype_out(r.v)::text::jsonb), ''[]'') '
        'FROM (SELECT v FROM ag_catalog.cypher(%L, $cy$%s$cy$, $1) AS (v ag_catalog.agtype) '
        'LIMIT $2) AS r',
        graph, @schema@_internal.graph_query_text(name, (checked ->> 'hops')::integer))
      INTO result
      USING ((checked - 'hops' - 'limit')::text)::ag_catalog.agtype, (checked ->> 'limit')::integer;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION @schema@.graph_cypher(text, jsonb) IS
'Every kind: run a named Cypher query over the caller''s tenant''s AGE projection: '
'directed_paths {from, to, hops 1..3 (2)}: fixed-length directed paths between two node '
'keys; common_neighbours {a, b}: nodes both point to; subgraph_by_predicate {predicate}: '
'the edges of a predicate; each with limit 1..1000 (100). Returns a JSON array of rows. '
'The projection lags the tables by the worker''s interval. Errors: 22023 unknown name or '
'bad params, 55000 a projection that needs a rebuild.';
