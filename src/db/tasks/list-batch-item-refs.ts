// A batch's items from position `from` on, in input order, with their task's status and the size of its
// result but not the result: a results page decides how many lines fit its byte budget from these.
import type { BatchItemRef, TaskStatus } from '../../store/port.js';
import type { Sql } from '../sql.js';

export async function listBatchItemRefs(db: Sql, id: string, from: number, limit: number): Promise<BatchItemRef[]> {
  return db.all<BatchItemRef & { status: TaskStatus | null }>(
    `SELECT i.idx AS "index", t.id AS "taskId", t.status AS "status", t.error AS "error", ${db.dialect.jsonBytes('t.result')} AS "resultBytes"
     FROM batch_items i LEFT JOIN tasks t ON t.id = i.task_id
     WHERE i.batch_id = $1 AND i.idx >= $2 ORDER BY i.idx LIMIT $3`,
    [id, from, limit],
  );
}
