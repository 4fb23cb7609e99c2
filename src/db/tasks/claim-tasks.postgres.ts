// Claiming on PostgreSQL through claim_tasks() (migration 007), which takes due tasks in fair
// order (fair-order.ts: round-robin across payers, each payer's in claim order) within per-tool limits,
// from a bounded candidate set read through the claim indexes whatever the statistics say, and locks them
// FOR UPDATE SKIP LOCKED, so workers claim in parallel and each pending task goes to exactly one of them.
// Since migration 016 the lease it writes ends on the server's clock (now + leaseMs gives its length) and
// sessions' leases are compared with that clock; `now` decides only what is due.
import type { ClaimOptions } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { fairOrder } from './fair-order.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function claimTasksPostgres(db: Sql, o: ClaimOptions) {
  const limited = Object.entries(o.toolLimits ?? {});
  const rows = await db.all<TaskRecord>(
    `SELECT ${TASK_COLUMNS} FROM claim_tasks($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      o.now,
      o.limit,
      o.owner,
      o.now + o.leaseMs,
      o.onlyTools ?? null,
      o.excludeTools?.length ? o.excludeTools : null,
      limited.length ? limited.map(([tool]) => tool) : null,
      limited.length ? limited.map(([, n]) => n) : null,
    ],
    'claim_tasks_limited',
  );
  // UPDATE … RETURNING has no order: put the claimed tasks back in the order they were chosen.
  return fairOrder(rows).map((r) => toTask(db.dialect, r));
}
