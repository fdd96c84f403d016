-- Claim gates: how a later layer takes part in the write path without the write path naming
-- it. A gate is a function a later layer registers here (register_claim_gate); write_claims
-- passes every non-replay episode's checked claims through each gate before deciding them,
-- and a gate may take a claim out of the write with an outcome of its own (the governance
-- layer's review holds a claim as a candidate, or refuses a rejected assertion). A claim a
-- gate takes never reaches the claims table, so no read of claims needs to know of gates.

-- The definitions are applied together in one transaction: later layers register their
-- gates again below, so a gate removed from the definitions leaves the registry too.
DELETE FROM @schema@_internal.claim_gates;

CREATE OR REPLACE FUNCTION @schema@_internal.register_claim_gate(layer text, handler text)
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    gate regprocedure := pg_catalog.to_regprocedure(handler
        || '(text,@schema@_internal.episodes,@schema@_internal.claim_input[],real)');
BEGIN
    IF gate IS NULL THEN
        RAISE EXCEPTION 'register_claim_gate: no function %(text, episodes, claim_input[], real)',
            handler USING ERRCODE = '42883';
    END IF;
    INSERT INTO @schema@_internal.claim_gates AS g (layer, handler) VALUES (layer, gate);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.register_claim_gate(text, text) IS
'Definitions only: register a layer''s claim gate, handler(tenant, episode, claims, floor) '
'returning {"<claim index>": {outcome, ...}} for the claims it takes out of the write.';

CREATE OR REPLACE FUNCTION @schema@_internal.pass_claim_gates(
    tenant text, episode @schema@_internal.episodes, inputs @schema@_internal.claim_input [],
    floor real
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- The claims the registered gates take, by claim index, each with the outcome ingest
-- reports for it; a claim one gate took is not shown to the next.
#variable_conflict use_variable
DECLARE
    gate regprocedure;
    taken jsonb := '{}';
    more jsonb;
BEGIN
    FOR gate IN SELECT g.handler FROM @schema@_internal.claim_gates AS g ORDER BY g.layer LOOP
        EXECUTE pg_catalog.format('SELECT %s($1, $2, $3, $4)', gate::regproc)
           INTO more
          USING tenant, episode,
                ARRAY(SELECT c FROM pg_catalog.unnest(inputs) AS c
                       WHERE NOT taken ? c.position::text ORDER BY c.position),
                floor;
        taken := taken || coalesce(more, '{}');
    END LOOP;
    RETURN taken;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.pass_claim_gates(
    text, @schema@_internal.episodes, @schema@_internal.claim_input [], real) IS
'The claims of a write the registered claim gates take out of it: {"<claim index>": '
'{outcome, ...}}; {} when no gate is registered or none takes a claim.';
