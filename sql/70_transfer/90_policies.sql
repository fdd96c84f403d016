-- Row level security for the transfer layer's tables: every row belongs to its tenant.

SELECT @schema@_internal.isolate_tenants(ARRAY['transfer_imports', 'transfer_lines', 'transfer_batches',
                                               'transfer_rejects']);
