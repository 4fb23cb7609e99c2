-- tasks_leases serves the sweeper (recover-expired-leases.ts: running tasks whose lease has expired) and the
-- running count (queue-counts.ts). Keyed only by `status = 'running'`, it also matched every statement that
-- settles or renews running tasks by id (complete_tasks, renew_leases: `id = ANY(...) AND status =
-- 'running'`), and once such a statement's plan went generic (not knowing how many ids it gets) PostgreSQL
-- bitmap-ANDed the whole index with the primary key. A bitmap scan never marks an index entry dead, so each
-- completion read every entry left by the tasks that had run since the last vacuum: in a 60-s soak at
-- 1,000 req/s, 28,000 entries per completion, the largest part of the server's CPU per task. Now the index
-- holds the same rows but names the lease too, so only statements that ask about the lease
-- (`lease_expires_at < …`, or `lease_expires_at IS NOT NULL` as the running count says) can use it, and
-- settling or renewing by id has only the primary key (or, on a small table, the table itself: see 021).
DROP INDEX tasks_leases;
CREATE INDEX tasks_leases ON tasks (lease_expires_at) WHERE status = 'running' AND lease_expires_at IS NOT NULL;
