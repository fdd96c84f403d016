SET LOCAL ROLE @schema@_owner;

-- The knowledge write path in named phases (sql/20_knowledge/30_write_claims.sql): the
-- claims are checked (a problem code per claim), the touched slots read once into an
-- in-memory picture, each claim decided against it by a named rule (decide_one,
-- decide_many, decide_event, corroboration) and the picture written by one writer
-- (write_claim_changes), which retract, restore and the source-changed rule use too.
-- The picture is typed rows instead of parallel arrays:

-- A source line of a row, and whether this write inserts it.
CREATE TYPE @schema@_internal.source_line AS (
    line @schema@_internal.claim_sources,
    write boolean
);

-- A row of a touched slot: the claim row as read or as it will be written, what the write
-- does with it (live: read, unchanged; retire: read, retired here; new: inserted;
-- new_retired: inserted already retired, outranked; dropped: made and replaced by this
-- write, never written), its trust (its most trusted source's rank) and its source lines.
CREATE TYPE @schema@_internal.slot_row AS (
    claim @schema@_internal.claims,
    state text,
    trust integer,
    lines @schema@_internal.source_line []
);

-- One touched slot: its rows, as the write path reads and changes them.
CREATE TYPE @schema@_internal.slot_picture AS (
    subject bigint,
    predicate text,
    rows @schema@_internal.slot_row []
);

-- What one claim does to its slot: the outcome (and a rejection's reason), the row it
-- concerns (corroborated, retired, or outranking it: a position in the slot's rows), why
-- that row is retired, the new row's valid range and the pieces of the retired row kept.
CREATE TYPE @schema@_internal.claim_decision AS (
    outcome text,
    reason text,
    target integer,
    retire_reason text,
    valid tstzrange,
    copies tstzrange []
);

-- A checked claim carries a problem code (the SQLSTATE, message and hint are chosen from
-- it when the episode is refused), no hint, and the number of its slot in the picture.
ALTER TYPE @schema@_internal.claim_input DROP ATTRIBUTE hint, ADD ATTRIBUTE slot integer;

-- The jsonb index and the single-row writers give way to the picture and its writer.
DROP FUNCTION IF EXISTS @schema@_internal.index_add(jsonb, text, integer);
DROP FUNCTION IF EXISTS @schema@_internal.retire_claim(text, bigint, text, bigint, timestamptz);
DROP FUNCTION IF EXISTS @schema@_internal.copy_claim(text, bigint, tstzrange, timestamptz);

-- Retirement reasons nothing writes (narrowed copies are new rows with copied_from; a
-- purged slot's rows are deleted and replayed) are no longer allowed.
ALTER TABLE @schema@_internal.claims DROP CONSTRAINT claims_retired_reason_check;
ALTER TABLE @schema@_internal.claims ADD CONSTRAINT claims_retired_reason_check CHECK (
    retired_reason IN ('superseded', 'replaced', 'retracted', 'source_changed', 'outranked')
);
