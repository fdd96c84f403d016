-- The graph's rules, each in a function of its own: how a name becomes a key, how a
-- predicate becomes a predicate key, how confidence combines, which namespaces match.

CREATE OR REPLACE FUNCTION @schema@_internal.normalize_graph_name(input text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Compatibility decomposition, Latin combining marks dropped, composed again, lower
    -- case, every run of characters that are neither letters nor digits one space, trimmed
    -- (other scripts are kept): 'Crème  Brûlée!' is 'creme brulee'.
    RETURN pg_catalog.btrim(pg_catalog.regexp_replace(pg_catalog.lower(NORMALIZE(
        pg_catalog.regexp_replace(NORMALIZE(input, NFKD), '[\u0300-\u036f]', '', 'g'),
        NFC)), '[^[:alnum:]]+', ' ', 'g'));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.normalize_graph_name(text) IS
'A name as the graph compares it: NFKD, Latin diacritics dropped, NFC, lower case, runs of '
'non-letters and non-digits as one space, trimmed.';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_kind_key(kind text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    normal text := pg_catalog.replace(@schema@_internal.normalize_graph_name(kind), ' ', '_');
BEGIN
    -- A node key must never read as a seed of another kind: shared:<key> and
    -- session:<id>:<key> are fact scope keys, claim:<id> a claim, entity:<id> an entity's
    -- node (claim edges). Those four kinds take a trailing '_', which no normalised kind
    -- can end with otherwise.
    IF normal IN ('shared', 'session', 'claim', 'entity') THEN
        RETURN normal || '_';
    END IF;
    RETURN normal;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_kind_key(text) IS
'The kind part of a node key: the normalised kind, spaces as _; shared, session, claim and '
'entity take a trailing _ so no node key reads as a fact, claim or entity seed.';

CREATE OR REPLACE FUNCTION @schema@_internal.node_key_of(kind text, name text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- PilotSwarm's nodeKeyOf: person:tom-lane. Also the key of each alias (graph_node_names).
    RETURN @schema@_internal.graph_kind_key(kind) || ':'
        || pg_catalog.replace(@schema@_internal.normalize_graph_name(name), ' ', '-');
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.node_key_of(text, text) IS
'The key of a node (or of one of its aliases): graph_kind_key(kind), '':'', the normalised '
'name with spaces as -; person:tom-lane.';

CREATE OR REPLACE FUNCTION @schema@_internal.predicate_key_of(predicate text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- PilotSwarm's predicateKey: normalised words, stop words dropped, a trailing s cut from
    -- words longer than 3 characters, joined by _: 'Works With' and 'works_with' are one.
    RETURN (SELECT pg_catalog.string_agg(
                       CASE WHEN pg_catalog.length(w) > 3 AND pg_catalog.right(w, 1) = 's'
                            THEN pg_catalog.left(w, -1) ELSE w END, '_' ORDER BY n)
              FROM pg_catalog.regexp_split_to_table(
                       @schema@_internal.normalize_graph_name(predicate), ' ')
                   WITH ORDINALITY AS t (w, n)
             WHERE w <> '' AND w <> ALL (ARRAY['a', 'an', 'the', 'to', 'of', 'in', 'on', 'with',
                   'for', 'from', 'by', 'that', 'this', 'it', 'its', 'their', 'his', 'her']));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.predicate_key_of(text) IS
'The key of a predicate: its normalised words without stop words, a trailing s cut from '
'words longer than 3 characters, joined by _ (NULL when no word is left).';

CREATE OR REPLACE FUNCTION @schema@_internal.noisy_or(old_confidence double precision,
                                                      new_confidence double precision)
RETURNS double precision
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- Two independent observations: c = 1 - (1 - c_old)(1 - c_new), both within [0, 1].
    SELECT 1::double precision OPERATOR(pg_catalog.-)
           ((1::double precision OPERATOR(pg_catalog.-)
             LEAST(GREATEST(old_confidence, 0::double precision), 1::double precision))
            OPERATOR(pg_catalog.*)
            (1::double precision OPERATOR(pg_catalog.-)
             LEAST(GREATEST(new_confidence, 0::double precision), 1::double precision)))
$fn$;

COMMENT ON FUNCTION @schema@_internal.noisy_or(double precision, double precision) IS
'Noisy-OR of two confidences, 1 - (1 - a)(1 - b), each clamped to [0, 1]: 0.8 with 0.5 is '
'0.9. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.graph_namespace(namespace text)
RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    trimmed text := pg_catalog.rtrim(pg_catalog.btrim(namespace), '/');
BEGIN
    -- A namespace as stored and matched: trimmed, without trailing '/'; 'default' (any
    -- case) is the sentinel 'default', which namespace_matches reads as "no namespace"
    -- and writers store as NULL. NULL or empty: no namespace given.
    IF trimmed IS NULL OR trimmed = '' THEN
        RETURN NULL;
    END IF;
    IF pg_catalog.length(trimmed) > 256 THEN
        PERFORM @schema@_internal.check_text(trimmed, 'namespace', 256);
    END IF;
    IF trimmed ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION 'namespace contains a control character' USING ERRCODE = '22023';
    END IF;
    IF pg_catalog.lower(trimmed) = 'default' THEN
        RETURN 'default';
    END IF;
    RETURN trimmed;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.graph_namespace(text) IS
'A namespace argument as the graph reads it: trimmed, trailing / dropped, at most 256 '
'characters without control characters; default (any case) is ''default''; NULL or empty '
'is NULL (none given).';

-- Inlinable (no SET clause, every name qualified): reads apply it per row.
CREATE OR REPLACE FUNCTION @schema@_internal.namespace_matches(namespace text, wanted text)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    -- wanted as graph_namespace gives it. A literal prefix on whole path segments, never a
    -- LIKE pattern: corpus/acme matches corpus/acme and corpus/acme/services, not
    -- corpus/acme-eu; 'default' matches no namespace; NULL matches everything.
    SELECT CASE
        WHEN wanted IS NULL THEN true
        WHEN wanted OPERATOR(pg_catalog.=) 'default' THEN namespace IS NULL
        ELSE coalesce(namespace OPERATOR(pg_catalog.=) wanted
                      OR pg_catalog.starts_with(namespace, wanted OPERATOR(pg_catalog.||) '/'),
                      false)
    END
$fn$;

COMMENT ON FUNCTION @schema@_internal.namespace_matches(text, text) IS
'Whether a stored namespace (NULL: none) is in the namespace wanted (graph_namespace of the '
'argument): itself or below it by whole path segments, literally; ''default'' matches none '
'stored, NULL matches all. (inlined)';

CREATE OR REPLACE FUNCTION @schema@_internal.stored_namespace(wanted text)
RETURNS text
LANGUAGE sql
IMMUTABLE
SECURITY INVOKER
AS $fn$
    SELECT NULLIF(wanted, 'default')
$fn$;

COMMENT ON FUNCTION @schema@_internal.stored_namespace(text) IS
'What a writer stores for a namespace argument (graph_namespace of it): NULL for default. '
'(inlined)';
