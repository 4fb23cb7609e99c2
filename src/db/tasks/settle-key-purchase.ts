// Pending → settled, granting the credit once. The first statement moves the purchase out of 'pending'
// (taking its row lock on PostgreSQL), so of two concurrent settlers only one gets a row and grants.
// A top-up credits its key only if the key is still live, in the same statement that adds the credit
// (creditKey's onlyLive): a key revoked between the transfer and this moment gets nothing, and the
// purchase stays 'settled' (the money was collected) with `refund_due` in its payment record, so the
// answer, the wallet's purchase list and the operator all see that the payment is owed back.
import type { SettleKeyPurchase } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { createKey } from './create-key.js';
import { creditKey } from './credit-key.js';
import { findKey } from './find-key.js';
import { PURCHASE_COLUMNS, toPurchase, type PurchaseRecord } from './records.js';

export const REFUND_DUE_REASON =
  'The key was revoked after the payment was collected and before it was credited: nothing was credited, and the payment is owed back to the payer.';

export function settleKeyPurchase(db: Sql, id: string, o: SettleKeyPurchase) {
  const d = db.dialect;
  return db.transaction(async (tx) => {
    const settled = await tx.one<PurchaseRecord>(
      `UPDATE key_purchases SET status = 'settled', payment = $1, settled_at = $2 WHERE id = $3 AND status = 'pending' RETURNING ${PURCHASE_COLUMNS}`,
      [d.json(o.payment), o.now, id],
    );
    if (!settled) return null;
    if (settled.kind === 'create' && !o.newKey) throw new Error('settling a key creation needs the new key');
    // In this transaction: a new key with the amount as its opening balance, or the amount credited to its
    // key if it is still live (key_purchases.key_id references it, and keys are revoked, never deleted).
    const key =
      settled.kind === 'create'
        ? await createKey(tx, { ...o.newKey!, balanceMicros: settled.micros, now: o.now }, 'purchase')
        : await creditKey(tx, settled.keyId!, settled.micros, 'purchase', o.now, { onlyLive: true });
    if (!key) {
      const revoked = await findKey(tx, settled.keyId!);
      if (!revoked) throw new Error(`key purchase ${id}: its key ${settled.keyId} does not exist`);
      const owed = await tx.one<PurchaseRecord>(`UPDATE key_purchases SET payment = $1 WHERE id = $2 RETURNING ${PURCHASE_COLUMNS}`, [
        d.json({ ...o.payment, refund_due: true, refund_reason: REFUND_DUE_REASON }),
        id,
      ]);
      return { purchase: toPurchase(d, owed!), key: revoked, credited: false };
    }
    const purchase = await tx.one<PurchaseRecord>(`UPDATE key_purchases SET key_id = $1 WHERE id = $2 RETURNING ${PURCHASE_COLUMNS}`, [key.id, id]);
    return { purchase: toPurchase(d, purchase!), key, credited: true };
  });
}
