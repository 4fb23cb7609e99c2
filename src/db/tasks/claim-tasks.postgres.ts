// Claiming on PostgreSQL through claim_tasks() (migration 003), which pins the plan to the ordered scan
// of pending rows whatever the statistics say and takes them FOR UPDATE SKIP LOCKED, so workers claim in
// parallel and each pending task goes to exactly one of them.
import type { ClaimOptions } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function claimTasksPostgres(db: Sql, o: ClaimOptions) {
  const rows = await db.all<TaskRecord>(
    `SELECT ${TASK_COLUMNS} FROM claim_tasks($1, $2, $3, $4, $5, $6)`,
    [o.now, o.limit, o.owner, o.now + o.leaseMs, o.onlyTools ?? null, o.excludeTools?.length ? o.excludeTools : null],
    'claim_tasks',
  );
  return rows.map((r) => toTask(db.dialect, r)).sort((a, b) => a.runAfter - b.runAfter || a.createdAt - b.createdAt);
}
