// A batch's items (not tasks) by their task's status: duplicates count once per input position, and an
// item whose task retention deleted counts as cancelled.
import type { BatchCounts, TaskStatus } from '../../store/port.js';
import type { Sql } from '../sql.js';

export async function batchCounts(db: Sql, id: string): Promise<BatchCounts> {
  const rows = await db.all<{ status: TaskStatus; n: number | string }>(
    `SELECT COALESCE(t.status, 'cancelled') AS status, COUNT(*) AS n FROM batch_items i LEFT JOIN tasks t ON t.id = i.task_id
     WHERE i.batch_id = $1 GROUP BY 1`,
    [id],
  );
  const counts: BatchCounts = { pending: 0, running: 0, complete: 0, failed: 0, cancelled: 0 };
  for (const r of rows) counts[r.status] += Number(r.n);
  return counts;
}
