-- Working-memory grants: who may call each function (register_api), and the table access
-- audits and the maintainer need. The tools of this layer are in 95_tools.sql.

SELECT @schema@_internal.register_api(
    '@schema@.read_facts(text,text[],text,text,integer,text,timestamptz)',
    @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.fact_history(text,boolean,text)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.spawn_tree(text)', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.session_tree(text)', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.read_facts_by_scope_keys(text[],integer)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.read_facts_page(text,text,integer,text)',
                                      @schema@_internal.agent_kinds());

-- Writers (the tuner writes nothing, so raw SQL cannot write for it either).
SELECT @schema@_internal.register_api('@schema@.register_session(text,text,text)',
                                      @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.end_session(text)', @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.store_fact(text,jsonb,text[],boolean,integer)',
                                      @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.store_facts(jsonb)', @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.bulk_store_facts(jsonb,bytea,text,integer,text)',
                                      @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.delete_fact(text,boolean,boolean,text)',
                                      @schema@_internal.writer_kinds());

SELECT @schema@_internal.register_api('@schema@.facts_read_uncrawled(text,integer)',
                                      '{facts_manager,crawler}');
SELECT @schema@_internal.register_api('@schema@.facts_set_crawled(jsonb,text,boolean)',
                                      '{facts_manager,crawler}');
SELECT @schema@_internal.register_api('@schema@.delete_session(text)', '{facts_manager,operator}');
-- The intake doorbell's fetch: the kinds that read intake/ (key_access).
SELECT @schema@_internal.register_api('@schema@.read_intake(integer)', '{facts_manager,tuner}');
SELECT @schema@_internal.register_api('@schema@.purge_tombstones(integer,integer)',
                                      '{facts_manager,operator}');
SELECT @schema@_internal.register_api('@schema@.purge_tombstones_before(timestamptz,boolean,text,integer)',
                                      '{operator}');
-- Statistics: the kinds that see the whole tenant.
SELECT @schema@_internal.register_api('@schema@.facts_stats()', '{facts_manager,tuner,operator}');
SELECT @schema@_internal.register_api('@schema@.tombstone_stats(integer)',
                                      '{facts_manager,tuner,operator}');
-- Cross-tenant maintenance: the operator (and the worker's login) only.
SELECT @schema@_internal.register_api('@schema@.run_maintenance()', '{operator}');
-- Tombstones what it does not keep, as a pattern delete would; checks the tenant itself.
SELECT @schema@_internal.register_api('@schema@.prune_facts(integer,text,text,text,text)',
                                      '{facts_manager,operator}');

-- Read-only table access for audits; row level security keeps it to the caller's tenant.
GRANT SELECT ON @schema@_internal.facts, @schema@_internal.fact_versions, @schema@_internal.sessions
TO @schema@_tuner, @schema@_operator;
GRANT SELECT ON @schema@_internal.fact_usage TO @schema@_tuner, @schema@_operator;

-- The maintainer purges across tenants (BYPASSRLS) and does nothing else.
GRANT SELECT, DELETE ON @schema@_internal.facts TO @schema@_maintainer;
-- A purge archives each tombstone's last version.
GRANT SELECT, INSERT ON @schema@_internal.fact_versions TO @schema@_maintainer;
-- ... and notes where that history ends (note_history_end).
GRANT SELECT, INSERT, UPDATE ON @schema@_internal.fact_purges TO @schema@_maintainer;
-- Row locks (FOR UPDATE SKIP LOCKED) need an UPDATE privilege; one column is enough.
GRANT UPDATE (last_crawled_at) ON @schema@_internal.facts TO @schema@_maintainer;
-- It purges expired facts (expire_facts_in) and folds the recorded uses (fold_fact_uses).
GRANT SELECT, DELETE ON @schema@_internal.fact_uses TO @schema@_maintainer;
GRANT SELECT, INSERT, UPDATE ON @schema@_internal.fact_usage TO @schema@_maintainer;

SELECT @schema@_internal.grant_internal_functions();
