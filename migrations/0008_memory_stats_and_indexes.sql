SET LOCAL ROLE @schema@_owner;

-- The agent kind that wrote a fact's current version (agent, facts_manager, crawler,
-- operator), so facts_stats() can count facts by kind of writer. Rows written before this
-- migration have none (counted as unknown).
ALTER TABLE @schema@_internal.facts ADD COLUMN writer_kind text;
COMMENT ON COLUMN @schema@_internal.facts.writer_kind IS
'The agent kind of the caller that wrote the current version (NULL: written before 0008)';

-- Smaller indexes for the same plans. The recency indexes need
-- only their sort column: reads order ties by key (and scope key) with an incremental
-- sort, so carrying them in every entry bought nothing. The crawl queue orders by key,
-- then fact_id; the fact_id tie-break is the same incremental sort, and the queue's
-- entries shrink by 8 bytes each.
DROP INDEX @schema@_internal.facts_read_idx;
CREATE INDEX facts_read_idx ON @schema@_internal.facts (tenant, updated_at DESC)
WHERE deleted_at IS NULL;
DROP INDEX @schema@_internal.facts_shared_recent_idx;
CREATE INDEX facts_shared_recent_idx ON @schema@_internal.facts (tenant, updated_at DESC)
WHERE shared AND deleted_at IS NULL;
DROP INDEX @schema@_internal.facts_uncrawled_idx;
CREATE INDEX facts_uncrawled_idx ON @schema@_internal.facts (tenant, key text_pattern_ops)
WHERE last_crawled_at IS NULL;
