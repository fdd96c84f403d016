-- Layer: 60_governance
--
-- The mutation audit (issue 25, seed 003's "mutation audit"): one row per change to memory,
-- appended in the transaction that made the change by triggers the governance layer puts on
-- the earlier layers' tables (sql/60_governance/20_capture.sql). Who (login, tenant, session,
-- agent, agent kind), when (the instant the changed data carries), the operation, its target,
-- and the before and after. Content (fact values, claim objects and texts, source refs) is
-- kept only as a sha256 digest, so a later purge leaves no copy of what it removed here.
-- Append-only: a trigger refuses every UPDATE and every DELETE but the operator's bounded
-- purge (purge_audit_log), for every role, the owner's included.

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.audit_log (
    tenant text NOT NULL,
    audit_id bigint GENERATED ALWAYS AS IDENTITY,
    -- The instant the change carries: a fact version's start, a knowledge write's commit
    -- instant, a crawl mark's stamp.
    at timestamptz NOT NULL,
    operation text NOT NULL,
    target text NOT NULL,
    db_role text NOT NULL,
    session_id text,
    agent_id text,
    agent_kind text,
    before jsonb,
    after jsonb,
    CONSTRAINT audit_log_pkey PRIMARY KEY (tenant, audit_id),
    CONSTRAINT audit_log_operation_shape CHECK (operation ~ '^[a-z][a-z_]{0,63}$')
);
COMMENT ON TABLE @schema@_internal.audit_log IS
'The mutation audit: one row per change to memory (who, when, operation, target, before and '
'after, content as a sha256 digest only); append-only, read through audit()';

CREATE INDEX audit_log_at_idx ON @schema@_internal.audit_log (tenant, at);
CREATE INDEX audit_log_target_idx ON @schema@_internal.audit_log (tenant, target);

-- What a capture trigger hands to the appender (append_audit): the caller's identity is
-- read there, once, from the caller context.
CREATE TYPE @schema@_internal.audit_entry AS (
    tenant text,
    at timestamptz,
    operation text,
    target text,
    before jsonb,
    after jsonb
);

ALTER TABLE @schema@_internal.audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE @schema@_internal.audit_log FORCE ROW LEVEL SECURITY;

-- The appender runs as the maintainer (BYPASSRLS): a change's tenant is the changed row's,
-- also in a statement that crosses tenants (the maintenance purge).
GRANT INSERT ON @schema@_internal.audit_log TO @schema@_maintainer;
