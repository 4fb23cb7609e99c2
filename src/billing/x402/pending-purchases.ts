// Key purchases left `pending` (a process died between submitting the payment and granting the credit),
// read on the store's own connection: the store port lists purchases only by wallet.
import type { SqlRunner } from '../../db/sql-runner.js';
import type { KeyPurchaseRow } from '../../store/payments-port.js';

/** A purchase row as the reconciler needs it (its status is `pending` by definition). */
export type PendingPurchase = Pick<KeyPurchaseRow, 'id' | 'kind' | 'keyId' | 'wallet' | 'micros' | 'payment' | 'createdAt'>;

/** Key purchases still `pending` that were recorded before `before` (oldest first). */
export async function pendingKeyPurchases(sql: SqlRunner, before: number, limit: number): Promise<PendingPurchase[]> {
  const rows = await sql.all(`SELECT * FROM key_purchases WHERE status = 'pending' AND created_at < ? ORDER BY created_at LIMIT ?`, [before, limit]);
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind as 'create' | 'topup',
    keyId: r.key_id === null ? null : String(r.key_id),
    wallet: String(r.wallet),
    micros: Number(r.micros),
    payment: (typeof r.payment === 'string' ? JSON.parse(r.payment) : r.payment) as Record<string, unknown>,
    createdAt: Number(r.created_at),
  }));
}
