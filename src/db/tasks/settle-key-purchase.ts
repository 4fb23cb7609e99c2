// Pending → settled, granting the credit once. The first statement moves the purchase out of 'pending'
// (taking its row lock on PostgreSQL), so of two concurrent settlers only one gets a row and grants.
import type { ApiKeyRow, SettleKeyPurchase } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { KEY_COLUMNS, PURCHASE_COLUMNS, toPurchase, type PurchaseRecord } from './records.js';

export function settleKeyPurchase(db: Sql, id: string, o: SettleKeyPurchase) {
  const d = db.dialect;
  return db.transaction(async (tx) => {
    const settled = await tx.one<PurchaseRecord>(
      `UPDATE key_purchases SET status = 'settled', payment = $1, settled_at = $2 WHERE id = $3 AND status = 'pending' RETURNING ${PURCHASE_COLUMNS}`,
      [d.json(o.payment), o.now, id],
    );
    if (!settled) return null;
    let keyId = settled.keyId;
    if (settled.kind === 'create') {
      if (!o.newKey) throw new Error('settling a key creation needs the new key');
      keyId = o.newKey.id;
      await tx.run('INSERT INTO api_keys (id, hash, prefix, label, balance_micros, created_at) VALUES ($1, $2, $3, $4, 0, $5)', [
        keyId,
        o.newKey.hash,
        o.newKey.prefix,
        d.text(o.newKey.label),
        o.now,
      ]);
    }
    const key = await tx.one<ApiKeyRow>(`UPDATE api_keys SET balance_micros = balance_micros + $1 WHERE id = $2 RETURNING ${KEY_COLUMNS}`, [
      settled.micros,
      keyId,
    ]);
    await tx.run("INSERT INTO credit_ledger (key_id, delta_micros, reason, created_at) VALUES ($1, $2, 'purchase', $3)", [keyId, settled.micros, o.now]);
    const purchase = await tx.one<PurchaseRecord>(`UPDATE key_purchases SET key_id = $1 WHERE id = $2 RETURNING ${PURCHASE_COLUMNS}`, [keyId, id]);
    return { purchase: toPurchase(d, purchase!), key: key! };
  });
}
