-- search(): a lexical list and a vector list, fused by calibrated score (each list's scores
-- standardised over it), with the temporal intent applied (stale truth is suppressed for
-- current questions) and the rows about the entities a question names first.

CREATE OR REPLACE FUNCTION @schema@_internal.fact_superseded(for_tenant text, scope_key text)
RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    sources bigint [];
BEGIN
    -- A fact is stale when the claims extracted from it (episodes of source kind 'fact'
    -- naming its scope key) are no longer current and a current claim holds their slot.
    sources := ARRAY(SELECT e.episode_id FROM @schema@_internal.episodes AS e
                      WHERE e.tenant = for_tenant AND e.source_kind = 'fact'
                        AND e.source_ref = scope_key);
    IF pg_catalog.cardinality(sources) = 0 THEN
        RETURN false;  -- nothing was extracted from it
    END IF;
    RETURN (WITH own AS (
                SELECT c.subject_id, c.predicate,
                       pg_catalog.upper_inf(c.system_time) AND c.valid @> pg_catalog.now()
                       AND @schema@_internal.claim_unexpired(c.expires_at, NULL) AS now_true
                  FROM @schema@_internal.claim_sources AS s
                  JOIN @schema@_internal.claims AS c ON c.tenant = s.tenant AND c.claim_id = s.claim_id
                 WHERE s.tenant = for_tenant AND s.episode_id = ANY (sources))
            SELECT NOT EXISTS (SELECT 1 FROM own WHERE own.now_true)
               AND EXISTS (SELECT 1 FROM own
                             JOIN @schema@_internal.claims AS x
                               ON x.tenant = for_tenant AND x.subject_id = own.subject_id
                              AND x.predicate = own.predicate
                            WHERE pg_catalog.upper_inf(x.system_time)
                              AND x.valid @> pg_catalog.now()
                              AND @schema@_internal.claim_unexpired(x.expires_at, NULL)));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_superseded(text, text) IS
'Whether a working-memory fact has been superseded: none of the claims extracted from it '
'(episode source kind fact, source_ref its scope key) is current, and a current claim holds '
'one of their slots.';

