-- Layer: 70_transfer
--
-- A file can be staged in parts, side by side (import_staged's first_line and last_part):
-- import_file's sessions each COPY and number a part of it, where one session staged the
-- whole file while the others waited (about 5 s of an import of 1,000,000 lines). The
-- import counts the lines its parts kept and where the last part ends; the file is staged
-- (total_lines) once those agree.

SET LOCAL ROLE @schema@_owner;

ALTER TABLE @schema@_internal.transfer_imports
    ADD COLUMN staged_lines bigint NOT NULL DEFAULT 0,
    ADD COLUMN staged_through bigint;
COMMENT ON COLUMN @schema@_internal.transfer_imports.staged_lines IS
'How many of the file''s lines its staged parts hold (import_staged)';
COMMENT ON COLUMN @schema@_internal.transfer_imports.staged_through IS
'The file''s last line number, once the part that ends the file is staged';

-- An import staged whole before this migration: its parts are that one.
UPDATE @schema@_internal.transfer_imports
   SET staged_lines = total_lines, staged_through = total_lines
 WHERE total_lines IS NOT NULL;
