SET LOCAL ROLE @schema@_owner;

-- Earlier versions of facts are read by scope key and system time (fact_history, read_facts
-- known_at), through the no-overlap exclusion constraint's GiST index, never by fact id:
-- the (tenant, fact_id, version_id) index had no reader, and every overwrite and delete
-- paid an insert into it.
DROP INDEX @schema@_internal.fact_versions_fact_idx;
