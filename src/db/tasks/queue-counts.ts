// How many tasks wait for a worker and how many run, for what asks often (/healthz, the queue gauge, the
// soak bench). Each count reads only its status's partial index (tasks_claimable, tasks_leases), so it
// costs the queue's size. `status IN ('pending', 'running')` reads every task the store keeps instead
// (neither index serves an IN of both): 0.5 s on the soak's 750 MB SQLite file, on the caller's only
// thread, which is how the soak's own sampler came to stall its requests and its p99 to grow with the store.
import type { QueueCounts } from '../../store/port.js';
import type { Sql } from '../sql.js';

export const QUEUE_COUNTS_SQL =
  "SELECT (SELECT COUNT(*) FROM tasks WHERE status = 'pending') AS pending, (SELECT COUNT(*) FROM tasks WHERE status = 'running') AS running";

export async function queueCounts(db: Sql): Promise<QueueCounts> {
  const row = await db.one<{ pending: number | string; running: number | string }>(QUEUE_COUNTS_SQL);
  return { queueDepth: Number(row?.pending ?? 0), running: Number(row?.running ?? 0) };
}
