-- Governance grants: the audit is read by those who audit (the tuner, the operator), never
-- by a task agent; its purge is the operator's. The table's rows are appended only by
-- append_audit (10_append.sql), which only the owner may run.

SELECT @schema@_internal.register_api(
    '@schema@.audit(timestamptz,timestamptz,text,text,text,text,integer)', '{tuner,operator}');
SELECT @schema@_internal.register_api('@schema@.purge_audit_log(timestamptz)', '{operator}');
GRANT SELECT ON @schema@_internal.audit_log TO @schema@_operator, @schema@_tuner;
-- Retention: the operator applies its tenant's; the backlog crosses tenants (the worker's).
SELECT @schema@_internal.register_api('@schema@.apply_retention(integer)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.retention_backlog()', '{operator}');
-- retention_backlog_all counts every tenant's due episodes and memories.
GRANT SELECT ON @schema@_internal.episodes, @schema@_internal.memories TO @schema@_maintainer;

-- Redaction placeholders: every kind may read its tenant's list (a writer needs to know what
-- is refused); only the operator sets it.
SELECT @schema@_internal.register_api(
    '@schema@.redaction_placeholders()', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.set_redaction_placeholders(text[])', '{operator}');
GRANT SELECT ON @schema@_internal.redaction_placeholders TO @schema@_operator, @schema@_tuner;
-- Human review: the reviewer, the tuner and the operator read the queue; the reviewer and
-- the operator decide; only the operator lifts a rejection. No kind writes the tables
-- but through these functions.
SELECT @schema@_internal.register_api('@schema@.review_queue(integer)', '{tuner,operator,reviewer}');
SELECT @schema@_internal.register_api('@schema@.review_candidate(bigint)', '{tuner,operator,reviewer}');
SELECT @schema@_internal.register_api('@schema@.approve_claim(bigint,text)', '{operator,reviewer}');
SELECT @schema@_internal.register_api('@schema@.reject_claim(bigint,text)', '{operator,reviewer}');
SELECT @schema@_internal.register_api('@schema@.lift_rejection(bigint)', '{operator}');
-- Review of facts under key prefixes: every kind reads the prefixes, the operator sets them;
-- the queue and the decisions as for claims.
SELECT @schema@_internal.register_api('@schema@.review_key_prefixes()', @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.set_review_key_prefixes(text[])', '{operator}');
SELECT @schema@_internal.register_api('@schema@.fact_review_queue(integer)', '{tuner,operator,reviewer}');
SELECT @schema@_internal.register_api('@schema@.approve_fact(bigint,text)', '{operator,reviewer}');
SELECT @schema@_internal.register_api('@schema@.reject_fact(bigint,text)', '{operator,reviewer}');

SELECT @schema@_internal.grant_internal_functions();
