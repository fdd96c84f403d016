SET LOCAL ROLE @schema@_owner;

-- The agent kind that wrote a fact's current version (agent, facts_manager, crawler,
-- operator), so facts_stats() can count facts by kind of writer. Rows written before this
-- migration have none (counted as unknown).
ALTER TABLE @schema@_internal.facts ADD COLUMN writer_kind text;
COMMENT ON COLUMN @schema@_internal.facts.writer_kind IS
'The agent kind of the caller that wrote the current version (NULL: written before 0008)';
