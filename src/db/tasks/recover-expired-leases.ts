// Running tasks whose lease expired (their process died) go back to pending, or, once out of attempts
// or asked to cancel, end failed or cancelled and refunded. Every process sweeps: on PostgreSQL SKIP
// LOCKED lets concurrent sweepers split the expired rows instead of waiting on each other (SQLite's
// transaction holds the write lock anyway). Answers the tasks given up on and the tools requeued.
//
// Expired means on the store's clock (dialect.nowMs), the clock the claim and renewals wrote the lease
// on: a sweeper whose clock runs minutes ahead would otherwise take back tasks their workers still hold
// and renew, and run them twice. `now` (the caller's) is only written: the given-up tasks' finished_at,
// and the requeued tasks' run_after, where the store's now caps it: a sweeper whose clock runs ahead would
// otherwise requeue a task due only by its own clock, and the other workers would wait out its skew.
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, type TaskRecord } from './records.js';
import { refundTasks } from './refund-tasks.js';

export function recoverExpiredLeases(db: Sql, now: number): Promise<{ gaveUp: string[]; requeued: string[] }> {
  const d = db.dialect;
  return db.transaction(async (tx) => {
    const expired = await tx.all<TaskRecord>(
      `SELECT ${TASK_COLUMNS} FROM tasks WHERE status = 'running' AND lease_expires_at < ${d.nowMs} ORDER BY lease_expires_at${d.skipLocked}`,
    );
    const giveUp = expired.filter((t) => d.fromBool(t.cancelRequested) || t.attempts >= t.maxAttempts);
    const again = expired.filter((t) => !giveUp.includes(t));
    for (const t of giveUp) {
      const cancelled = d.fromBool(t.cancelRequested);
      await tx.run('UPDATE tasks SET status = $1, error = $2, error_kind = $3, lease_owner = NULL, lease_expires_at = NULL, finished_at = $4 WHERE id = $5', [
        cancelled ? 'cancelled' : 'failed',
        cancelled ? 'Cancelled.' : `The worker running this task stopped ${t.attempts} times; giving up.`,
        cancelled ? 'cancelled' : 'crashed',
        now,
        t.id,
      ]);
    }
    await refundTasks(tx, giveUp, now);
    if (again.length > 0) {
      await tx.run(
        `UPDATE tasks SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, run_after = ${d.least('$1', d.nowMs)} WHERE ${d.inArray('id', '$2')}`,
        [now, d.array(again.map((t) => t.id))],
      );
    }
    return { gaveUp: giveUp.map((t) => t.id), requeued: again.map((t) => t.tool) };
  });
}
