-- Capture of the other changes, a row trigger each (they are rare, one row a call):
--   graph nodes and edges written or deleted      graph_node_write, graph_node_delete,
--                                                 graph_edge_write, graph_edge_delete
--   a recorded memory (the pipeline's outbox)     record_memory
--   an embedding model registered                 register_embedding_model
--   a tenant setting set                          set_setting
--   a login bound to or unbound from a tenant     bind_tenant_login, unbind_tenant_login
-- Settings and login bindings are audited even with the audit off: turning it off, and
-- who may act for the tenant, always leave a row. Role grants (GRANT pgfacts_<kind> TO a
-- login) are catalog changes no trigger sees; docs/governance.md says so.

CREATE OR REPLACE FUNCTION @schema@_internal.audit_graph_changed()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    row_state jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE pg_catalog.to_jsonb(NEW) END;
    old_state jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE pg_catalog.to_jsonb(OLD) END;
    entity text := CASE TG_TABLE_NAME WHEN 'graph_nodes' THEN 'node' ELSE 'edge' END;
    kept text [] := CASE entity
        WHEN 'node' THEN ARRAY['node_key', 'kind', 'name', 'aliases', 'namespace', 'created_kind']
        ELSE ARRAY['from_id', 'to_id', 'predicate', 'confidence', 'observations', 'namespace']
    END;
BEGIN
    -- The graph holds structure and names, never fact values: its columns are kept as
    -- they are (bookkeeping such as timestamps and asserted_by left out).
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        coalesce(NEW.tenant, OLD.tenant),
        CASE WHEN TG_OP = 'DELETE' THEN pg_catalog.clock_timestamp()
             WHEN entity = 'node' THEN (row_state ->> 'updated_at')::timestamptz
             ELSE (row_state ->> 'last_seen')::timestamptz END,
        'graph_' || entity || CASE WHEN TG_OP = 'DELETE' THEN '_delete' ELSE '_write' END,
        'graph_' || entity || ':' || (coalesce(row_state, old_state) ->> (entity || '_id')),
        (SELECT pg_catalog.jsonb_object_agg(k, old_state -> k) FROM pg_catalog.unnest(kept) AS k
          WHERE old_state IS NOT NULL),
        (SELECT pg_catalog.jsonb_object_agg(k, row_state -> k) FROM pg_catalog.unnest(kept) AS k
          WHERE row_state IS NOT NULL))::@schema@_internal.audit_entry]);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_graph_changed() IS
'Row trigger on graph nodes and edges: a graph_<node|edge>_<write|delete> row with the '
'structure before and after.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_memory_recorded()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        NEW.tenant, NEW.recorded_at, 'record_memory', 'memory:' || NEW.memory_id, NULL,
        pg_catalog.jsonb_build_object(
            'source_kind', NEW.source_kind,
            'source_ref_sha256', @schema@_internal.audit_digest(NEW.source_ref),
            'content_hash', NEW.content_hash, 'trust', NEW.trust,
            'lines', pg_catalog.jsonb_array_length(NEW.lines),
            'lines_sha256', @schema@_internal.audit_digest(NEW.lines::text))
    )::@schema@_internal.audit_entry]);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_memory_recorded() IS
'Row trigger: a record_memory row per memory recorded (its lines as a count and a digest).';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_model_registered()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        NEW.tenant, NEW.created_at, 'register_embedding_model', 'embedding_model:' || NEW.model,
        NULL, pg_catalog.jsonb_build_object('model', NEW.model, 'dimension', NEW.dimension)
    )::@schema@_internal.audit_entry]);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_model_registered() IS
'Row trigger: a register_embedding_model row per model a tenant registers.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_setting_changed()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        coalesce(NEW.tenant, OLD.tenant), coalesce(NEW.updated_at, pg_catalog.clock_timestamp()),
        'set_setting', 'setting:' || coalesce(NEW.name, OLD.name),
        CASE WHEN TG_OP <> 'INSERT' THEN pg_catalog.jsonb_build_object('value', OLD.value) END,
        CASE WHEN TG_OP <> 'DELETE' THEN pg_catalog.jsonb_build_object('value', NEW.value) END
    )::@schema@_internal.audit_entry], true);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_setting_changed() IS
'Row trigger: a set_setting row per tenant setting set, with its value before and after '
'(audited even with the audit off).';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_login_changed()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.append_audit(ARRAY[ROW(
        coalesce(NEW.tenant, OLD.tenant), pg_catalog.clock_timestamp(),
        CASE TG_OP WHEN 'INSERT' THEN 'bind_tenant_login' ELSE 'unbind_tenant_login' END,
        'login:' || coalesce(NEW.login, OLD.login),
        CASE WHEN TG_OP = 'DELETE' THEN pg_catalog.jsonb_build_object('bound', true) END,
        pg_catalog.jsonb_build_object('bound', TG_OP = 'INSERT')
    )::@schema@_internal.audit_entry], true);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_login_changed() IS
'Row trigger: a bind_tenant_login or unbind_tenant_login row per login binding changed '
'(audited even with the audit off).';

CREATE OR REPLACE TRIGGER graph_nodes_audit AFTER INSERT OR UPDATE OR DELETE
ON @schema@_internal.graph_nodes
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_graph_changed();

CREATE OR REPLACE TRIGGER graph_edges_audit AFTER INSERT OR UPDATE OR DELETE
ON @schema@_internal.graph_edges
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_graph_changed();

CREATE OR REPLACE TRIGGER memories_audit_recorded AFTER INSERT ON @schema@_internal.memories
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_memory_recorded();

CREATE OR REPLACE TRIGGER embedding_models_audit_registered AFTER INSERT
ON @schema@_internal.embedding_models
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_model_registered();

CREATE OR REPLACE TRIGGER settings_audit_changed AFTER INSERT OR UPDATE OR DELETE
ON @schema@_internal.settings
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_setting_changed();

CREATE OR REPLACE TRIGGER tenant_logins_audit_changed AFTER INSERT OR DELETE
ON @schema@_internal.tenant_logins
FOR EACH ROW EXECUTE FUNCTION @schema@_internal.audit_login_changed();
