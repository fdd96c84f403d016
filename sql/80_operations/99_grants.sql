-- Operations grants: the maintenance jobs cross tenants, so they are the operator's, as
-- run_maintenance is.

SELECT @schema@_internal.register_api('@schema@.maintenance_jobs()', '{operator}');
SELECT @schema@_internal.register_api('@schema@.schedule_maintenance(jsonb)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.unschedule_maintenance()', '{operator}');
SELECT @schema@_internal.register_api('@schema@.sync_graph_projections(integer)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.apply_retention_everywhere(integer)', '{operator}');

SELECT @schema@_internal.grant_internal_functions();
