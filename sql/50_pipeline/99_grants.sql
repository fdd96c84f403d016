-- Pipeline grants: every writer records memories; the facts manager and the operator force
-- extractions and list events; the tuner reads them too; every kind may ask where an event
-- it was handed is; the worker's lease functions and the cross-tenant backlog are the
-- operator's (the worker runs as the operator of each tenant it serves).

SELECT @schema@_internal.register_api(
    '@schema@.record_memory(text,text,jsonb,timestamptz,text,text)', @schema@_internal.writer_kinds());
SELECT @schema@_internal.register_api('@schema@.force_extract(bigint)', '{facts_manager,operator}');
SELECT @schema@_internal.register_api('@schema@.extraction_status(bigint)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.extraction_events(text,integer)',
                                      '{facts_manager,tuner,operator}');
SELECT @schema@_internal.register_api('@schema@.claim_extraction_work(integer)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.complete_extraction(bigint,uuid,text,jsonb)',
                                      '{operator}');
SELECT @schema@_internal.register_api('@schema@.complete_extractions(text,jsonb)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.fail_extraction(bigint,uuid,integer,text)',
                                      '{operator}');
SELECT @schema@_internal.register_api('@schema@.release_extraction(bigint,uuid)', '{operator}');
SELECT @schema@_internal.register_api('@schema@.extraction_backlog()', '{operator}');
SELECT @schema@_internal.register_api('@schema@.extraction_health(text)', '{operator}');
-- The validator reads nothing: every kind may check a model's output.
SELECT @schema@_internal.register_api('@schema@.validate_extraction(jsonb,jsonb)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.extraction_prompt(jsonb)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.parse_extraction_reply(text)',
                                      @schema@_internal.agent_kinds());
SELECT @schema@_internal.register_api('@schema@.extraction_context(bigint,integer)',
                                      '{facts_manager,tuner,operator}');
GRANT SELECT ON @schema@_internal.extraction_events TO @schema@_maintainer;

SELECT @schema@_internal.grant_internal_functions();
