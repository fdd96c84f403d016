-- Candidate queries: who sees what, decided inside each query, before ranking and LIMIT.
--
-- Under row level security the planner may not use @@, <=> or % (not leakproof) as index
-- conditions, so these functions are owned by @schema@_searcher (NOLOGIN, BYPASSRLS) and
-- apply the tenant and read_facts' visibility (fact_visible) themselves. They take the tenant as an
-- argument, so only the owner (the API's SECURITY DEFINER functions, which take it from
-- the checked caller context) may execute them.

-- Inlined (no SET clause, every name qualified; tests/lint_sql.py lists it).
-- expires_at came with knowledge expiry (migration 0051; a changed signature: the old one goes).
DROP FUNCTION IF EXISTS @schema@_internal.claim_in_view(
    tstzrange, tstzrange, text, boolean, timestamptz, timestamptz, boolean);
CREATE OR REPLACE FUNCTION @schema@_internal.claim_in_view(
    system_time tstzrange, valid tstzrange, retired_reason text, expires_at timestamptz,
    history boolean, valid_at timestamptz, known_at timestamptz, any_valid boolean DEFAULT false
) RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    -- Believed at known_at (now: still believed) and true at valid_at (default now); with
    -- history, every version ever believed up to known_at, retired ones included (only
    -- outranked ones never answer), true at valid_at only when valid_at is given. any_valid
    -- drops the valid-time condition (search_claims: every claim believed now). Never an
    -- expired row (expired by known_at, or now: claim_unexpired's rule, written out here).
    SELECT (expires_at IS NULL
            OR expires_at OPERATOR(pg_catalog.>) coalesce(known_at, pg_catalog.now()))
       AND CASE WHEN history
                THEN retired_reason IS DISTINCT FROM 'outranked'
                     -- [t, t]: recorded and retired by one transaction, never believed
                     AND NOT pg_catalog.upper_inc(system_time)
                     AND (known_at IS NULL
                          OR pg_catalog.lower(system_time) OPERATOR(pg_catalog.<=) known_at)
                     AND (valid_at IS NULL OR valid OPERATOR(pg_catalog.@>) valid_at)
                ELSE (CASE WHEN known_at IS NULL THEN pg_catalog.upper_inf(system_time)
                           ELSE system_time OPERATOR(pg_catalog.@>) known_at
                                AND NOT pg_catalog.upper_inc(system_time) END)
                     AND (any_valid OR valid OPERATOR(pg_catalog.@>) coalesce(valid_at, pg_catalog.now()))
           END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_in_view(
    tstzrange, tstzrange, text, timestamptz, boolean, timestamptz, timestamptz, boolean) IS
'Whether a claim version answers (inlined): believed at known_at and valid at valid_at '
'(both default now), not expired by then; with history every version believed up to '
'known_at except outranked.';

-- Never inlined (the planner inlines no body with a sub-select), so its search path is set.
CREATE OR REPLACE FUNCTION @schema@_internal.claim_retracted(
    for_tenant text, assertion text, known_at timestamptz
) RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    -- Whether the assertion stands retracted (now, or at known_at: retracted by then and
    -- not restored by then). A retraction says the assertion was an error, never true, so
    -- no version of it answers a question about the past either: not the rows the
    -- retraction retired, nor the earlier ones a later value had superseded. A retraction
    -- and a restore carry their commit instants, so the answer for a known instant never
    -- changes.
    SELECT CASE WHEN known_at IS NULL
                THEN EXISTS (SELECT 1 FROM @schema@_internal.retractions AS r
                              WHERE r.tenant OPERATOR(pg_catalog.=) for_tenant
                                AND r.assertion OPERATOR(pg_catalog.=) claim_retracted.assertion
                                AND r.restored_at IS NULL)
                ELSE EXISTS (SELECT 1 FROM @schema@_internal.retractions AS r
                              WHERE r.tenant OPERATOR(pg_catalog.=) for_tenant
                                AND r.assertion OPERATOR(pg_catalog.=) claim_retracted.assertion
                                AND r.retracted_at OPERATOR(pg_catalog.<=) known_at
                                AND (r.restored_at IS NULL
                                     OR r.restored_at OPERATOR(pg_catalog.>) known_at))
           END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_retracted(text, text, timestamptz) IS
'Whether an assertion stands retracted now, or at known_at (retracted by then, not restored '
'by then): no version of it answers, whatever the intent.';

-- Inlined (no SET clause, every name qualified): a claim version in view (claim_in_view) that
-- is no version of an assertion standing retracted when history is asked for (a retraction
-- says it was never true); the rule of every search's claims, by text and by vector.
CREATE OR REPLACE FUNCTION @schema@_internal.claim_answers(
    for_tenant text, system_time tstzrange, valid tstzrange, retired_reason text,
    expires_at timestamptz, assertion text, history boolean, valid_at timestamptz,
    known_at timestamptz, any_valid boolean DEFAULT false
) RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT @schema@_internal.claim_in_view(system_time, valid, retired_reason, expires_at,
                                           history, valid_at, known_at, any_valid)
       AND NOT (history AND @schema@_internal.claim_retracted(for_tenant, assertion, known_at))
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_answers(
    text, tstzrange, tstzrange, text, timestamptz, text, boolean, timestamptz, timestamptz,
    boolean) IS
'Whether a claim version answers a search: in view (claim_in_view) and, with history, of no '
'assertion that stands retracted (claim_retracted). (inlined)';

-- Who sees which facts is working memory's rule (fact_visibility, fact_visible in
-- sql/10_memory/10_helpers.sql); a search takes it from reader_visibility.
DROP FUNCTION IF EXISTS @schema@_internal.search_access(text);