-- Inlined (no SET clause, every name qualified; tests/lint_sql.py lists it): called once per
-- hit, a function call of its own cost more than the lookups it makes (80 hits: 4 ms).
-- version_id came with known_at's reading of the history (a changed signature: the old one goes).
DROP FUNCTION IF EXISTS @schema@_internal.item_details(text, text, bigint);
CREATE OR REPLACE FUNCTION @schema@_internal.item_details(
    for_tenant text, item_kind text, item_id bigint, version_id bigint
) RETURNS TABLE (
    ref text, key text, content text, value jsonb, subject_id bigint, current boolean,
    superseded boolean, valid_from timestamptz, valid_to timestamptz,
    recorded_at timestamptz, retired_at timestamptz, retired_reason text
)
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT f.scope_key, f.key, @schema@_internal.fact_content(f.key, f.value),
           f.value, NULL::bigint, true,
           -- fact_superseded is a function call (25 us); most facts had no claim extracted
           -- from them, which one index probe tells.
           CASE WHEN EXISTS (SELECT 1 FROM @schema@_internal.episodes AS e
                              WHERE e.source_ref OPERATOR(pg_catalog.=) f.scope_key
                                AND e.source_kind OPERATOR(pg_catalog.=) 'fact'
                                AND e.tenant OPERATOR(pg_catalog.=) for_tenant)
                THEN @schema@_internal.fact_superseded(for_tenant, f.scope_key)
                ELSE false END, NULL::timestamptz,
           NULL::timestamptz, pg_catalog.lower(f.system_time), NULL::timestamptz, NULL::text
      FROM @schema@_internal.facts AS f
     WHERE item_kind OPERATOR(pg_catalog.=) 'fact' AND item_details.version_id IS NULL
       AND f.tenant OPERATOR(pg_catalog.=) for_tenant
       AND f.fact_id OPERATOR(pg_catalog.=) item_id
    UNION ALL
    -- A version of the history (a search as of known_at found it): no longer believed.
    SELECT v.scope_key, v.key, @schema@_internal.fact_content(v.key, v.value),
           v.value, NULL::bigint, false,
           CASE WHEN EXISTS (SELECT 1 FROM @schema@_internal.episodes AS e
                              WHERE e.source_ref OPERATOR(pg_catalog.=) v.scope_key
                                AND e.source_kind OPERATOR(pg_catalog.=) 'fact'
                                AND e.tenant OPERATOR(pg_catalog.=) for_tenant)
                THEN @schema@_internal.fact_superseded(for_tenant, v.scope_key)
                ELSE false END, NULL::timestamptz,
           NULL::timestamptz, pg_catalog.lower(v.system_time), pg_catalog.upper(v.system_time),
           NULL::text
      FROM @schema@_internal.fact_versions AS v
     WHERE item_kind OPERATOR(pg_catalog.=) 'fact' AND item_details.version_id IS NOT NULL
       AND v.tenant OPERATOR(pg_catalog.=) for_tenant
       AND v.version_id OPERATOR(pg_catalog.=) item_details.version_id
    UNION ALL
    SELECT 'claim:' OPERATOR(pg_catalog.||) c.claim_id, c.predicate,
           coalesce(c.text, pg_catalog.concat_ws(' ', s.name, pg_catalog.translate(c.predicate, '_', ' '),
                                                 coalesce(c.object_value OPERATOR(pg_catalog.#>>) '{}', o.name))),
           coalesce(c.object_value, pg_catalog.to_jsonb(o.name)), c.subject_id,
           pg_catalog.upper_inf(c.system_time) AND c.valid OPERATOR(pg_catalog.@>) pg_catalog.now(),
           NOT (pg_catalog.upper_inf(c.system_time) AND c.valid OPERATOR(pg_catalog.@>) pg_catalog.now()),
           pg_catalog.lower(c.valid), NULLIF(pg_catalog.upper(c.valid), 'infinity'),
           pg_catalog.lower(c.system_time),
           CASE WHEN NOT pg_catalog.upper_inf(c.system_time) THEN pg_catalog.upper(c.system_time) END,
           c.retired_reason
      FROM @schema@_internal.claims AS c
      -- Each entity by primary key (LIMIT 1: a plan kept for the session hashed every entity
      -- of a small table for each hit instead).
     CROSS JOIN LATERAL (SELECT e.name FROM @schema@_internal.entities AS e
                          WHERE e.tenant OPERATOR(pg_catalog.=) c.tenant
                            AND e.entity_id OPERATOR(pg_catalog.=) c.subject_id LIMIT 1) AS s
      LEFT JOIN LATERAL (SELECT e.name FROM @schema@_internal.entities AS e
                          WHERE e.tenant OPERATOR(pg_catalog.=) c.tenant
                            AND e.entity_id OPERATOR(pg_catalog.=) c.object_entity_id LIMIT 1) AS o
        ON true
     WHERE item_kind OPERATOR(pg_catalog.=) 'claim' AND c.tenant OPERATOR(pg_catalog.=) for_tenant
       AND c.claim_id OPERATOR(pg_catalog.=) item_id
$fn$;

COMMENT ON FUNCTION @schema@_internal.item_details(text, text, bigint, bigint) IS
'What a hit shows: ref (scope key or claim:<id>), key (fact key or predicate), content, '
'value, whether it is current (believed now and valid now; a fact''s version_id names a '
'version of the history, no longer believed) and whether it is superseded (a fact whose '
'claims a current claim replaced; a claim no longer current). (inlined)';

-- version_id came with known_at's reading of the history (a changed result: the old one goes).
DROP FUNCTION IF EXISTS @schema@_internal.ranked_hits(
    text, public.vector, text, integer, text, boolean, boolean, text [], boolean, boolean,
    text, text [], boolean, timestamptz, timestamptz, real, real, text, bigint);
CREATE OR REPLACE FUNCTION @schema@_internal.ranked_hits(
    query text, query_vector public.vector, model text, lim integer, kind text,
    with_shared boolean, every_session boolean, sessions text [],
    want_facts boolean, want_claims boolean, key_prefix text, want_tags text [],
    history boolean, valid_at timestamptz, known_at timestamptz, text_weight real,
    vector_weight real, exclude_kind text DEFAULT NULL, exclude_id bigint DEFAULT NULL
) RETURNS TABLE (
    item_kind text, item_id bigint, version_id bigint, score double precision,
    text_rank integer, vector_rank integer, similarity real
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- The query below is planned once a session: a custom plan for each call's arguments cost
-- more than running it (2 to 3 ms), and no argument changes the best plan (the candidate
-- queries it calls are planned per call, for their words: EXECUTE).
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
    tenant text := @schema@_internal.context_tenant();
    parsed record := @schema@_internal.parse_query(query);
    floor real := @schema@_internal.confidence_floor(tenant);
    -- Each list is limit x 4 deep, at least 40: a pool deep enough for questions that
    -- need several rows, and for the statistics each list's scores are calibrated by.
    depth integer := greatest(lim * 4, 40);
    dims integer;
    qv public.halfvec;
BEGIN
    IF query_vector IS NOT NULL AND vector_weight > 0 THEN
        dims := @schema@_internal.model_dimension(tenant, model);
        qv := @schema@_internal.check_vector(query_vector, dims);
    END IF;
    RETURN QUERY
    WITH lexical AS (
        SELECT t.item_kind, t.item_id, t.version_id, t.score::double precision AS s,
               pg_catalog.row_number() OVER (ORDER BY t.score DESC, t.item_kind, t.item_id)::integer AS r
          FROM (SELECT 'fact'::text AS item_kind, x.item_id, x.version_id, x.score
                  FROM @schema@_internal.fact_text_candidates(tenant, kind, with_shared,
                           every_session, sessions, parsed.match, parsed.words,
                           parsed.negated, key_prefix, want_tags, known_at, depth, parsed.pairs) AS x
                 WHERE want_facts AND parsed.match IS NOT NULL AND text_weight > 0
                UNION ALL
                SELECT 'claim', y.item_id, NULL::bigint, y.score
                  FROM @schema@_internal.claim_text_candidates(tenant, parsed.match, parsed.words,
                           parsed.negated, floor, history, valid_at, known_at, depth,
                           pairs => parsed.pairs) AS y
                 WHERE want_claims AND parsed.match IS NOT NULL AND text_weight > 0
                   AND key_prefix IS NULL AND want_tags IS NULL) AS t
         WHERE exclude_kind IS NULL OR NOT (t.item_kind = exclude_kind AND t.item_id = exclude_id)
         ORDER BY r LIMIT depth),
    vectors AS (
        SELECT v.item_kind, v.item_id, v.version_id, v.similarity,
               v.similarity::double precision AS s,
               pg_catalog.row_number() OVER (ORDER BY v.similarity DESC, v.item_kind, v.item_id)::integer AS r
          FROM @schema@_internal.vector_candidates(tenant, model, dims, qv, want_facts,
                   want_claims AND key_prefix IS NULL AND want_tags IS NULL, kind,
                   with_shared, every_session, sessions, key_prefix,
                   want_tags, floor, history, valid_at, known_at, exclude_kind, exclude_id,
                   depth) AS v
         WHERE qv IS NOT NULL),
    -- Calibration: a list's scores (text_score, cosine similarity) are on scales of their
    -- own, so each is standardised over its list (z = (s - mean) / standard deviation); a
    -- row the list did not find counts as its lowest z (-1 when every score is equal).
    text_z AS (SELECT l.*, (l.s - pg_catalog.avg(l.s) OVER ())
                           / NULLIF(pg_catalog.stddev_pop(l.s) OVER (), 0) AS z FROM lexical AS l),
    vector_z AS (SELECT v.*, (v.s - pg_catalog.avg(v.s) OVER ())
                             / NULLIF(pg_catalog.stddev_pop(v.s) OVER (), 0) AS z FROM vectors AS v),
    floors AS (SELECT coalesce((SELECT pg_catalog.min(coalesce(l.z, -1)) FROM text_z AS l), 0) AS text_floor,
                      coalesce((SELECT pg_catalog.min(coalesce(v.z, -1)) FROM vector_z AS v), 0) AS vector_floor)
    -- A fact has one version as of known_at: both lists name the same one.
    SELECT coalesce(l.item_kind, v.item_kind), coalesce(l.item_id, v.item_id),
           coalesce(l.version_id, v.version_id),
           text_weight * coalesce(l.z, CASE WHEN l.r IS NULL THEN f.text_floor ELSE 0 END)
             + vector_weight * coalesce(v.z, CASE WHEN v.r IS NULL THEN f.vector_floor ELSE 0 END)
             -- equal scores (a list's ties) in the lists' order: reciprocal rank, scaled down
             + 0.001 * (coalesce(text_weight / (60.0 + l.r), 0) + coalesce(vector_weight / (60.0 + v.r), 0)),
           l.r, v.r, v.similarity
      FROM text_z AS l
      FULL JOIN vector_z AS v ON v.item_kind = l.item_kind AND v.item_id = l.item_id
     CROSS JOIN floors AS f;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.ranked_hits(
    text, public.vector, text, integer, text, boolean, boolean, text [], boolean, boolean,
    text, text [], boolean, timestamptz, timestamptz, real, real, text, bigint) IS
'The lexical list and the vector list (each lim x 4 deep, at least 40, access applied inside), '
'fused by calibrated score: score = text_weight x z_text + vector_weight x z_vector, z a '
'list''s score standardised over that list (a row it missed: its lowest z, -1 when all are '
'equal), ties in the lists'' order (+0.001 x reciprocal rank). version_id: the version of the '
'history a fact hit as of known_at is (NULL: the current row).';

-- search_pass took no year, then no named entities before (a changed signature: the old
-- ones go).
DROP FUNCTION IF EXISTS @schema@_internal.search_pass(jsonb, integer, text);
DROP FUNCTION IF EXISTS @schema@_internal.search_pass(jsonb, integer, text, tstzrange);
CREATE OR REPLACE FUNCTION @schema@_internal.search_pass(
    hits jsonb, lim integer, mode text, in_year tstzrange DEFAULT NULL,
    named_ids bigint [] DEFAULT NULL, named_names text [] DEFAULT NULL
) RETURNS TABLE (
    item_kind text, item_id bigint, ref text, key text, content text, value jsonb,
    current boolean, stale boolean, score double precision, text_rank integer,
    vector_rank integer, similarity real, valid_from timestamptz, valid_to timestamptz,
    recorded_at timestamptz, retired_at timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- One plan for every call: with the default plan_cache_mode the planner kept choosing a
-- custom plan for each call's hits, mode and names (about 3 ms of planning a search).
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
    for_tenant text := @schema@_internal.context_tenant();
BEGIN
    -- PL/pgSQL keeps this query's plan for the session; as a SQL function it was planned on
    -- every call, which cost more than running it.
    RETURN QUERY
    -- mode: current (superseded rows are stale and suppressed unless nothing else is left),
    -- fallback (nothing current matched: superseded rows come back marked stale),
    -- historical (suppression off), both (at least one superseded row is kept). A question
    -- naming a year (in_year) prefers what is now believed to have been valid then (not a
    -- retired version whose range a correction narrowed): such a hit scores 3 more (three
    -- standard deviations of a list), so of a slot's past values the one of that year leads.
    -- A question naming entities (named_ids, their names and aliases named_names) has the
    -- rows about them first (a claim of which one is the subject, a row whose content names
    -- one), and none of another entity's claims (a look-alike: the same predicate words,
    -- someone else's value), nor a fact stating what one states, while a row about a named
    -- entity is left; the other rows only fill what is left.
    WITH detailed AS (
        SELECT h.item_kind, h.item_id, d.ref, d.key, d.content, d.value, d.current,
               (d.subject_id = ANY (named_ids)
                OR EXISTS (SELECT 1 FROM pg_catalog.unnest(named_names) AS n (name)
                            WHERE pg_catalog.strpos(pg_catalog.lower(d.content), n.name) > 0))
                 IS TRUE AS about,
               d.subject_id IS NOT NULL AS of_entity, d.superseded, d.superseded AND mode IN ('current', 'fallback') AS stale,
               h.score + CASE WHEN d.valid_from IS NOT NULL AND d.retired_at IS NULL
                                   AND pg_catalog.tstzrange(d.valid_from, d.valid_to) && in_year
                              THEN 3.0 ELSE 0 END
               -- a historical question asks what no longer holds: that scores 1 more
               + CASE WHEN mode = 'historical' AND d.superseded THEN 1.0 ELSE 0 END AS score,
               h.text_rank, h.vector_rank, h.similarity, d.valid_from, d.valid_to,
               d.recorded_at, d.retired_at
          FROM pg_catalog.jsonb_to_recordset(hits) AS h (
                   item_kind text, item_id bigint, version_id bigint, score double precision,
                   text_rank integer, vector_rank integer, similarity real)
         CROSS JOIN LATERAL @schema@_internal.item_details(for_tenant, h.item_kind, h.item_id,
                                                           h.version_id) AS d),
    -- Identical content stored twice is one hit (a fact's value, a claim's content): the
    -- row not superseded if there is one, else the better ranked, at the best score of the
    -- group (a fact that states what a claim states ranks where the claim did).
    distinct_content AS (
        SELECT DISTINCT ON (x.same) x.item_kind, x.item_id, x.ref, x.key, x.content, x.value,
               x.current, x.stale, x.group_about AS about,
               x.group_of_entity AND NOT x.group_about AS other, x.best AS score, x.text_rank,
               x.vector_rank, x.similarity, x.valid_from, x.valid_to, x.recorded_at, x.retired_at
          FROM (SELECT d.*, pg_catalog.max(d.score) OVER (PARTITION BY d.same) AS best,
                       pg_catalog.bool_or(d.about) OVER (PARTITION BY d.same) AS group_about,
                       pg_catalog.bool_or(d.of_entity) OVER (PARTITION BY d.same) AS group_of_entity
                  FROM (SELECT e.*, pg_catalog.md5(pg_catalog.lower(CASE e.item_kind
                                WHEN 'fact' THEN e.value #>> '{}' ELSE e.content END)) AS same
                          FROM detailed AS e) AS d) AS x
         ORDER BY x.same, x.superseded, x.score DESC),
    kept AS (
        SELECT y.* FROM distinct_content AS y
         WHERE (NOT y.stale OR NOT EXISTS (SELECT 1 FROM distinct_content AS z WHERE NOT z.stale))
           AND NOT (y.other AND EXISTS (SELECT 1 FROM distinct_content AS z WHERE z.about))),
    ordered AS (
        SELECT k.*,
               pg_catalog.row_number() OVER (ORDER BY k.stale, NOT k.about, k.score DESC, k.item_kind,
                                                      k.item_id) AS pos,
               pg_catalog.row_number() OVER (PARTITION BY k.current ORDER BY k.score DESC, k.item_id) AS pos_in_state
          FROM kept AS k)
    SELECT o.item_kind, o.item_id, o.ref, o.key, o.content, o.value, o.current, o.stale,
           o.score, o.text_rank, o.vector_rank, o.similarity, o.valid_from, o.valid_to,
           o.recorded_at, o.retired_at
      FROM ordered AS o
     ORDER BY CASE WHEN mode = 'both' AND NOT o.current AND o.pos_in_state = 1 AND o.pos > lim
                   THEN lim - 0.5 ELSE o.pos END
     LIMIT lim;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.search_pass(
    jsonb, integer, text, tstzrange, bigint [], text []) IS
'Shape fused hits (ranked_hits as JSON) into results: details, one hit per distinct content, '
'stale truth marked and suppressed by mode (current | fallback | historical | both: at least '
'one superseded row kept), rows valid in in_year (a year the question names) scored up by '
'3, the rows about a named entity (a claim''s subject in named_ids, content holding one of '
'named_names) before the others, best first, cut to lim.';

CREATE OR REPLACE FUNCTION @schema@_internal.named_year(detected jsonb)
RETURNS tstzrange
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    years integer [] := ARRAY(SELECT DISTINCT pg_catalog.substr(s.value, 6)::integer
                                FROM pg_catalog.jsonb_array_elements_text(detected -> 'signals') AS s
                               WHERE s.value ~ '^year:[0-9]{4}$');
BEGIN
    -- One year named (two would ask about a span or a comparison): that calendar year.
    IF pg_catalog.cardinality(years) <> 1 THEN
        RETURN NULL;
    END IF;
    RETURN pg_catalog.tstzrange(pg_catalog.make_date(years[1], 1, 1)::timestamptz,
                                pg_catalog.make_date(years[1] + 1, 1, 1)::timestamptz);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.named_year(jsonb) IS
'The calendar year a question names (detect_intent''s year signal), when it names exactly one; '
'else NULL.';

-- One pass of search: the lists fused (ranked_hits), then shaped for the mode
-- (search_pass). search calls it once or twice; context_pack's trace once, historical.
CREATE OR REPLACE FUNCTION @schema@_internal.search_hits(
    query text, query_vector public.vector, model text, lim integer, kind text,
    with_shared boolean, every_session boolean, sessions text [],
    want_facts boolean, want_claims boolean, key_prefix text, want_tags text [],
    history boolean, valid_at timestamptz, known_at timestamptz, text_weight real,
    vector_weight real, mode text, in_year tstzrange, named_ids bigint [], named_names text []
) RETURNS TABLE (
    item_kind text, item_id bigint, ref text, key text, content text, value jsonb,
    current boolean, stale boolean, score double precision, text_rank integer,
    vector_rank integer, similarity real, valid_from timestamptz, valid_to timestamptz,
    recorded_at timestamptz, retired_at timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- Planned once a session, as the two functions it calls.
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_variable
DECLARE
    hits jsonb;
BEGIN
    SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(h)), '[]') INTO hits
      FROM @schema@_internal.ranked_hits(query, query_vector, model, lim, kind, with_shared,
               every_session, sessions, want_facts, want_claims, key_prefix, want_tags,
               history, valid_at, known_at, text_weight, vector_weight) AS h;
    RETURN QUERY
    SELECT * FROM @schema@_internal.search_pass(hits, lim, mode, in_year, named_ids, named_names);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.search_hits(
    text, public.vector, text, integer, text, boolean, boolean, text [], boolean, boolean,
    text, text [], boolean, timestamptz, timestamptz, real, real, text, tstzrange, bigint [],
    text []) IS
'One pass of search: ranked_hits (the lists fused, access applied inside) shaped by '
'search_pass for mode (current | fallback | historical | both), in_year and the named '
'entities.';

CREATE OR REPLACE FUNCTION @schema@.search(
    query text, query_vector public.vector DEFAULT NULL, model text DEFAULT NULL,
    "limit" integer DEFAULT 20, scope text DEFAULT 'accessible',
    item_kinds text [] DEFAULT '{fact,claim}', key_prefix text DEFAULT NULL,
    tags text [] DEFAULT NULL, intent text DEFAULT NULL, valid_at timestamptz DEFAULT NULL,
    known_at timestamptz DEFAULT NULL, text_weight real DEFAULT 1, vector_weight real DEFAULT 1
) RETURNS TABLE (
    item_kind text, item_id bigint, ref text, key text, content text, value jsonb,
    current boolean, stale boolean, score double precision, text_rank integer,
    vector_rank integer, similarity real, valid_from timestamptz, valid_to timestamptz,
    recorded_at timestamptz, retired_at timestamptz
)
LANGUAGE plpgsql
VOLATILE  -- with known_at it waits for knowledge commits, then reads with a fresh snapshot
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    access record := @schema@_internal.reader_visibility(scope);
    detected jsonb := @schema@.detect_intent(query);
    wanted text := coalesce(intent, detected ->> 'intent');
    -- A year the question names ranks what was valid then first (unless valid_at decides).
    in_year tstzrange := CASE WHEN valid_at IS NULL THEN @schema@_internal.named_year(detected) END;
    named record := @schema@_internal.named_entities(@schema@_internal.context_tenant(), query);
    history boolean;
    used bigint [] := '{}';
    returned integer := 0;
BEGIN
    PERFORM @schema@_internal.check_search(query, query_vector, model, "limit", item_kinds,
                                           text_weight, vector_weight);
    PERFORM @schema@_internal.check_tags(tags);  -- containment costs tags x matching rows
    PERFORM @schema@_internal.settle_known_at(@schema@_internal.context_tenant(), known_at);
    IF wanted NOT IN ('current', 'historical', 'both', 'unknown') THEN
        RAISE EXCEPTION 'unknown intent %', @schema@_internal.shown(intent)
            USING ERRCODE = '22023', HINT = 'one of: current, historical, both, unknown (NULL: detect it)';
    END IF;
    history := wanted IN ('historical', 'both');
    FOR pass IN 1..2 LOOP
        -- Each row is returned as it comes; the facts among them count as used (below).
        FOR item_kind, item_id, ref, key, content, value, current, stale, score, text_rank,
            vector_rank, similarity, valid_from, valid_to, recorded_at, retired_at IN
        SELECT * FROM @schema@_internal.search_hits(query, query_vector, model, "limit",
            access.kind, access.with_shared, access.every_session, access.sessions,
            'fact' = ANY (item_kinds), 'claim' = ANY (item_kinds), NULLIF(key_prefix, ''), tags,
            history, valid_at, known_at, text_weight, vector_weight,
            CASE WHEN pass = 2 THEN 'fallback' WHEN wanted = 'unknown' THEN 'current' ELSE wanted END,
            in_year, named.ids, named.names)
        LOOP
            RETURN NEXT;
            returned := returned + 1;
            IF item_kind = 'fact' THEN
                used := used || item_id;
            END IF;
        END LOOP;
        -- Suppression never empties a current answer: the superseded rows come back, stale.
        EXIT WHEN FOUND OR history;
        history := true;
    END LOOP;
    -- The kinds a later layer serves (search_item_sources: review candidates), only when
    -- asked for, after every believed hit and within the limit: none of them is believed.
    IF NOT item_kinds <@ ARRAY['fact', 'claim'] AND returned < "limit" THEN
        FOR item_kind, item_id, ref, key, content, value, score, valid_from, valid_to,
            recorded_at IN
        SELECT * FROM @schema@_internal.source_hits(@schema@_internal.context_tenant(), query,
                                                    item_kinds, "limit" - returned)
        LOOP
            current := false;
            stale := false;
            text_rank := NULL;
            vector_rank := NULL;
            similarity := NULL;
            retired_at := NULL;
            RETURN NEXT;
        END LOOP;
    END IF;
    PERFORM @schema@_internal.record_fact_uses(@schema@_internal.context_tenant(), used);
END
$fn$;

COMMENT ON FUNCTION @schema@.search(
    text, public.vector, text, integer, text, text [], text, text [], text, timestamptz,
    timestamptz, real, real) IS
'Hybrid search over facts and claims the caller may see (scope as in read_facts): a lexical '
'list (content words of query, stemmed and as written; quotes, OR, -word as in websearch) '
'and, with query_vector and model, a vector list, each limit x 4 deep (at least 40), fused by '
'calibrated score: text_weight x z_text + vector_weight x z_vector, each z standardised over its '
'list (a row a list missed: its lowest z). intent (default: '
'detect_intent(query)): current answers with rows believed and valid now and suppresses '
'superseded ones (when nothing else matches they come back marked stale); historical adds '
'retired versions (never one of a retracted assertion, nor an outranked one) and scores what '
'no longer holds 1 more; both keeps at least one superseded row. A question naming one year '
'(without valid_at) scores rows valid that year 3 more. A question naming entities (name or '
'alias) has the rows about them first and leaves out other entities'' claims while one is '
'left. limit 1..100 (default 20); key_prefix and tags filter facts. Identical content is one '
'hit. An expired fact is absent; each fact returned counts as used (usage_tracking). '
'item_kinds may also name a kind a later layer serves (candidate: claims held for review, '
'for the reviewer, tuner and operator), listed after every believed hit with current false. '
'22023 bad argument.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_search(
    query text, query_vector public.vector, model text, lim integer, item_kinds text [],
    text_weight real, vector_weight real
) RETURNS void
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.check_query(query);
    lim := @schema@_internal.check_limit(lim, 'limit', 1, 100);
    IF item_kinds IS NULL OR pg_catalog.cardinality(item_kinds) = 0
       OR NOT item_kinds <@ @schema@_internal.search_item_kinds() THEN
        RAISE EXCEPTION 'item_kinds must name some of: %',
            pg_catalog.array_to_string(@schema@_internal.search_item_kinds(), ', ')
            USING ERRCODE = '22023';
    END IF;
    IF query_vector IS NOT NULL AND model IS NULL THEN
        RAISE EXCEPTION 'a query vector needs the model it was embedded with' USING ERRCODE = '22023';
    END IF;
    IF text_weight IS NULL OR vector_weight IS NULL OR text_weight < 0 OR vector_weight < 0
       OR text_weight + vector_weight = 0 THEN
        RAISE EXCEPTION 'text_weight and vector_weight must be >= 0, not both 0' USING ERRCODE = '22023';
    END IF;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_search(
    text, public.vector, text, integer, text [], real, real) IS
'Raise 22023 for a bad search argument (query length, limit, item kinds: search_item_kinds, '
'vector without model, weights; known_at: settle_known_at).';
