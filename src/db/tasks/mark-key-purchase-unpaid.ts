// Pending → unpaid: the payment could not be settled, so no credit is granted.
import type { Sql } from '../sql.js';

export async function markKeyPurchaseUnpaid(db: Sql, id: string, payment: Record<string, unknown>): Promise<void> {
  await db.run("UPDATE key_purchases SET status = 'unpaid', payment = $1 WHERE id = $2 AND status = 'pending'", [db.dialect.json(payment), id]);
}
