// Pending tasks (one by id, or a batch's) → cancelled and refunded, and running ones flagged for their
// worker, in one transaction. Answers the tasks cancelled now.
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, type TaskRecord } from './records.js';
import { refundTasks } from './refund-tasks.js';

export function cancelPending(db: Sql, column: 'id' | 'batch_id', value: string, now: number): Promise<TaskRecord[]> {
  return db.transaction(async (tx) => {
    const cancelled = await tx.all<TaskRecord>(
      `UPDATE tasks SET status = 'cancelled', error = 'Cancelled before it started.', error_kind = 'cancelled', finished_at = $1
       WHERE ${column} = $2 AND status = 'pending' RETURNING ${TASK_COLUMNS}`,
      [now, value],
    );
    await refundTasks(tx, cancelled, now);
    await tx.run(`UPDATE tasks SET cancel_requested = TRUE WHERE ${column} = $1 AND status = 'running'`, [value]);
    return cancelled;
  });
}