SET LOCAL ROLE @schema@_searcher;

-- version_id came with known_at's reading of the history, pairs with word order as a
-- tie-break (changed results and signatures: the old ones go).
DROP FUNCTION IF EXISTS @schema@_internal.fact_text_candidates(
    text, text, boolean, boolean, text [], tsquery, tsquery [], boolean, text, text [],
    timestamptz, integer);
CREATE OR REPLACE FUNCTION @schema@_internal.fact_text_candidates(
    for_tenant text, kind text, with_shared boolean, every_session boolean, sessions text [],
    match tsquery, words tsquery [], negated boolean, key_prefix text, want_tags text [],
    known_at timestamptz, lim integer, pairs tsquery DEFAULT NULL
) RETURNS TABLE (item_id bigint, version_id bigint, score real)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
-- A limited list: the planner joins it to the tables by primary key, not by a scan.
ROWS 50
SET search_path = pg_catalog, pg_temp
-- The live rows' query is planned once a session (planning it per call was 0.3 to 0.5 ms, most
-- of a search over a small tenant). The tenant compared under collation "C" keeps that one
-- plan right for every tenant: facts_search_idx (migration 0056) is the only index that can
-- take it, so no plan reads a large tenant through a tenant B-tree.
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
    -- The word queries as values for text_score_of (the kept plan would take each from the
    -- array in every row).
    w record := @schema@_internal.word_values(words);
BEGIN
    IF known_at IS NULL THEN
        RETURN QUERY
        SELECT f.fact_id, NULL::bigint,
               @schema@_internal.text_score_of(f.search_doc, fact_text_candidates.match,
                   w.w1, w.w2, w.w3, w.w4, w.w5, w.w6, w.w7, w.w8, w.more, w.word_count,
                   fact_text_candidates.negated, fact_text_candidates.pairs)
          FROM @schema@_internal.facts AS f
         WHERE f.tenant COLLATE "C" = fact_text_candidates.for_tenant AND f.deleted_at IS NULL
           AND f.search_doc @@ fact_text_candidates.match
           AND @schema@_internal.fact_visible(f.shared, f.session_id, f.key, f.expires_at,
                   fact_text_candidates.kind, fact_text_candidates.with_shared,
                   fact_text_candidates.every_session, fact_text_candidates.sessions)
           AND (fact_text_candidates.key_prefix IS NULL
                OR pg_catalog.starts_with(f.key, fact_text_candidates.key_prefix))
           AND (fact_text_candidates.want_tags IS NULL OR f.tags @> fact_text_candidates.want_tags)
         ORDER BY 3 DESC, f.fact_id DESC
         LIMIT fact_text_candidates.lim;
        RETURN;
    END IF;
    -- As of known_at: what read_facts(known_at) shows (facts_as_of). A row still current is
    -- matched by its stored document through the index; a version of the history has no
    -- stored document: its document is built from its fields as the write triggers build
    -- one, for the versions current at known_at only (the GiST index of the history finds
    -- them by tenant and instant). EXECUTE: planned for this call's tenant and instant.
    RETURN QUERY EXECUTE $q$
    SELECT a.fact_id, a.version_id, @schema@_internal.text_score(a.doc, $6, $7, $8, $13)
      FROM (SELECT f.fact_id, f.version_id, f.shared, f.session_id, f.key, f.tags,
                   CASE WHEN f.archived
                        THEN @schema@_internal.fact_search_doc(f.key, f.value, f.tags)
                        ELSE f.search_doc END AS doc
              FROM @schema@_internal.facts_as_of($1, $11) AS f) AS a
     WHERE a.doc @@ $6
       AND @schema@_internal.fact_visible(a.shared, a.session_id, a.key, NULL, $2, $3, $4, $5)
       AND ($9::text IS NULL OR pg_catalog.starts_with(a.key, $9))
       AND ($10::text [] IS NULL OR a.tags @> $10)
     ORDER BY 3 DESC, a.fact_id DESC
     LIMIT $12 $q$
    USING for_tenant, kind, with_shared, every_session, sessions, match, words, negated,
          key_prefix, want_tags, known_at, lim, pairs;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_text_candidates(
    text, text, boolean, boolean, text [], tsquery, tsquery [], boolean, text, text [],
    timestamptz, integer, tsquery) IS
