-- Layer: 20_knowledge
--
-- Expiry of knowledge (issue 25). An episode may carry an expiry (ingest's expires_at or
-- ttl_seconds). A claim row expires when every episode that supports it has expired: the
-- write path keeps the row's expires_at (NULL while any source is unexpiring, otherwise
-- the latest of its sources') as it adds source lines, so every read path tests one
-- column of the row it already reads. From that instant the row reads as absent; the
-- maintenance pass then purges the expired episodes through the purge path (the slots
-- they touched replayed without them), as retention does.

SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.episodes ADD COLUMN expires_at timestamptz;
ALTER TABLE @schema@_internal.claims ADD COLUMN expires_at timestamptz;

-- Maintenance finds the expired episodes, and a write finds whether its tenant uses expiry
-- at all, without a scan.
CREATE INDEX episodes_expiry_idx ON @schema@_internal.episodes (tenant, expires_at)
    WHERE expires_at IS NOT NULL;
