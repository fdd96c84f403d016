-- The audit's one way in (append_audit) and its guard (audit_log_guard): rows are appended,
-- never changed, and removed only by the operator's bounded purge (30_purge.sql).

CREATE OR REPLACE FUNCTION @schema@_internal.audit_operations()
RETURNS text []
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Each is named by the capture trigger that writes it (20_capture.sql), the last three by
    -- the review's decisions (54_review_decide.sql).
    RETURN ARRAY[
        'store', 'delete', 'delete_pattern', 'session_cleanup', 'crawl_mark', 'purge',
        'ingest', 'override', 'claim_decision', 'retract', 'restore', 'purge_source',
        'record_memory', 'graph_node_write', 'graph_node_delete', 'graph_edge_write',
        'graph_edge_delete', 'register_embedding_model', 'set_setting', 'bind_tenant_login',
        'unbind_tenant_login', 'purge_audit_log', 'set_redaction_placeholders',
        'review_approve', 'review_reject', 'review_lift'];
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_operations() IS
'Every operation an audit row can name, in the order docs/governance.md lists them.';

-- Inlinable (tests/lint_sql.py lists the inlined helpers by their COMMENT).
CREATE OR REPLACE FUNCTION @schema@_internal.audit_digest(content text)
RETURNS text
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    SELECT 'sha256:' OPERATOR(pg_catalog.||) pg_catalog.encode(
        pg_catalog.sha256(pg_catalog.convert_to(content, 'UTF8')), 'hex')
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_digest(text) IS
'The form content takes in the audit: sha256:<hex> of its text, NULL for NULL (inlined).';

-- Run as the maintainer (BYPASSRLS): a change's tenant is the changed row's own, also in a
-- statement that crosses tenants (the maintenance purge), and the switch is read for it
-- without a caller context. Owned by the maintainer and executable by the owner only, so
-- no agent kind can append a row that no change made.
SET LOCAL ROLE @schema@_maintainer;

CREATE OR REPLACE FUNCTION @schema@_internal.append_audit(
    entries @schema@_internal.audit_entry [], always boolean DEFAULT false
) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- Who: the login, and the caller context the API function that made the change
    -- checked (tenant, session, agent, kind); NULL fields where none was set. Read once,
    -- not once a row (an import appends thousands in a statement).
    login text := SESSION_USER;
    session text := @schema@_internal.context_setting('pgfacts.session_id');
    agent text := @schema@_internal.context_setting('pgfacts.agent_id');
    kind text := @schema@_internal.context_setting('pgfacts.agent_kind');
BEGIN
    INSERT INTO @schema@_internal.audit_log AS a (
        tenant, at, operation, target, db_role, session_id, agent_id, agent_kind, before, after)
    SELECT e.tenant, e.at, e.operation, e.target, login, session, agent, kind,
           e.before, e.after
      FROM pg_catalog.unnest(entries) AS e
     WHERE always OR e.tenant IN (
               SELECT t.tenant FROM (SELECT DISTINCT x.tenant FROM pg_catalog.unnest(entries) AS x) AS t
                WHERE @schema@_internal.audit_enabled(t.tenant));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.append_audit(@schema@_internal.audit_entry [], boolean) IS
'Append audit rows for changes a capture trigger saw, with the caller''s identity; only for '
'tenants whose audit_enabled is 1 unless always (settings and login bindings).';

REVOKE ALL ON FUNCTION @schema@_internal.append_audit(@schema@_internal.audit_entry [], boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @schema@_internal.append_audit(@schema@_internal.audit_entry [], boolean)
TO @schema@_owner;

SET LOCAL ROLE @schema@_owner;

CREATE OR REPLACE FUNCTION @schema@_internal.audit_log_guard()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- Every role, the owner's API functions included: the table's privileges are not the
    -- rule, this trigger is. Only purge_audit_log's delete of its own tenant's rows older
    -- than the retention passes.
    IF TG_OP = 'TRUNCATE' THEN
        RAISE EXCEPTION 'the audit log is append-only' USING ERRCODE = '42501',
              DETAIL = 'TRUNCATE of the audit log refused';
    END IF;
    IF TG_OP = 'DELETE'
       AND pg_catalog.current_setting('pgfacts.audit_purge', true) = OLD.tenant
       AND OLD.at < @schema@_internal.audit_retention_cutoff(OLD.tenant) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'the audit log is append-only'
        USING ERRCODE = '42501',
              DETAIL = pg_catalog.format('%s of audit row %s refused', TG_OP,
                                         OLD.audit_id),
              HINT = 'an operator removes rows older than audit_retention_days with purge_audit_log';
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_log_guard() IS
'Trigger: refuse every UPDATE, TRUNCATE and DELETE of audit rows (42501) but '
'purge_audit_log''s, of rows older than the tenant''s audit_retention_days.';

CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON @schema@_internal.audit_log
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_log_guard();

CREATE OR REPLACE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON @schema@_internal.audit_log
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_log_guard();
