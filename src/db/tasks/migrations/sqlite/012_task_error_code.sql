-- A stable code naming why a task failed (BLOCKED_BY_SITE…), shown as the task's error_code. Null for
-- every task written before it and for failures without a code.
ALTER TABLE tasks ADD COLUMN error_code TEXT;
