-- The graph's arguments: node names and keys, predicates, confidence, evidence and seeds,
-- each checked once here (22023 with the limit, nothing written).

CREATE OR REPLACE FUNCTION @schema@_internal.check_graph_name(kind text, name text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    key text;
BEGIN
    -- Returns the node key of (kind, name).
    IF kind IS NULL OR pg_catalog.btrim(kind) = '' OR name IS NULL OR pg_catalog.btrim(name) = '' THEN
        RAISE EXCEPTION 'a graph node needs a non-empty kind and name' USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.check_text(kind, 'kind', 100), @schema@_internal.check_text(name, 'name', 500);
    IF pg_catalog.strpos(kind, ':') > 0 THEN
        RAISE EXCEPTION 'kind % contains '':''', @schema@_internal.shown(kind)
            USING ERRCODE = '22023', HINT = 'a node key is <kind>:<name>; the kind holds no '':''';
    END IF;
    IF kind ~ '[[:cntrl:]]' OR name ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION 'kind and name may not contain control characters' USING ERRCODE = '22023';
    END IF;
    key := @schema@_internal.node_key_of(kind, name);
    IF pg_catalog.starts_with(key, ':') OR pg_catalog.right(key, 1) = ':' THEN
        RAISE EXCEPTION 'kind % and name % have no letters or digits to key a node by',
            @schema@_internal.shown(kind), @schema@_internal.shown(name) USING ERRCODE = '22023';
    END IF;
    IF pg_catalog.octet_length(key) > 1024 THEN
        RAISE EXCEPTION 'the node key of this kind and name is longer than 1024 bytes'
            USING ERRCODE = '22023', HINT = 'see "Limits" in docs/errors.md';
    END IF;
    RETURN key;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_graph_name(text, text) IS
'The node key of (kind, name), or 22023: kind 1 to 100 characters without '':'', name 1 to '
'500, no control characters, some letter or digit in each, the key at most 1024 bytes.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_node_key(node_key text, what text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF node_key IS NULL OR node_key = '' THEN
        RAISE EXCEPTION '% must be a node key (<kind>:<name>)', what USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.check_bytes(node_key, what, 1024);
    IF node_key ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION '% contains a control character', what USING ERRCODE = '22023';
    END IF;
    RETURN node_key;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_node_key(text, text) IS
'Raise 22023 unless a node key argument is 1 to 1024 bytes without control characters.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_predicate(predicate text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    key text;
BEGIN
    -- Returns the predicate key.
    IF predicate IS NULL OR pg_catalog.btrim(predicate) = '' THEN
        RAISE EXCEPTION 'an edge needs a predicate' USING ERRCODE = '22023';
    END IF;
    PERFORM @schema@_internal.check_text(predicate, 'predicate', 200);
    key := @schema@_internal.predicate_key_of(predicate);
    IF key IS NULL THEN
        RAISE EXCEPTION 'predicate % has no word to key it by', @schema@_internal.shown(predicate)
            USING ERRCODE = '22023', HINT = 'stop words (of, the, to, ...) alone do not name a relation';
    END IF;
    RETURN @schema@_internal.check_bytes(key, 'predicate key', 400);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_predicate(text) IS
'The predicate key of a predicate, or 22023: 1 to 200 characters with a word that is not a '
'stop word.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_confidence(confidence double precision, what text)
RETURNS double precision
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- PilotSwarm clamps; here a value outside [0, 1] is an error (NaN is not within).
    IF confidence IS NULL OR confidence = 'NaN'::double precision OR confidence < 0 OR confidence > 1 THEN
        RAISE EXCEPTION '% must be a number from 0 to 1, not %', what, coalesce(confidence::text, 'null')
            USING ERRCODE = '22023';
    END IF;
    RETURN confidence;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_confidence(double precision, text) IS
'Raise 22023 unless a confidence is a number from 0 to 1; returns it.';

CREATE OR REPLACE FUNCTION @schema@_internal.fact_source_readable(
    source text, kind text, with_shared boolean, every_session boolean, sessions text []
) RETURNS boolean
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    -- A scope key's reader by its shape alone (no lookup): the one fact-visibility rule.
    -- (An expired fact is not known from its key: graph_evidence_seen's lookup marks its
    -- evidence stale.)
    SELECT coalesce(@schema@_internal.fact_visible(
               @schema@_internal.scope_key_scope(source) OPERATOR(pg_catalog.=) '',
               @schema@_internal.scope_key_scope(source), @schema@_internal.scope_key_key(source),
               NULL, kind, with_shared, every_session, sessions), false)
$fn$;

COMMENT ON FUNCTION @schema@_internal.fact_source_readable(text, text, boolean, boolean, text []) IS
'Whether a reader (its fact_visibility) may read the fact a scope key names, decided from '
'the key alone with fact_visible, before any lookup. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.scope_key_ok(scope_key text)
RETURNS boolean
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN @schema@_internal.scope_key_scope(scope_key) IS NOT NULL
       AND @schema@_internal.key_problem(@schema@_internal.scope_key_key(scope_key)) IS NULL
       AND @schema@_internal.session_id_ok(NULLIF(@schema@_internal.scope_key_scope(scope_key), ''));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.scope_key_ok(text) IS
'Whether text is a well-formed fact scope key: shared:<key> or session:<id>:<key> with a '
'valid key and session id.';

CREATE OR REPLACE FUNCTION @schema@_internal.claim_source(
    tenant text, ref text, OUT source text, OUT claim_subject bigint, OUT claim_predicate text
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- claim:<id> as evidence: the claim's assertion, which every row of it shares and a
    -- purge replay keeps. NULLs for an id the tenant does not hold.
    IF ref !~ '^claim:[0-9]{1,18}$' THEN
        RAISE EXCEPTION 'a claim is named claim:<claim id>, not %', @schema@_internal.shown(ref)
            USING ERRCODE = '22023';
    END IF;
    SELECT 'claim:' || c.assertion, c.subject_id, c.predicate
      INTO source, claim_subject, claim_predicate
      FROM @schema@_internal.claims AS c
     WHERE c.tenant = claim_source.tenant AND c.claim_id = pg_catalog.substr(ref, 7)::bigint;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.claim_source(text, text) IS
'The evidence source of claim:<id>: claim: and the claim''s assertion, with its subject and '
'predicate (NULLs for an unknown id; 22023 for a malformed reference).';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_sources(
    tenant text, evidence text [], kind text, with_shared boolean, every_session boolean,
    sessions text []
) RETURNS TABLE (source text, claim_subject bigint, claim_predicate text)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    item text;
    claim record;
BEGIN
    -- A writer's evidence: fact scope keys it may read, and claims of its tenant.
    IF pg_catalog.cardinality(evidence) > 100 THEN
        RAISE EXCEPTION 'evidence holds at most 100 items, not %', pg_catalog.cardinality(evidence)
            USING ERRCODE = '22023', HINT = 'see "Limits" in docs/errors.md';
    END IF;
    FOREACH item IN ARRAY coalesce(evidence, '{}') LOOP
        IF pg_catalog.starts_with(item, 'claim:') THEN
            claim := @schema@_internal.claim_source(tenant, item);
            IF claim.source IS NULL THEN
                RAISE EXCEPTION 'no claim %', @schema@_internal.shown(item) USING ERRCODE = 'P0002';
            END IF;
            RETURN QUERY SELECT claim.source, claim.claim_subject, claim.claim_predicate;
        ELSIF item IS NULL OR NOT @schema@_internal.scope_key_ok(item) THEN
            RAISE EXCEPTION 'evidence % is neither a fact scope key nor a claim', @schema@_internal.shown(item)
                USING ERRCODE = '22023',
                      HINT = 'shared:<key>, session:<session id>:<key> or claim:<claim id>';
        ELSIF NOT @schema@_internal.fact_source_readable(item, kind, with_shared, every_session, sessions) THEN
            -- Decided from the key's shape, before any lookup: no answer about existence.
            RAISE EXCEPTION 'evidence % names a fact you may not read', @schema@_internal.shown(item)
                USING ERRCODE = '42501',
                      HINT = 'evidence is a fact read_facts shows you (shared, your spawn tree)';
        ELSE
            RETURN QUERY SELECT item, NULL::bigint, NULL::text;
        END IF;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_sources(text, text [], text, boolean, boolean, text []) IS
'A writer''s evidence as sources: each fact scope key it may read (42501 otherwise, decided '
'from the key alone), each claim:<id> as its assertion (P0002 unknown); at most 100; '
'22023 for anything else.';

CREATE OR REPLACE FUNCTION @schema@_internal.check_aliases(aliases text [])
RETURNS text []
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.cardinality(aliases) > 64
       OR EXISTS (SELECT 1 FROM pg_catalog.unnest(aliases) AS a
                   WHERE a IS NULL OR pg_catalog.btrim(a) = '' OR pg_catalog.length(a) > 500
                      OR a ~ '[[:cntrl:]]') THEN
        RAISE EXCEPTION 'aliases must be at most 64 non-empty names of at most 500 characters '
            'without control characters' USING ERRCODE = '22023', HINT = 'see "Limits" in docs/errors.md';
    END IF;
    RETURN coalesce(aliases, '{}');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.check_aliases(text []) IS
'Raise 22023 unless aliases are at most 64 names of 1 to 500 characters without control '
'characters; returns them ({} for NULL).';

CREATE OR REPLACE FUNCTION @schema@_internal.merge_aliases(
    kind text, name text, existing text [], added text []
) RETURNS text []
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    own text := @schema@_internal.node_key_of(kind, name);
    merged text [];
BEGIN
    -- Existing first, then the new ones, one per key, trimmed, never the node's own name;
    -- a node keeps at most 1000. Each alias is keyed once (OFFSET 0 keeps the key computed
    -- in the inner query, not again in every clause that names it).
    SELECT coalesce(pg_catalog.array_agg(a.alias ORDER BY a.first), '{}') INTO merged
      FROM (SELECT k.alias, k.first,
                   pg_catalog.row_number() OVER (PARTITION BY k.key ORDER BY k.first) AS nth
              FROM (SELECT pg_catalog.btrim(x.alias) AS alias, x.n AS first,
                           @schema@_internal.node_key_of(kind, x.alias) AS key
                      FROM pg_catalog.unnest(coalesce(existing, '{}') || coalesce(added, '{}'))
                           WITH ORDINALITY AS x (alias, n)
                    OFFSET 0) AS k
             WHERE k.key <> own AND pg_catalog.right(k.key, 1) <> ':') AS a
     WHERE a.nth = 1;
    IF pg_catalog.cardinality(merged) > 1000 THEN
        RAISE EXCEPTION 'a node keeps at most 1000 aliases' USING ERRCODE = '22023';
    END IF;
    RETURN merged;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.merge_aliases(text, text, text [], text []) IS
'A node''s aliases with more added: first seen first, one per normalised form, never its '
'own name, names without letters or digits dropped; 22023 past 1000.';
