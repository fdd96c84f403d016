-- Grants, re-applied with every definition change so new functions are never left out.
--
-- Agent kinds call the API; none of them may write a table directly. The tuner and the
-- operator may also read the tables (their tenant's rows only) for audits in psql.

GRANT USAGE ON SCHEMA @schema@ TO
    @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_tuner, @schema@_operator;
GRANT USAGE ON SCHEMA @schema@_internal TO
    @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_tuner, @schema@_operator,
    @schema@_maintainer;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA @schema@ FROM PUBLIC;

-- Internal helpers run inside API functions, as the caller (invoker) or as the owner.
-- The maintainer's own function (run_maintenance's body) keeps the grants it set itself.
DO $grants$
DECLARE
    fn regprocedure;
BEGIN
    FOR fn IN
        SELECT p.oid::regprocedure FROM pg_catalog.pg_proc AS p
         WHERE p.pronamespace = '@schema@_internal'::regnamespace
           AND p.proowner = '@schema@_owner'::regrole
    LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', fn);
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO @schema@_agent, '
            '@schema@_facts_manager, @schema@_crawler, @schema@_tuner, @schema@_operator, '
            '@schema@_maintainer', fn);
    END LOOP;
END
$grants$;

-- Every kind reads its own tenant bindings (set_context checks them).
GRANT SELECT ON @schema@_internal.tenant_logins TO
    @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_tuner, @schema@_operator,
    @schema@_maintainer;

-- Every kind: context, reads, the tool entry point and its definitions.
GRANT EXECUTE ON FUNCTION
    @schema@.set_context(text, text, text, text, text),
    @schema@.current_context(),
    @schema@.schema_version(),
    @schema@.read_facts(text, text [], text, text, integer, text, timestamptz),
    @schema@.fact_history(text, boolean, text),
    @schema@.spawn_tree(text),
    @schema@.call_tool(text, jsonb, jsonb),
    @schema@.tool_definitions()
TO @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_tuner, @schema@_operator;

-- Writers (the tuner writes nothing, so raw SQL cannot write for it either).
GRANT EXECUTE ON FUNCTION
    @schema@.register_session(text, text, text),
    @schema@.end_session(text),
    @schema@.store_fact(text, jsonb, text [], boolean),
    @schema@.store_facts(jsonb),
    @schema@.delete_fact(text, boolean, boolean, text)
TO @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_operator;

GRANT EXECUTE ON FUNCTION
    @schema@.facts_read_uncrawled(text, integer),
    @schema@.facts_set_crawled(jsonb, text, boolean)
TO @schema@_crawler, @schema@_facts_manager;

GRANT EXECUTE ON FUNCTION
    @schema@.delete_session(text),
    @schema@.purge_tombstones(integer, integer)
TO @schema@_facts_manager, @schema@_operator;

-- Cross-tenant maintenance: the operator (and the worker's login) only.
GRANT EXECUTE ON FUNCTION @schema@.run_maintenance() TO @schema@_operator;

GRANT EXECUTE ON FUNCTION @schema@.set_setting(text, jsonb) TO @schema@_operator;

-- Read-only table access for audits; row level security keeps it to the caller's tenant.
GRANT SELECT ON @schema@_internal.facts, @schema@_internal.fact_versions,
    @schema@_internal.sessions, @schema@_internal.settings
TO @schema@_tuner, @schema@_operator;

-- The maintainer purges across tenants (BYPASSRLS) and does nothing else.
GRANT SELECT, DELETE ON @schema@_internal.facts TO @schema@_maintainer;
-- A purge archives each tombstone's last version.
GRANT SELECT, INSERT ON @schema@_internal.fact_versions TO @schema@_maintainer;
-- Row locks (FOR UPDATE SKIP LOCKED) need an UPDATE privilege; one column is enough.
GRANT UPDATE (last_crawled_at) ON @schema@_internal.facts TO @schema@_maintainer;
GRANT SELECT ON @schema@_internal.settings TO @schema@_maintainer;

-- Knowledge: writers define, ingest and read; the tuner reads.
GRANT EXECUTE ON FUNCTION
    @schema@.define_predicate(text, text, text),
    @schema@.ensure_entity(text, text, text [], text),
    @schema@.ingest(jsonb, jsonb),
    @schema@.retract(bigint),
    @schema@.restore(bigint)
TO @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_operator;

GRANT EXECUTE ON FUNCTION @schema@.override(text, jsonb) TO @schema@_operator;
GRANT EXECUTE ON FUNCTION @schema@.purge_source(text, text) TO @schema@_operator;
GRANT EXECUTE ON FUNCTION @schema@.verify_slot(bigint, text)
TO @schema@_facts_manager, @schema@_operator, @schema@_tuner;

GRANT EXECUTE ON FUNCTION
    @schema@.as_of(bigint, text, timestamptz, timestamptz),
    @schema@.history(bigint, text),
    @schema@.current_claims(bigint),
    @schema@.changes(timestamptz, timestamptz),
    @schema@.explain(bigint),
    @schema@.search_claims(text, real, boolean, integer)
TO @schema@_agent, @schema@_facts_manager, @schema@_crawler, @schema@_tuner, @schema@_operator;

GRANT SELECT ON @schema@_internal.entities, @schema@_internal.predicates,
    @schema@_internal.episodes, @schema@_internal.claims, @schema@_internal.claim_sources,
    @schema@_internal.retractions
TO @schema@_tuner, @schema@_operator;
