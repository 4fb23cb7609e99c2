// How many tasks wait for a worker and how many run, for what asks often (/healthz, the queue gauge, the
// soak bench). Each count reads only its status's partial index (tasks_claimable, tasks_leases), so it
// costs the queue's size. `status IN ('pending', 'running')` reads every task the store keeps instead
// (neither index serves an IN of both): 0.5 s on the soak's 750 MB SQLite file, on the caller's only
// thread, which is how the soak's own sampler came to stall its requests and its p99 to grow with the store.
// Every running task holds a lease (its claim writes both), and the running count says so: on PostgreSQL
// tasks_leases serves only queries that name the lease (migration 020).
import type { ActiveByTool, QueueCounts } from '../../store/port.js';
import type { Sql } from '../sql.js';

export const QUEUE_COUNTS_SQL =
  "SELECT (SELECT COUNT(*) FROM tasks WHERE status = 'pending') AS pending, (SELECT COUNT(*) FROM tasks WHERE status = 'running' AND lease_expires_at IS NOT NULL) AS running";

export async function queueCounts(db: Sql): Promise<QueueCounts> {
  const row = await db.one<{ pending: number | string; running: number | string }>(QUEUE_COUNTS_SQL);
  return { queueDepth: Number(row?.pending ?? 0), running: Number(row?.running ?? 0) };
}

/**
 * Pending and running tasks by tool, for /metrics' gauge: each half reads its status's partial index and
 * the rows it finds, so it costs the queue's size too. (Counting every status instead read every task the
 * store keeps on each scrape, 0.5 s on the soak's store.)
 */
export const ACTIVE_BY_TOOL_SQL = `SELECT tool, 'pending' AS status, COUNT(*) AS count FROM tasks WHERE status = 'pending' GROUP BY tool
UNION ALL
SELECT tool, 'running' AS status, COUNT(*) AS count FROM tasks WHERE status = 'running' AND lease_expires_at IS NOT NULL GROUP BY tool`;

export async function activeByTool(db: Sql): Promise<ActiveByTool[]> {
  const rows = await db.all<{ tool: string; status: ActiveByTool['status']; count: number | string }>(ACTIVE_BY_TOOL_SQL);
  return rows.map((r) => ({ tool: r.tool, status: r.status, count: Number(r.count) }));
}
