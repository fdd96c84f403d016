-- Claims pages are filled again (migration 0017 kept 15% of each free so that the commit
-- stamp's UPDATE of system_time stays on the page). Measured on the knowledge bench's
-- load, the reserve cost more than it saved: HOT updates still happen on full pages once
-- earlier versions are pruned (69% of the updates against 79%), while the heap took a
-- third more pages (28.5 against 21.4 MiB in a load without pauses) and ingest was no
-- faster. Pages written from now on are packed; existing ones keep their free space.
SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.claims RESET (fillfactor);
