// A batch's items from position `from` on, in input order, each with its task (null once deleted).
import type { BatchItem } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { camelColumns } from '../columns.js';
import { TASK_FIELDS, toTask, type TaskRecord } from './records.js';

export async function listBatchItems(db: Sql, id: string, from: number, limit: number): Promise<BatchItem[]> {
  const rows = await db.all<TaskRecord & { batchIdx: number }>(
    `SELECT i.idx AS "batchIdx", ${camelColumns(TASK_FIELDS, 't')} FROM batch_items i LEFT JOIN tasks t ON t.id = i.task_id
     WHERE i.batch_id = $1 AND i.idx >= $2 ORDER BY i.idx LIMIT $3`,
    [id, from, limit],
  );
  return rows.map((r) => ({ index: r.batchIdx, task: r.id === null ? null : toTask(db.dialect, r) }));
}