'The best lim facts of a tenant matching a query that the caller may see, by text_score: the '
'live ones, or with known_at the versions read_facts(known_at) shows (facts_as_of; version_id '
'names a version of the history) (owner only: the tenant is an argument).';

-- audit came with retracted rows never answering, pairs with word order as a tie-break
-- (changed signatures: the old ones go).
DROP FUNCTION IF EXISTS @schema@_internal.claim_text_candidates(
    text, tsquery, tsquery [], boolean, real, boolean, timestamptz, timestamptz, integer,
    boolean);
DROP FUNCTION IF EXISTS @schema@_internal.claim_text_candidates(
    text, tsquery, tsquery [], boolean, real, boolean, timestamptz, timestamptz, integer,
    boolean, boolean);
CREATE OR REPLACE FUNCTION @schema@_internal.claim_text_candidates(
    for_tenant text, match tsquery, words tsquery [], negated boolean, floor real,
    history boolean, valid_at timestamptz, known_at timestamptz, lim integer,
    any_valid boolean DEFAULT false, audit boolean DEFAULT false, pairs tsquery DEFAULT NULL
) RETURNS TABLE (item_id bigint, score real)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
-- A limited list: the planner joins it to the tables by primary key, not by a scan.
ROWS 50
SET search_path = pg_catalog, pg_temp
-- Planned once a session, right for every tenant: as fact_text_candidates (the tenant under
-- collation "C" only claims_search_doc_idx can take, migration 0056).
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
    -- As in fact_text_candidates: the word queries as values for text_score_of.
    w record := @schema@_internal.word_values(words);
BEGIN
    -- An answer (audit false): claim_answers. An audit: every row recorded by known_at,
    -- retracted, outranked and never believed ones included.
    RETURN QUERY
    SELECT c.claim_id,
           @schema@_internal.text_score_of(c.search_doc, claim_text_candidates.match,
               w.w1, w.w2, w.w3, w.w4, w.w5, w.w6, w.w7, w.w8, w.more, w.word_count,
               claim_text_candidates.negated, claim_text_candidates.pairs)
      FROM @schema@_internal.claims AS c
     WHERE c.tenant COLLATE "C" = claim_text_candidates.for_tenant
       AND c.search_doc @@ claim_text_candidates.match
       AND c.confidence >= claim_text_candidates.floor
       AND CASE WHEN claim_text_candidates.audit
                THEN claim_text_candidates.known_at IS NULL
                     OR pg_catalog.lower(c.system_time) <= claim_text_candidates.known_at
                ELSE @schema@_internal.claim_answers(claim_text_candidates.for_tenant,
                         c.system_time, c.valid, c.retired_reason, c.expires_at, c.assertion,
                         claim_text_candidates.history, claim_text_candidates.valid_at,
                         claim_text_candidates.known_at, claim_text_candidates.any_valid)
           END
     ORDER BY 2 DESC, c.claim_id DESC
     LIMIT claim_text_candidates.lim;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_text_candidates(
    text, tsquery, tsquery [], boolean, real, boolean, timestamptz, timestamptz, integer,
    boolean, boolean, tsquery) IS
