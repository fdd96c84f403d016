-- Layer: 10_memory
--
-- Retention, expiry and usage of working-memory facts (issue 25).
--
-- expires_at: a fact stored with a ttl reads as absent from that instant (fact_visible,
-- the one visibility rule of every read path; its graph evidence reads as stale) and is
-- purged by maintenance as a tombstone is (its last version stays in the history).
--
-- Usage: the reads that surface a fact to an agent append one row per fact to fact_uses,
-- unlogged and without an index, so a read pays one cheap insert and never waits on a
-- row lock; maintenance folds the rows into fact_usage (a fact's last use and use count)
-- and empties them. A crash loses only the uses not yet folded.

SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.facts ADD COLUMN expires_at timestamptz;

-- Maintenance finds the live facts whose expiry passed without a scan.
CREATE INDEX facts_expiry_idx ON @schema@_internal.facts (expires_at)
    WHERE expires_at IS NOT NULL AND deleted_at IS NULL;

CREATE UNLOGGED TABLE @schema@_internal.fact_uses (
    tenant text NOT NULL,
    fact_id bigint NOT NULL,
    used_at timestamptz NOT NULL
);
COMMENT ON TABLE @schema@_internal.fact_uses IS
'Uses of facts not yet folded into fact_usage: one row per fact a read surfaced (unlogged).';

CREATE TABLE @schema@_internal.fact_usage (
    tenant text NOT NULL,
    fact_id bigint NOT NULL,
    last_used_at timestamptz NOT NULL,
    use_count bigint NOT NULL,
    CONSTRAINT fact_usage_pkey PRIMARY KEY (tenant, fact_id),
    CONSTRAINT fact_usage_fact_fkey FOREIGN KEY (tenant, fact_id)
        REFERENCES @schema@_internal.facts (tenant, fact_id) ON DELETE CASCADE,
    CONSTRAINT fact_usage_count_positive CHECK (use_count > 0)
);
COMMENT ON TABLE @schema@_internal.fact_usage IS
'Each used fact''s last use and use count, folded from fact_uses by maintenance.';

ALTER TABLE @schema@_internal.fact_uses ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.fact_uses FORCE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.fact_usage ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.fact_usage FORCE ROW LEVEL SECURITY;
