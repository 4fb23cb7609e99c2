// Gives back what settled tasks were charged, once each: the unique (task_id, reason) index turns a
// second refund (a retried settle, two sweepers) into no row, and only an inserted ledger row moves the
// balance. Runs inside the transaction that settled the tasks.
import type { Sql } from '../sql.js';
import type { TaskRecord } from './records.js';

export async function refundTasks(tx: Sql, tasks: readonly TaskRecord[], now: number): Promise<void> {
  for (const t of tasks) {
    if (t.payerKind !== 'key' || !t.payerId || t.chargedMicros <= 0) continue;
    const inserted = await tx.run(
      `INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at) VALUES ($1, $2, $3, 'refund', $4)
       ON CONFLICT (task_id, reason) WHERE task_id IS NOT NULL DO NOTHING`,
      [t.payerId, t.id, t.chargedMicros, now],
    );
    if (inserted === 1) await tx.run('UPDATE api_keys SET balance_micros = balance_micros + $1 WHERE id = $2', [t.chargedMicros, t.payerId]);
  }
}
