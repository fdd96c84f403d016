-- Candidate queries: who sees what, decided inside each query, before ranking and LIMIT.
--
-- Under row level security the planner may not use @@, <=> or % (not leakproof) as index
-- conditions, so these functions are owned by @schema@_searcher (NOLOGIN, BYPASSRLS) and
-- apply the tenant and read_facts' visibility themselves. They take the tenant as an
-- argument, so only the owner (the API's SECURITY DEFINER functions, which take it from
-- the checked caller context) may execute them.

-- Inlined (no SET clause, every name qualified; tests/lint_sql.py lists it).
CREATE OR REPLACE FUNCTION @schema@_internal.fact_visible(
    shared boolean, session_id text, key text, kind text, with_shared boolean,
    every_session boolean, sessions text []
) RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT CASE WHEN shared THEN with_shared
                ELSE every_session OR session_id OPERATOR(pg_catalog.=) ANY (sessions) END
       AND @schema@_internal.readable_by(key, kind)
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_visible(
    boolean, text, text, text, boolean, boolean, text []) IS
'read_facts'' visibility of one fact (inlined): shared ones when with_shared, session facts '
'of every session or of the given ones, keys the kind may read.';

-- Inlined (no SET clause, every name qualified; tests/lint_sql.py lists it).
CREATE OR REPLACE FUNCTION @schema@_internal.claim_in_view(
    system_time tstzrange, valid tstzrange, retired_reason text, history boolean,
    valid_at timestamptz, known_at timestamptz, any_valid boolean DEFAULT false
) RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    -- Believed at known_at (now: still believed) and true at valid_at (default now); with
    -- history, every version ever believed up to known_at, retired ones included (only
    -- outranked ones never answer), true at valid_at only when valid_at is given. any_valid
    -- drops the valid-time condition (search_claims: every claim believed now).
    SELECT CASE WHEN history
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
    tstzrange, tstzrange, text, boolean, timestamptz, timestamptz, boolean) IS
'Whether a claim version answers (inlined): believed at known_at and valid at valid_at '
'(both default now); with history every version believed up to known_at except outranked.';

CREATE OR REPLACE FUNCTION @schema@_internal.search_access(
    scope text, OUT kind text, OUT with_shared boolean, OUT every_session boolean,
    OUT sessions text []
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tenant text := @schema@_internal.context_tenant();
    caller text := @schema@_internal.context_session();
BEGIN
    kind := @schema@_internal.context_kind();
    -- The one rule of working memory: a search sees what read_facts shows.
    SELECT v.with_shared, v.every_session, v.sessions INTO with_shared, every_session, sessions
      FROM @schema@_internal.fact_visibility(tenant, kind, caller, scope) AS v;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.search_access(text) IS
'Which facts a search of the caller sees, by scope (accessible | shared | session | '
'descendants): a task agent its spawn tree and shared facts as read_facts shows them; the '
'crawler, facts manager, tuner and operator every session; keys by readable_by.';

SET LOCAL ROLE @schema@_searcher;

CREATE OR REPLACE FUNCTION @schema@_internal.fact_text_candidates(
    for_tenant text, kind text, with_shared boolean, every_session boolean, sessions text [],
    match tsquery, words tsquery [], negated boolean, key_prefix text, want_tags text [],
    known_at timestamptz, lim integer
) RETURNS TABLE (item_id bigint, score real)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
-- A limited list: the planner joins it to the tables by primary key, not by a scan.
ROWS 50
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- EXECUTE: planned for this query's words, so the GIN index is chosen when it pays.
    RETURN QUERY EXECUTE $q$
    SELECT f.fact_id, @schema@_internal.text_score(f.search_doc, $6, $7, $8) AS score
      FROM @schema@_internal.facts AS f
     WHERE f.tenant = $1 AND f.deleted_at IS NULL AND f.search_doc @@ $6
       AND @schema@_internal.fact_visible(f.shared, f.session_id, f.key, $2, $3, $4, $5)
       AND ($9::text IS NULL OR pg_catalog.starts_with(f.key, $9))
       AND ($10::text [] IS NULL OR f.tags @> $10)
       AND ($11::timestamptz IS NULL OR pg_catalog.lower(f.system_time) <= $11)
     ORDER BY 2 DESC, f.fact_id DESC
     LIMIT $12 $q$
    USING for_tenant, kind, with_shared, every_session, sessions, match, words, negated,
          key_prefix, want_tags, known_at, lim;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_text_candidates(
    text, text, boolean, boolean, text [], tsquery, tsquery [], boolean, text, text [],
    timestamptz, integer) IS
'The best lim live facts of a tenant matching a query that the caller may see, by text_score '
'(owner only: the tenant is an argument).';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_text_candidates(
    for_tenant text, match tsquery, words tsquery [], negated boolean, floor real,
    history boolean, valid_at timestamptz, known_at timestamptz, lim integer,
    any_valid boolean DEFAULT false
) RETURNS TABLE (item_id bigint, score real)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
-- A limited list: the planner joins it to the tables by primary key, not by a scan.
ROWS 50
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN QUERY EXECUTE $q$
    SELECT c.claim_id, @schema@_internal.text_score(c.search_doc, $2, $3, $4)
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = $1 AND c.search_doc @@ $2 AND c.confidence >= $5
       AND @schema@_internal.claim_in_view(c.system_time, c.valid, c.retired_reason, $6,
                                           $7, $8, $10)
     ORDER BY 2 DESC, c.claim_id DESC
     LIMIT $9 $q$
    USING for_tenant, match, words, negated, floor, history, valid_at, known_at, lim, any_valid;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_text_candidates(
    text, tsquery, tsquery [], boolean, real, boolean, timestamptz, timestamptz, integer,
    boolean) IS
'The best lim claims of a tenant matching a query, of at least floor confidence, in view '
'(claim_in_view), by text_score (owner only: the tenant is an argument).';

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
       AND @schema@_internal.fact_visible(f.shared, f.session_id, f.key, kind, with_shared,
                                          every_session, sessions)
     ORDER BY 2 DESC, f.key
     LIMIT lim
$fn$;

COMMENT ON FUNCTION @schema@_internal.key_candidates(
    text, text, boolean, boolean, text [], text, integer) IS
'Live facts the caller may see whose key is trigram-similar to pattern, most similar first '
'(owner only: the tenant is an argument).';


SET LOCAL ROLE @schema@_owner;
