// Running → complete with its result, only by the worker holding the lease.
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function completeTask(db: Sql, id: string, owner: string, result: unknown, now: number) {
  const r = await db.one<TaskRecord>(
    `UPDATE tasks SET status = 'complete', result = $1, error = NULL, error_kind = NULL, lease_owner = NULL, lease_expires_at = NULL,
       finished_at = $2 WHERE id = $3 AND lease_owner = $4 AND status = 'running' RETURNING ${TASK_COLUMNS}`,
    [db.dialect.json(result), now, id, owner],
    'complete_task',
  );
  return r ? toTask(db.dialect, r) : null;
}
