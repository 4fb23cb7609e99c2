-- Completions and lease renewals by id through functions, so they read the primary key whatever the
-- statistics say, as claim_tasks does (003). A worker's connection keeps these statements prepared, and a
-- plan PostgreSQL made for one while the table was small (a new deployment, a table never analyzed) was a
-- scan of the whole table, kept as the table grew: in the 60-s soak at 1,000 req/s, 22,000 rows read per
-- completion on some connections, 4 ms per completion. Inside these functions the primary key is the only
-- path left. SQLite plans each statement afresh against its own statistics and needs none.
CREATE FUNCTION complete_tasks(ids text[], results text[], finished bigint[], owner text)
RETURNS SETOF tasks
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_bitmapscan = off
SET jit = off
AS $$
BEGIN
  -- Each row finds its own result and finish time by its position in the arrays; only the lease holder settles.
  RETURN QUERY
  UPDATE tasks t SET status = 'complete', result = results[array_position(ids, t.id)]::json, error = NULL, error_kind = NULL,
    lease_owner = NULL, lease_expires_at = NULL, finished_at = finished[array_position(ids, t.id)]
  WHERE t.id = ANY (ids) AND t.lease_owner = owner AND t.status = 'running'
  RETURNING t.*;
END
$$;

-- The renewal (renew-leases.ts): the lease ends on this server's clock, lease_ms from now, as the claim's does (016).
CREATE FUNCTION renew_leases(ids text[], owner text, lease_ms bigint)
RETURNS TABLE (id text, cancel_requested boolean)
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_bitmapscan = off
SET jit = off
AS $$
BEGIN
  RETURN QUERY
  UPDATE tasks t SET lease_expires_at = (extract(epoch FROM statement_timestamp()) * 1000)::bigint + lease_ms
  WHERE t.id = ANY (ids) AND t.lease_owner = owner AND t.status = 'running'
  RETURNING t.id, t.cancel_requested;
END
$$;
