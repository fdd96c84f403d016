-- Transfer grants: export and import move a whole tenant, the operator's work.

SELECT @schema@_internal.register_api('@schema@.export_tenant(boolean,boolean)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.import_open(text,text,text)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.import_staged(bigint,boolean)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.import_batch(integer,bigint,bigint)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.import_abandon()', '{operator}');

SELECT @schema@_internal.grant_internal_functions();
