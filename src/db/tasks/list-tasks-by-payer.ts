// A payer's tasks, newest first, created before `beforeCreatedAt`.
import type { Payer } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function listTasksByPayer(db: Sql, payer: Payer, limit: number, beforeCreatedAt?: number) {
  const rows = await db.all<TaskRecord>(
    `SELECT ${TASK_COLUMNS} FROM tasks WHERE payer_kind = $1 AND payer_id = $2 AND created_at < $3 ORDER BY created_at DESC, id DESC LIMIT $4`,
    [payer.kind, payer.id, beforeCreatedAt ?? Number.MAX_SAFE_INTEGER, limit],
  );
  return rows.map((r) => toTask(db.dialect, r));
}