'The best lim claims of a tenant matching a query, of at least floor confidence, by '
'text_score: in view (claim_in_view; with history, none of a retracted assertion: '
'claim_retracted), or with audit every row recorded by known_at (owner only: the tenant is '
'an argument).';

CREATE OR REPLACE FUNCTION @schema@_internal.key_candidates(
    for_tenant text, kind text, with_shared boolean, every_session boolean, sessions text [],
    pattern text, lim integer
) RETURNS TABLE (item_id bigint, similarity real)
LANGUAGE sql
STABLE
SECURITY DEFINER
-- A limited list: the planner joins it to the tables by primary key, not by a scan.
ROWS 50
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT f.fact_id, public.similarity(f.key, pattern)
      FROM @schema@_internal.facts AS f
     WHERE f.tenant = for_tenant AND f.deleted_at IS NULL
       AND f.key OPERATOR(public.%) pattern
       AND @schema@_internal.fact_visible(f.shared, f.session_id, f.key, f.expires_at, kind,
                                          with_shared, every_session, sessions)
     ORDER BY 2 DESC, f.key
     LIMIT lim
$fn$;

COMMENT ON FUNCTION @schema@_internal.key_candidates(
    text, text, boolean, boolean, text [], text, integer) IS
'Live facts the caller may see whose key is trigram-similar to pattern, most similar first '
'(owner only: the tenant is an argument).';


-- The entities a question names: by name (any case; entities_names_idx) or by an alias as
-- written (entities_aliases_idx), as a run of one to four of its words ("Tobias's" names
-- Tobias); a run of stop words names none. search ranks the rows about them first.
CREATE OR REPLACE FUNCTION @schema@_internal.named_entities(
    for_tenant text, query text, OUT ids bigint [], OUT names text []
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
-- Planned once a session: no index keyed by the tenant alone takes the tenant under collation
-- "C" (migration 0057), so the one plan goes by name (entities_names_idx, the tenant an index
-- condition) and by alias (entities_aliases_idx), never through a tenant's every entity.
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
    words text [] := ARRAY(
        SELECT w FROM pg_catalog.regexp_split_to_table(
                   pg_catalog.regexp_replace(pg_catalog.left(query, @schema@_internal.query_max_length()),
                                             '[''’]s?(?=[^[:alnum:]]|$)', '', 'g'),
                   '[^[:alnum:]''-]+') AS w
         WHERE w <> '');
    runs text [];
BEGIN
    runs := ARRAY(SELECT pg_catalog.array_to_string(words[i:i + n - 1], ' ')
                    FROM pg_catalog.generate_subscripts(words, 1) AS i,
                         pg_catalog.generate_series(1, 4) AS n
                   WHERE i + n - 1 <= pg_catalog.cardinality(words)
                     AND NOT pg_catalog.string_to_array(pg_catalog.lower(
                             pg_catalog.array_to_string(words[i:i + n - 1], ' ')), ' ')
                         <@ @schema@_internal.query_stop_words());
    IF pg_catalog.cardinality(runs) = 0 THEN
        RETURN;
    END IF;
    SELECT pg_catalog.array_agg(DISTINCT e.entity_id),
           pg_catalog.array_agg(DISTINCT pg_catalog.lower(n.name))
      INTO ids, names
      FROM (SELECT x.entity_id, x.name, x.aliases FROM @schema@_internal.entities AS x
             WHERE pg_catalog.lower(x.name) = ANY (ARRAY(SELECT pg_catalog.lower(r) FROM pg_catalog.unnest(runs) AS r))
               AND x.tenant COLLATE "C" = for_tenant
            UNION
            SELECT x.entity_id, x.name, x.aliases FROM @schema@_internal.entities AS x
             WHERE x.aliases && runs AND x.tenant COLLATE "C" = for_tenant) AS e
     CROSS JOIN LATERAL pg_catalog.unnest(e.name || e.aliases) AS n (name);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.named_entities(text, text) IS
'The entities of a tenant a query names (ids) by name (any case) or alias (as written), as a '
'run of one to four of its words, and their names and aliases lower-cased (names): search '
'ranks the rows about them first (owner only: the tenant is an argument).';

SET LOCAL ROLE @schema@_owner;
