// Running → failed (or cancelled), only by the lease holder, refunding the charge when asked: one
// transaction, so the refund happens exactly when the settle does.
import type { FailOptions } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';
import { refundTasks } from './refund-tasks.js';

export function failTask(db: Sql, id: string, owner: string, o: FailOptions, now: number) {
  return db.transaction(async (tx) => {
    const r = await tx.one<TaskRecord>(
      `UPDATE tasks SET status = $1, error = $2, error_kind = $3, error_code = $7, lease_owner = NULL, lease_expires_at = NULL, finished_at = $4
       WHERE id = $5 AND lease_owner = $6 AND status = 'running' RETURNING ${TASK_COLUMNS}`,
      [o.kind === 'cancelled' ? 'cancelled' : 'failed', db.dialect.text(o.error), o.kind, now, id, owner, o.code ?? null],
      'fail_task',
    );
    if (!r) return null;
    if (o.refund) await refundTasks(tx, [r], now);
    return toTask(db.dialect, r);
  });
}
