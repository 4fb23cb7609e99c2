// Records a task's payment state (x402: settled, voided…).
import type { Sql } from '../sql.js';

export async function setPayment(db: Sql, id: string, payment: Record<string, unknown>): Promise<void> {
  await db.run('UPDATE tasks SET payment = $1 WHERE id = $2', [db.dialect.json(payment), id]);
}
