// One task by id: read on every status poll, so a named statement.
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function getTask(db: Sql, id: string) {
  const r = await db.one<TaskRecord>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1`, [id], 'get_task');
  return r ? toTask(db.dialect, r) : null;
}
