-- Layer: 50_pipeline
--
-- The road from a recorded memory to claims (seeds 001 and 002): a memory is a conversation
-- turn, a note or a document with its text as lines, stored with an extraction event in
-- the same transaction (a transactional outbox), so nothing recorded is lost when no
-- extractor runs. Workers lease events, call a model outside any transaction and complete
-- them through ingest only while their lease token still matches (sql/50_pipeline).

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.memories (
    tenant text NOT NULL,
    memory_id bigint GENERATED ALWAYS AS IDENTITY,
    source_kind text NOT NULL,
    source_ref text NOT NULL,
    content_hash text NOT NULL,
    occurred_at timestamptz NOT NULL,
    trust text NOT NULL,
    -- [{"id": ..., "text": ...}]: the caller's line ids, which claims cite as locators.
    lines jsonb NOT NULL,
    session_id text,
    agent_id text,
    recorded_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT memories_pkey PRIMARY KEY (tenant, memory_id),
    -- The same source version recorded twice is one memory (and one event).
    CONSTRAINT memories_source_key UNIQUE (tenant, source_kind, source_ref, content_hash),
    CONSTRAINT memories_trust_check CHECK (trust IN ('operator', 'owner', 'agent', 'third_party'))
);
COMMENT ON TABLE @schema@_internal.memories IS
'Recorded memories: one version (content hash) of one source with its text lines, waiting '
'for or done with extraction';

CREATE TABLE @schema@_internal.extraction_events (
    tenant text NOT NULL,
    event_id bigint GENERATED ALWAYS AS IDENTITY,
    memory_id bigint NOT NULL,
    state text NOT NULL DEFAULT 'ready',
    -- ready: when it may be claimed (now, or after a backoff); leased: when the lease
    -- expires and the event may be claimed again. One column, so one index finds both.
    due_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    attempts integer NOT NULL DEFAULT 0,
    lease_token uuid,
    leased_by text,
    error_code integer,
    last_error text,
    episode_id bigint,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    finished_at timestamptz,
    CONSTRAINT extraction_events_pkey PRIMARY KEY (tenant, event_id),
    CONSTRAINT extraction_events_memory_fkey FOREIGN KEY (tenant, memory_id)
        REFERENCES @schema@_internal.memories (tenant, memory_id),
    CONSTRAINT extraction_events_state_check CHECK (state IN ('ready', 'leased', 'done', 'failed')),
    CONSTRAINT extraction_events_lease_check CHECK ((state = 'leased') = (lease_token IS NOT NULL))
);
COMMENT ON TABLE @schema@_internal.extraction_events IS
'The outbox: one FACT_EXTRACT event per memory to extract, ready, leased, done or failed';

-- Claiming: a tenant's due events, oldest first.
CREATE INDEX extraction_events_due_idx ON @schema@_internal.extraction_events (tenant, due_at)
WHERE state IN ('ready', 'leased');
-- At most one open event a memory: recording it again or forcing it finds this one.
CREATE UNIQUE INDEX extraction_events_one_open_idx
ON @schema@_internal.extraction_events (tenant, memory_id)
WHERE state IN ('ready', 'leased');
CREATE INDEX extraction_events_memory_idx ON @schema@_internal.extraction_events (tenant, memory_id);

ALTER TABLE @schema@_internal.memories ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.memories FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.extraction_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.extraction_events FORCE ROW LEVEL SECURITY;
