-- The six-argument claim_tasks of 003 is still called by processes of release 1d6b9d1 during a rolling
-- upgrade (007 and 014 left it in place for them). Until now it wrote the lease's end from the caller's
-- clock, so an old worker whose clock ran ahead wrote a lease that the new sweepers, which compare leases
-- with the store's clock (016), saw as live for too long, and one whose clock lagged wrote a lease they took
-- back while the task still ran. It is replaced in place with the same arguments and the same claim order;
-- only the lease now ends on this server's clock: lease_until - now_ms is its length, as in 016. now_ms still
-- decides which tasks are due and is the started_at written.
CREATE OR REPLACE FUNCTION claim_tasks(now_ms bigint, batch integer, owner text, lease_until bigint, only_tools text[], except_tools text[])
RETURNS SETOF tasks
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_sort = off
AS $$
DECLARE
  -- statement_timestamp(): the same instant as dialect.nowMs in the statements around this one.
  store_now constant bigint := (extract(epoch FROM statement_timestamp()) * 1000)::bigint;
BEGIN
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
  UPDATE tasks t SET status = 'running', lease_owner = owner, lease_expires_at = store_now + (lease_until - now_ms),
    attempts = t.attempts + 1, started_at = COALESCE(t.started_at, now_ms)
  FROM due WHERE t.id = due.id
  RETURNING t.*;
END
$$;
