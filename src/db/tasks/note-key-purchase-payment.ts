// Keeps what a purchase's settlement learned (its transaction hash once submitted) while it is still
// pending, so a failure after submission leaves the reconciler the hash to look up on chain.
import type { Sql } from '../sql.js';

export async function noteKeyPurchasePayment(db: Sql, id: string, payment: Record<string, unknown>): Promise<void> {
  await db.run("UPDATE key_purchases SET payment = $1 WHERE id = $2 AND status = 'pending'", [db.dialect.json(payment), id]);
}
