// A batch's items from position `from` on, in input order, each with its task (null once deleted).
import type { BatchItem } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function listBatchItems(db: Sql, id: string, from: number, limit: number): Promise<BatchItem[]> {
  const columns = TASK_COLUMNS.replace(/\w+/g, 't.$&');
  const rows = await db.all<TaskRecord & { batch_idx: number }>(
    `SELECT i.idx AS batch_idx, ${columns} FROM batch_items i LEFT JOIN tasks t ON t.id = i.task_id
     WHERE i.batch_id = $1 AND i.idx >= $2 ORDER BY i.idx LIMIT $3`,
    [id, from, limit],
  );
  return rows.map((r) => ({ index: r.batch_idx, task: r.id === null ? null : toTask(db.dialect, r) }));
}
