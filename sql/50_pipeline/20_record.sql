-- record_memory: a memory and its extraction event in one transaction (the outbox).

CREATE OR REPLACE FUNCTION @schema@.record_memory(
    source_kind text,
    source_ref text,
    lines jsonb,
    occurred_at timestamptz DEFAULT NULL,
    trust text DEFAULT 'agent',
    content_hash text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.require_kind(@schema@_internal.writer_kinds(), 'record memories');
    memory @schema@_internal.memories;
    event_id bigint;
BEGIN
    lines := @schema@_internal.check_memory_lines(lines);
    content_hash := coalesce(content_hash, @schema@_internal.memory_content_hash(lines));
    -- The episode the extraction will write, checked now: what ingest would refuse later
    -- is refused while the caller can still correct it.
    PERFORM @schema@_internal.check_episode(pg_catalog.jsonb_build_object(
        'source_kind', source_kind, 'source_ref', source_ref, 'content_hash', content_hash,
        'trust', trust));
    PERFORM @schema@_internal.check_trust_of_kind(trust, kind);

    INSERT INTO @schema@_internal.memories AS m (
        tenant, source_kind, source_ref, content_hash, occurred_at, trust, lines, session_id,
        agent_id)
    VALUES (tenant, source_kind, source_ref, content_hash,
            coalesce(occurred_at, pg_catalog.now()), trust, lines,
            @schema@_internal.context_session(), @schema@_internal.context_agent())
    ON CONFLICT ON CONSTRAINT memories_source_key DO NOTHING
    RETURNING m.* INTO memory;
    IF memory.memory_id IS NULL THEN
        -- Recorded before (or by a racing call, which ON CONFLICT waited for): that memory
        -- and its newest event, nothing written.
        SELECT m.* INTO memory FROM @schema@_internal.memories AS m
         WHERE m.tenant = tenant AND m.source_kind = source_kind AND m.source_ref = source_ref
           AND m.content_hash = content_hash;
        SELECT e.event_id INTO event_id FROM @schema@_internal.extraction_events AS e
         WHERE e.tenant = tenant AND e.memory_id = memory.memory_id
         ORDER BY e.event_id DESC LIMIT 1;
        RETURN pg_catalog.jsonb_build_object('memory_id', memory.memory_id, 'event_id', event_id,
                                             'recorded', false, 'content_hash', content_hash);
    END IF;
    INSERT INTO @schema@_internal.extraction_events AS e (tenant, memory_id)
    VALUES (tenant, memory.memory_id)
    RETURNING e.event_id INTO event_id;
    RETURN pg_catalog.jsonb_build_object('memory_id', memory.memory_id, 'event_id', event_id,
                                         'recorded', true, 'content_hash', content_hash);
END
$fn$;

COMMENT ON FUNCTION @schema@.record_memory(text, text, jsonb, timestamptz, text, text) IS
'Record a memory (a conversation turn, a note, a document): its text as lines [{id, text}] '
'with the caller''s ids, when it occurred (default now), its source and trust, and in the '
'same transaction a FACT_EXTRACT event for the extraction worker. The same source and '
'content hash (default: sha256 of the lines) again is the same memory: nothing written, '
'recorded false. Returns {memory_id, event_id, recorded, content_hash}.';
