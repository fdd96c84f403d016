SET LOCAL ROLE @schema@_owner;

-- The first full-text column of claims (simple configuration, text and object only) has
-- had no reader since retrieval indexes claims through search_doc (migration 0012): its
-- stored tsvector and GIN index cost every claim row space and every write an index
-- insert. Dropping the column drops its index; existing rows give the space back as they
-- are rewritten (VACUUM FULL, or pg_repack, reclaims it at once).
ALTER TABLE @schema@_internal.claims DROP COLUMN search_vector;

-- At commit, a knowledge write moves its rows' system time to the commit instant
-- (sql/20_knowledge/25_commit_instants.sql): an UPDATE of system_time alone. The exclusion
-- constraint's predicate named system_time (upper_inf), which made every such update a
-- non-HOT one: a new index entry in every index. A row is live exactly when it has no
-- retirement reason (claims_retired_shape), so the predicate says that instead, and with
-- free space left on each page the commit update stays on the page, without index entries.
ALTER TABLE @schema@_internal.claims DROP CONSTRAINT claims_one_live_value;
ALTER TABLE @schema@_internal.claims ADD CONSTRAINT claims_one_live_value
    EXCLUDE USING gist (tenant WITH =, subject_id WITH =, predicate WITH =, valid WITH &&)
    WHERE (cardinality = 'one' AND retired_reason IS NULL);
ALTER TABLE @schema@_internal.claims SET (fillfactor = 85);
