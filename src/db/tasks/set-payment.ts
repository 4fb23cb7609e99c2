// Records a task's payment state (x402: settled, voided…).
import type { Sql } from '../sql.js';

export async function setPayment(db: Sql, id: string, payment: Record<string, unknown>): Promise<void> {
  await db.run('UPDATE tasks SET payment = $1 WHERE id = $2', [db.dialect.json(payment), id]);
}

/**
 * Replaces a payment that is still `pending`: false when it has ended already (settled, unpaid, void),
 * which is then kept. Settlement writes through this, so a second run over the same payment (a sweep page
 * read before the first run ended, a process that lost the lease mid-run) neither overwrites the outcome
 * nor counts it again.
 */
export async function updatePendingPayment(db: Sql, id: string, payment: Record<string, unknown>): Promise<boolean> {
  return (await db.run(`UPDATE tasks SET payment = $1 WHERE id = $2 AND payment->>'status' = 'pending'`, [db.dialect.json(payment), id])) === 1;
}
