-- Working memory: where the latest purge left a tenant's history. A fact created again
-- after a purge must start after its archived history ends; only a purge leaves history
-- behind a key with no current row, so a new fact needs to look at the history only when
-- a purge ended some of it after the writing transaction began. facts_before_insert reads
-- this one row per tenant once per statement instead of searching the history for every
-- row it inserts (sql/10_memory/20_triggers.sql).
SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.fact_purges (
    tenant text NOT NULL,
    history_until timestamptz NOT NULL,
    CONSTRAINT fact_purges_pkey PRIMARY KEY (tenant)
);
COMMENT ON TABLE @schema@_internal.fact_purges IS
'Per tenant, the latest instant up to which a purge (or a key change) archived the history '
'of a scope key that has no current row';

ALTER TABLE @schema@_internal.fact_purges ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.fact_purges FORCE ROW LEVEL SECURITY;

-- Purges before this migration (as the migrating superuser, which row level security
-- does not restrict): the end of every archived history without a current row.
RESET ROLE;
INSERT INTO @schema@_internal.fact_purges (tenant, history_until)
SELECT
    v.tenant,
    pg_catalog.max(pg_catalog.upper(v.system_time)) AS history_until
FROM @schema@_internal.fact_versions AS v
WHERE NOT EXISTS (
    SELECT 1 FROM @schema@_internal.facts AS f
    WHERE f.tenant = v.tenant AND f.scope_key = v.scope_key
)
GROUP BY v.tenant;
