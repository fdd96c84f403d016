-- From a question to a full-text query: content words decide, stop words and temporal cue
-- words only inform intent; quotes, OR and -word keep websearch_to_tsquery semantics.

CREATE OR REPLACE FUNCTION @schema@_internal.query_max_length()
RETURNS integer
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 1000
$fn$;

COMMENT ON FUNCTION @schema@_internal.query_max_length() IS
'The longest search query accepted, in characters (1000); longer is refused with 22023.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_query(query text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.length(query) > @schema@_internal.query_max_length() THEN
        RAISE EXCEPTION 'query is longer than % characters', @schema@_internal.query_max_length()
            USING ERRCODE = '22023', DETAIL = pg_catalog.format('length %s', pg_catalog.length(query)),
                  HINT = 'search with the words that matter; a whole document is not a query';
    END IF;
    RETURN coalesce(query, '');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_query(text) IS
'Raise 22023 for a query longer than query_max_length(); NULL becomes the empty query.';

CREATE OR REPLACE FUNCTION @schema@_internal.query_stop_words()
RETURNS text []
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Function words, question words and the temporal cue words detect_intent reads: they
    -- say what kind of answer is wanted, not which rows hold it. Short content words (go,
    -- sql, npm, api, kpi) are not here, so they are found.
    SELECT ARRAY[
        'a', 'an', 'the', 'and', 'or', 'but', 'if', 'of', 'at', 'by', 'for', 'with', 'about',
        'to', 'from', 'in', 'on', 'into', 'onto', 'off', 'over', 'under', 'as', 'than', 'so',
        'i', 'me', 'my', 'we', 'our', 'you', 'your', 'he', 'him', 'his', 'she', 'her', 'hers',
        'it', 'its', 'they', 'them', 'their', 'theirs', 'this', 'that', 'these', 'those',
        'what', 'which', 'who', 'whom', 'whose', 'where', 'when', 'why', 'how', 'whats',
        'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'doing',
        'done', 'have', 'has', 'had', 'having', 'can', 'could', 'will', 'would', 'shall',
        'should', 'may', 'might', 'must', 'there', 'here', 'any', 'some', 'all', 'both',
        'each', 'other', 'such', 'own', 'same', 'too', 'very', 'just', 'also', 'again',
        'tell', 'know', 'please', 'us', 's', 't', 'd', 'll', 're', 've', 'm', 'not', 'no',
        'don', 'doesn', 'didn', 'isn', 'wasn', 'aren', 'weren', 'never', 'nor',
        -- temporal cues
        'now', 'currently', 'current', 'today', 'nowadays', 'still', 'anymore', 'longer',
        'used', 'previously', 'previous', 'formerly', 'former', 'before', 'earlier', 'ago',
        'originally', 'original', 'then', 'since', 'once', 'yet', 'latest', 'recently',
        'recent', 'past', 'present', 'presently', 'moment', 'days', 'back', 'ever', 'until',
        'changed', 'changes', 'compare', 'compared', 'old', 'anything', 'something', 'thing',
        'things', 'happened'
    ]
$fn$;

COMMENT ON FUNCTION @schema@_internal.query_stop_words() IS
'Words removed from the match of a natural-language query (function, question and temporal '
'cue words); detect_intent still reads them.';

CREATE OR REPLACE FUNCTION @schema@_internal.negation_query()
RETURNS tsquery
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 'not | no | never | nor | without | cannot | don | doesn | didn | isn | wasn | aren | won'::tsquery
$fn$;

COMMENT ON FUNCTION @schema@_internal.negation_query() IS
'The negation words (as written, simple configuration) that make a text say the opposite.';

-- pairs came with word order as a tie-break (a changed result: the old one goes).
DROP FUNCTION IF EXISTS @schema@_internal.parse_query(text);
CREATE OR REPLACE FUNCTION @schema@_internal.parse_query(
    query text, OUT match tsquery, OUT words tsquery [], OUT negated boolean, OUT pairs tsquery
)
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    q text := pg_catalog.btrim(@schema@_internal.check_query(query));
    word_query tsquery;
