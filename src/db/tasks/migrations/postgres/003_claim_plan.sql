-- Claiming must not depend on planner statistics. On a table analyzed while empty (or while the queue
-- was idle) the planner believes few rows are pending and bitmap-scans every pending row, then sorts
-- them all for a LIMIT of 16: ~1,250 tuples and 3 ms per claimed task. Inside this function the only
-- path left is the ordered scan of tasks_claimable (pending rows in claim order), which stops after
-- `batch` rows whatever the statistics say. PL/pgSQL also keeps the statement's plan per connection.
CREATE FUNCTION claim_tasks(now_ms bigint, batch integer, owner text, lease_until bigint, only_tools text[], except_tools text[])
RETURNS SETOF tasks
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_sort = off
AS $$
BEGIN
  -- SKIP LOCKED: rows another worker is claiming right now are passed over, not waited for, so many
  -- workers claim in parallel and each pending task goes to exactly one of them.
  RETURN QUERY
  WITH due AS (
    SELECT id FROM tasks
    WHERE status = 'pending' AND run_after <= now_ms
      AND (only_tools IS NULL OR tool = ANY (only_tools))
      AND (except_tools IS NULL OR tool <> ALL (except_tools))
    ORDER BY run_after, created_at
    LIMIT batch
    FOR UPDATE SKIP LOCKED
  )
  UPDATE tasks t SET status = 'running', lease_owner = owner, lease_expires_at = lease_until, attempts = t.attempts + 1,
    started_at = COALESCE(t.started_at, now_ms)
  FROM due WHERE t.id = due.id
  RETURNING t.*;
END
$$;
