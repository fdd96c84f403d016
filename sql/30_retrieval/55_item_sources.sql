-- Item kinds a later layer serves to search, without search naming the layer: a layer
-- registers a handler for its kind here (register_search_source), and a search whose
-- item_kinds name that kind lists the handler's hits after its own. The governance layer
-- serves 'candidate' (claims held for review), so what is unreviewed never mixes into an
-- answer unless asked for, and then comes back under its own kind.

-- The definitions are applied together in one transaction: later layers register their
-- sources again below, so a source removed from the definitions leaves the registry too.
DELETE FROM @schema@_internal.search_item_sources;

CREATE OR REPLACE FUNCTION @schema@_internal.register_search_source(item_kind text, handler text)
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    source regprocedure := pg_catalog.to_regprocedure(handler || '(text,text,integer)');
BEGIN
    IF source IS NULL THEN
        RAISE EXCEPTION 'register_search_source: no function %(text, text, integer)', handler
            USING ERRCODE = '42883';
    END IF;
    INSERT INTO @schema@_internal.search_item_sources AS s (item_kind, handler)
    VALUES (item_kind, source);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.register_search_source(text, text) IS
'Definitions only: register the handler of a search item kind, handler(tenant, query, lim) '
'returning TABLE (item_id, ref, key, content, value, score, valid_from, valid_to, '
'recorded_at), best first, at most lim.';

CREATE OR REPLACE FUNCTION @schema@_internal.search_item_kinds()
RETURNS text []
LANGUAGE sql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT ARRAY['fact', 'claim']
           || ARRAY(SELECT s.item_kind FROM @schema@_internal.search_item_sources AS s
                     ORDER BY s.item_kind)
$fn$;

COMMENT ON FUNCTION @schema@_internal.search_item_kinds() IS
'The item kinds search takes: fact, claim, and those later layers registered.';

CREATE OR REPLACE FUNCTION @schema@_internal.source_hits(
    tenant text, query text, item_kinds text [], lim integer
) RETURNS TABLE (
    item_kind text, item_id bigint, ref text, key text, content text, value jsonb,
    score real, valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz
)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    source record;
    served integer;
BEGIN
    -- Each asked-for kind a later layer serves, in kind order, while the limit lasts.
    FOR source IN
        SELECT s.item_kind, s.handler FROM @schema@_internal.search_item_sources AS s
         WHERE s.item_kind = ANY (item_kinds) ORDER BY s.item_kind
    LOOP
        EXIT WHEN lim <= 0;
        RETURN QUERY EXECUTE pg_catalog.format(
            'SELECT %L::text, h.* FROM %s($1, $2, $3) AS h', source.item_kind, source.handler::regproc)
        USING tenant, query, lim;
        GET DIAGNOSTICS served = ROW_COUNT;
        lim := lim - served;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.source_hits(text, text, text [], integer) IS
'The hits of the registered item kinds among item_kinds (search_item_sources), each '
'handler''s best first, at most lim in all.';