BEGIN
    words := '{}';
    negated := pg_catalog.to_tsvector('simple'::regconfig, q) @@ @schema@_internal.negation_query();
    IF q ~ '"' OR q ~ '(^|\s)OR(\s|$)' OR q ~ '(^|\s)-\w' THEN
        -- Websearch syntax: phrases, OR and exclusions mean what they say.
        -- A quoted phrase means these words as written; otherwise stemmed forms count too.
        match := pg_catalog.websearch_to_tsquery('simple'::regconfig, q);
        IF q !~ '"' THEN
            match := match || pg_catalog.websearch_to_tsquery('english'::regconfig, q);
        END IF;
        IF pg_catalog.numnode(match) > 0 THEN
            words := ARRAY[match];
        ELSE
            match := NULL;
        END IF;
        RETURN;
    END IF;
    -- A question: each content word matches as written or stemmed; rows rank by how many
    -- content words they hold (ranked OR). No content word, no match (NULL).
    -- (One query for every word: a query a word was a tenth of a small search.)
    FOR word_query IN
        SELECT (SELECT coalesce(pg_catalog.quote_literal(l.lexeme)::tsquery
                                || pg_catalog.string_agg(pg_catalog.quote_literal(s), ' | ')::tsquery,
                                pg_catalog.quote_literal(l.lexeme)::tsquery)
                  FROM pg_catalog.unnest(pg_catalog.tsvector_to_array(
                           pg_catalog.to_tsvector('english'::regconfig, l.lexeme))) AS s
                 WHERE s <> l.lexeme)
          FROM pg_catalog.unnest(pg_catalog.to_tsvector('simple'::regconfig, q)) AS l
         WHERE NOT l.lexeme = ANY (@schema@_internal.query_stop_words())
         ORDER BY l.positions[1]
    LOOP
        words := words || word_query;
        match := CASE WHEN match IS NULL THEN word_query ELSE match || word_query END;
    END LOOP;
    -- Word order: each content word followed by a stop word ("work as", "lives in", "moved
    -- from"), the content word as written or stemmed, by prefix. Content words alone cannot
    -- tell "works as a dentist" from "works at Acme" for "what did she work as?"; a row
    -- holding one of the pairs ranks first among those holding as many words (text_score).
    -- A stop word before a content word ("the island", "did Greta") says little of the
    -- answer. The first eight pairs: each is a phrase test of every matching row.
    WITH tokens AS (
        SELECT t.pos, CASE WHEN t.stop THEN pg_catalog.quote_literal(t.word)
                           ELSE pg_catalog.quote_literal(coalesce(
                                    (SELECT pg_catalog.min(e) FROM pg_catalog.unnest(
                                         pg_catalog.tsvector_to_array(pg_catalog.to_tsvector(
                                             'english'::regconfig, t.word))) AS e),
                                    t.word)) || ':*' END AS term,
               t.stop
          FROM (SELECT l.lexeme AS word, n.pos,
                       l.lexeme = ANY (@schema@_internal.query_stop_words()) AS stop
                  FROM pg_catalog.unnest(pg_catalog.to_tsvector('simple'::regconfig, q)) AS l,
                       pg_catalog.unnest(l.positions) AS n (pos)) AS t)
    SELECT pg_catalog.string_agg(p.phrase, ' | ' ORDER BY p.pos)::tsquery
      INTO pairs
      FROM (SELECT a.pos, a.term || ' <-> ' || b.term AS phrase
              FROM tokens AS a
              JOIN tokens AS b ON b.pos = a.pos + 1 AND NOT a.stop AND b.stop
             ORDER BY a.pos
             LIMIT 8) AS p;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.parse_query(text) IS
'A search query as a tsquery (match: NULL when only stop words remain), the query of each '
'content word (words; ranking counts how many a row holds), whether the query itself is '
'negated, and pairs: phrases of a content word followed by a stop word, as in the question '
'(NULL when none; a tie-break of ranking). Quotes, OR and -word switch to '
'websearch_to_tsquery (no pairs). 22023 past the length limit.';

CREATE OR REPLACE FUNCTION @schema@_internal.words_held(doc tsvector, words tsquery [])
RETURNS bigint
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.count(*) FROM pg_catalog.unnest(words) AS w WHERE doc @@ w
$fn$;

COMMENT ON FUNCTION @schema@_internal.words_held(tsvector, tsquery []) IS
'How many of the word queries a document matches (text_score''s count past its eighth word).';

-- Inlined (no SET clause, every name qualified; tests/lint_sql.py lists it): called for every
-- row a question matches, where a call of its own (as a SQL function with a sub-select it
-- was not inlined) cost more than the ranking: thousands of calls when a common word
-- matches thousands of rows. The words a row holds are counted term by term for the first
-- eight, each a value of its own (a question's content words seldom pass that; a term past
-- the words is NULL and counts 0), the rest (more) by words_held. A plan kept for a
-- session (the text candidates') passes the eight as values: taken from the array in every
-- row, they cost a tenth of a common word's search.
CREATE OR REPLACE FUNCTION @schema@_internal.text_score_of(
    doc tsvector, match tsquery, w1 tsquery, w2 tsquery, w3 tsquery, w4 tsquery, w5 tsquery,
    w6 tsquery, w7 tsquery, w8 tsquery, more tsquery [], word_count integer, negated boolean,
    pairs tsquery
) RETURNS real
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- The share of content words a row holds decides; holding one of the question's word
    -- pairs (parse_query: "work as") and then ts_rank order rows that hold as many (0.02 is
    -- less than a word's share for questions of up to 50 content words); a row that negates
    -- what an affirmative query asks for ranks below one that does not ("does not like
    -- coffee" below "likes coffee").
    -- (OPERATOR() takes no precedence of its own: the parentheses give it.)
    SELECT ((((((((((((CASE WHEN doc OPERATOR(pg_catalog.@@) w1 THEN 1 ELSE 0 END
              OPERATOR(pg_catalog.+) CASE WHEN doc OPERATOR(pg_catalog.@@) w2 THEN 1 ELSE 0 END)
              OPERATOR(pg_catalog.+) CASE WHEN doc OPERATOR(pg_catalog.@@) w3 THEN 1 ELSE 0 END)
              OPERATOR(pg_catalog.+) CASE WHEN doc OPERATOR(pg_catalog.@@) w4 THEN 1 ELSE 0 END)
              OPERATOR(pg_catalog.+) CASE WHEN doc OPERATOR(pg_catalog.@@) w5 THEN 1 ELSE 0 END)
              OPERATOR(pg_catalog.+) CASE WHEN doc OPERATOR(pg_catalog.@@) w6 THEN 1 ELSE 0 END)
              OPERATOR(pg_catalog.+) CASE WHEN doc OPERATOR(pg_catalog.@@) w7 THEN 1 ELSE 0 END)
              OPERATOR(pg_catalog.+) CASE WHEN doc OPERATOR(pg_catalog.@@) w8 THEN 1 ELSE 0 END)
              OPERATOR(pg_catalog.+) CASE WHEN word_count OPERATOR(pg_catalog.>) 8
                                          THEN @schema@_internal.words_held(doc, more) ELSE 0 END)
             )::pg_catalog.float4 OPERATOR(pg_catalog./) greatest(word_count, 1))
             OPERATOR(pg_catalog.+) CASE WHEN doc OPERATOR(pg_catalog.@@) pairs THEN 0.02 ELSE 0 END
             OPERATOR(pg_catalog.+) (0.1 OPERATOR(pg_catalog.*) pg_catalog.ts_rank(doc, match, 1)))
            OPERATOR(pg_catalog.*)
            CASE WHEN NOT negated AND doc OPERATOR(pg_catalog.@@) @schema@_internal.negation_query()
                 THEN 0.75 ELSE 1 END)::pg_catalog.float4
$fn$;

COMMENT ON FUNCTION @schema@_internal.text_score_of(
    tsvector, tsquery, tsquery, tsquery, tsquery, tsquery, tsquery, tsquery, tsquery, tsquery,
    tsquery [], integer, boolean, tsquery) IS
'text_score with the first eight word queries as values (w1..w8, NULL past the words), the '
'rest (more) and the count of words apart: for a plan kept for a session. (inlined)';

-- The word queries of text_score_of's arguments as values, taken from the array once.
CREATE OR REPLACE FUNCTION @schema@_internal.word_values(
    words tsquery [], OUT w1 tsquery, OUT w2 tsquery, OUT w3 tsquery, OUT w4 tsquery,
    OUT w5 tsquery, OUT w6 tsquery, OUT w7 tsquery, OUT w8 tsquery, OUT more tsquery [],
    OUT word_count integer
)
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT words[1], words[2], words[3], words[4], words[5], words[6], words[7], words[8],
           words[9:], pg_catalog.cardinality(words)
$fn$;

COMMENT ON FUNCTION @schema@_internal.word_values(tsquery []) IS
'The first eight word queries of a question (NULL past its words), the rest, and how many: '
'text_score_of''s arguments for a caller that keeps its plan.';

-- Inlined (no SET clause, every name qualified): text_score_of of the words as an array.
-- pairs came with word order as a tie-break (a changed signature: the old one goes).
DROP FUNCTION IF EXISTS @schema@_internal.text_score(tsvector, tsquery, tsquery [], boolean);
CREATE OR REPLACE FUNCTION @schema@_internal.text_score(
    doc tsvector, match tsquery, words tsquery [], negated boolean, pairs tsquery DEFAULT NULL
) RETURNS real
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT @schema@_internal.text_score_of(doc, match, words[1], words[2], words[3], words[4],
               words[5], words[6], words[7], words[8], words[9:],
               pg_catalog.cardinality(words), negated, pairs)
$fn$;

COMMENT ON FUNCTION @schema@_internal.text_score(tsvector, tsquery, tsquery [], boolean, tsquery) IS
'The lexical score of a row: share of content words held, then whether it holds one of the '
'query''s word pairs (0.02), then ts_rank, times 0.75 when the row negates and the query does '
'not. (inlined)';
