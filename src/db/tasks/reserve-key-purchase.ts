// Records a pending key purchase and reserves its payment nonce in one transaction: the nonce's primary
// key makes two concurrent uses of one signature race on an insert, not on a read, and the loser is told
// which purchase (or task) used it.
import type { KeyPurchaseRow, NewKeyPurchase } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { nonceKey, PURCHASE_COLUMNS, toPurchase, type PurchaseRecord } from './records.js';

export function reserveKeyPurchase(db: Sql, p: NewKeyPurchase) {
  return db.transaction(async (tx): Promise<{ kind: 'reserved'; purchase: KeyPurchaseRow } | { kind: 'nonce_used'; usedBy: string }> => {
    const n = nonceKey(p.nonce);
    const reserved = await tx.run(
      'INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING',
      [...n, p.id, p.now],
    );
    if (reserved === 0) {
      const used = await tx.one<{ task_id: string }>('SELECT task_id FROM payment_nonces WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4', n);
      return { kind: 'nonce_used', usedBy: used?.task_id ?? '' };
    }
    const r = await tx.one<PurchaseRecord>(
      `INSERT INTO key_purchases (id, kind, key_id, wallet, micros, status, payment, created_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7) RETURNING ${PURCHASE_COLUMNS}`,
      [p.id, p.kind, p.keyId, p.wallet.toLowerCase(), p.micros, db.dialect.json(p.payment), p.now],
    );
    return { kind: 'reserved', purchase: toPurchase(db.dialect, r!) };
  });
}
