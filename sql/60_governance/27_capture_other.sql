-- Capture of the other changes: statement triggers on the graph's nodes and edges (a bulk
-- load pays once a statement), a row trigger on the rest (rare, one row a call):
--   graph nodes and edges written or deleted      graph_node_write, graph_node_delete,
--                                                 graph_edge_write, graph_edge_delete
--   a recorded memory (the pipeline's outbox)     record_memory
--   an embedding model registered                 register_embedding_model
--   a tenant setting set                          set_setting
--   a login bound to or unbound from a tenant     bind_tenant_login, unbind_tenant_login
-- Settings and login bindings are audited even with the audit off: turning it off, and
-- who may act for the tenant, always leave a row. Role grants (GRANT pgfacts_<kind> TO a
-- login) are catalog changes no trigger sees; docs/governance.md says so.

-- Inlinable (the graph triggers evaluate it per row): what the audit keeps of a node or an
-- edge, as graph reads show it; bookkeeping (timestamps, asserted_by) is left out.
CREATE OR REPLACE FUNCTION @schema@_internal.audit_graph_state(entity text, graph_row jsonb)
RETURNS jsonb
LANGUAGE sql
STABLE
SECURITY INVOKER
AS $fn$
    -- Built key by key: an aggregate over a list of keys cost 33 us a row.
    SELECT CASE WHEN graph_row IS NULL THEN NULL
                WHEN entity OPERATOR(pg_catalog.=) 'node' THEN pg_catalog.jsonb_build_object(
                    'node_key', graph_row OPERATOR(pg_catalog.->) 'node_key',
                    'kind', graph_row OPERATOR(pg_catalog.->) 'kind',
                    'name', graph_row OPERATOR(pg_catalog.->) 'name',
                    'aliases', graph_row OPERATOR(pg_catalog.->) 'aliases',
                    'namespace', graph_row OPERATOR(pg_catalog.->) 'namespace',
                    'created_kind', graph_row OPERATOR(pg_catalog.->) 'created_kind')
                ELSE pg_catalog.jsonb_build_object(
                    'from_id', graph_row OPERATOR(pg_catalog.->) 'from_id',
                    'to_id', graph_row OPERATOR(pg_catalog.->) 'to_id',
                    'predicate', graph_row OPERATOR(pg_catalog.->) 'predicate',
                    'confidence', graph_row OPERATOR(pg_catalog.->) 'confidence',
                    'observations', graph_row OPERATOR(pg_catalog.->) 'observations',
                    'namespace', graph_row OPERATOR(pg_catalog.->) 'namespace')
           END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_graph_state(text, jsonb) IS
'A graph node or edge as the audit keeps it: its structure and names, no bookkeeping (inlined).';

-- Statement triggers with transition tables, like the facts': a bulk load of the graph
-- pays one call and one insert per statement.
CREATE OR REPLACE FUNCTION @schema@_internal.audit_graph_entries(
    entity text, change text, old_rows jsonb [], new_rows jsonb []
) RETURNS @schema@_internal.audit_entry []
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    -- old_rows and new_rows pair up by position (an update's), or one of them is empty.
    RETURN ARRAY(
        SELECT ROW(coalesce(n ->> 'tenant', o ->> 'tenant'),
                   CASE WHEN change = 'delete' THEN pg_catalog.clock_timestamp()
                        WHEN entity = 'node' THEN (n ->> 'updated_at')::timestamptz
                        ELSE (n ->> 'last_seen')::timestamptz END,
                   'graph_' || entity || '_' || change,
                   'graph_' || entity || ':' || (coalesce(n, o) ->> (entity || '_id')),
                   @schema@_internal.audit_graph_state(entity, o),
                   @schema@_internal.audit_graph_state(entity, n))::@schema@_internal.audit_entry
          FROM ROWS FROM (pg_catalog.unnest(old_rows), pg_catalog.unnest(new_rows)) AS r (o, n));
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_graph_entries(text, text, jsonb [], jsonb []) IS
'The audit rows of a statement''s graph changes: graph_<node|edge>_<write|delete>, with the '
'structure before and after.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_graph_inserted()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.append_audit(@schema@_internal.audit_graph_entries(
        CASE TG_TABLE_NAME WHEN 'graph_nodes' THEN 'node' ELSE 'edge' END, 'write', '{}',
        ARRAY(SELECT pg_catalog.to_jsonb(n) FROM graph_new AS n)));
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_graph_inserted() IS
'Statement trigger on graph nodes and edges: a graph_<node|edge>_write row per row inserted.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_graph_updated()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    entity text := CASE TG_TABLE_NAME WHEN 'graph_nodes' THEN 'node' ELSE 'edge' END;
    pairs jsonb [];
