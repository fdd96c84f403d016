-- Row level security for the governance layer's tables: every row belongs to its tenant.

SELECT @schema@_internal.isolate_tenants(
    ARRAY['audit_log', 'redaction_placeholders', 'review_candidates', 'review_rejections',
          'review_key_prefixes', 'review_fact_candidates']);
