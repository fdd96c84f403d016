-- Knowledge grants: writers define, ingest, retract and restore; every kind reads; the
-- operator overrides and purges. Table access is for audits (RLS keeps it to the tenant).

SELECT @schema@_internal.register_api('@schema@.define_predicate(text,text,text)',
                                      @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.ensure_entity(text,text,text[],text)',
                                      @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.ingest(jsonb,jsonb)', @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.retract(bigint)', @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.restore(bigint)', @schema@_internal.writer_kinds());

SELECT @schema@_internal.register_api('@schema@.override(text,jsonb)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.purge_source(text,text)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.verify_slot(bigint,text)',
                                      '{facts_manager,tuner,operator}');

SELECT @schema@_internal.register_api('@schema@.as_of(bigint,text,timestamptz,timestamptz)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.claim_history(bigint,text)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.history(bigint,text)', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.current_claims(bigint)', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.changes(timestamptz,timestamptz)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.explain_claim(bigint)', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.explain(bigint)', @schema@_internal.agent_kinds());

GRANT SELECT ON @schema@_internal.entities, @schema@_internal.predicates,
    @schema@_internal.episodes, @schema@_internal.claims, @schema@_internal.claim_sources,
    @schema@_internal.retractions
TO @schema@_tuner, @schema@_operator;

SELECT @schema@_internal.grant_internal_functions();