BEGIN
    -- Old and new versions paired by id, in one order.
    SELECT pg_catalog.array_agg(pg_catalog.jsonb_build_object('o', o.r, 'n', n.r) ORDER BY n.id)
      INTO pairs
      FROM (SELECT pg_catalog.to_jsonb(x) AS r, pg_catalog.to_jsonb(x) ->> (entity || '_id') AS id
              FROM graph_old AS x) AS o
      JOIN (SELECT pg_catalog.to_jsonb(x) AS r, pg_catalog.to_jsonb(x) ->> (entity || '_id') AS id
              FROM graph_new AS x) AS n ON n.id = o.id;
    PERFORM @schema@_internal.append_audit(@schema@_internal.audit_graph_entries(
        entity, 'write', ARRAY(SELECT p -> 'o' FROM pg_catalog.unnest(pairs) AS p),
        ARRAY(SELECT p -> 'n' FROM pg_catalog.unnest(pairs) AS p)));
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_graph_updated() IS
'Statement trigger on graph nodes and edges: a graph_<node|edge>_write row per row updated.';

CREATE OR REPLACE FUNCTION @schema@_internal.audit_graph_deleted()
RETURNS trigger
LANGUAGE plpgsql
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM @schema@_internal.append_audit(@schema@_internal.audit_graph_entries(
        CASE TG_TABLE_NAME WHEN 'graph_nodes' THEN 'node' ELSE 'edge' END, 'delete',
        ARRAY(SELECT pg_catalog.to_jsonb(o) FROM graph_old AS o), '{}'));
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.audit_graph_deleted() IS
'Statement trigger on graph nodes and edges: a graph_<node|edge>_delete row per row deleted.';

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
    -- The switch may have changed: audit_enabled reads it again.
    PERFORM pg_catalog.set_config('pgfacts.audit_switch', '', true);
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

CREATE OR REPLACE TRIGGER graph_nodes_audit_inserted AFTER INSERT ON @schema@_internal.graph_nodes
REFERENCING NEW TABLE AS graph_new
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_graph_inserted();

CREATE OR REPLACE TRIGGER graph_nodes_audit_updated AFTER UPDATE ON @schema@_internal.graph_nodes
REFERENCING OLD TABLE AS graph_old NEW TABLE AS graph_new
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_graph_updated();

CREATE OR REPLACE TRIGGER graph_nodes_audit_deleted AFTER DELETE ON @schema@_internal.graph_nodes
REFERENCING OLD TABLE AS graph_old
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_graph_deleted();

CREATE OR REPLACE TRIGGER graph_edges_audit_inserted AFTER INSERT ON @schema@_internal.graph_edges
REFERENCING NEW TABLE AS graph_new
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_graph_inserted();

CREATE OR REPLACE TRIGGER graph_edges_audit_updated AFTER UPDATE ON @schema@_internal.graph_edges
REFERENCING OLD TABLE AS graph_old NEW TABLE AS graph_new
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_graph_updated();

CREATE OR REPLACE TRIGGER graph_edges_audit_deleted AFTER DELETE ON @schema@_internal.graph_edges
REFERENCING OLD TABLE AS graph_old
FOR EACH STATEMENT EXECUTE FUNCTION @schema@_internal.audit_graph_deleted();


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
