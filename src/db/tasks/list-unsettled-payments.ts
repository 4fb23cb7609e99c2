// x402 tasks finished before `finishedBefore` whose payment is still pending (to settle or void).
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function listUnsettledPayments(db: Sql, finishedBefore: number, limit: number) {
  const rows = await db.all<TaskRecord>(
    `SELECT ${TASK_COLUMNS} FROM tasks WHERE payer_kind = 'x402' AND finished_at IS NOT NULL AND finished_at < $1
       AND payment->>'status' = 'pending' ORDER BY finished_at LIMIT $2`,
    [finishedBefore, limit],
  );
  return rows.map((r) => toTask(db.dialect, r));
}
