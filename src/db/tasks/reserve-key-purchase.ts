// Records a pending key purchase and reserves its payment nonce in one transaction: the nonce's primary
// key makes two concurrent uses of one signature race on an insert, not on a read, and the loser is told
// which purchase (or task) used it.
import type { KeyPurchaseRow, NewKeyPurchase } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { PURCHASE_COLUMNS, toPurchase, type PurchaseRecord } from './records.js';
import { reserveNonce } from './reserve-nonce.js';

export function reserveKeyPurchase(db: Sql, p: NewKeyPurchase) {
  return db.transaction(async (tx): Promise<{ kind: 'reserved'; purchase: KeyPurchaseRow } | { kind: 'nonce_used'; usedBy: string }> => {
    const usedBy = await reserveNonce(tx, p.nonce, p.id, p.now);
    if (usedBy !== null) return { kind: 'nonce_used', usedBy };
    const r = await tx.one<PurchaseRecord>(
      `INSERT INTO key_purchases (id, kind, key_id, wallet, micros, status, payment, created_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7) RETURNING ${PURCHASE_COLUMNS}`,
      [p.id, p.kind, p.keyId, p.wallet.toLowerCase(), p.micros, db.dialect.json(p.payment), p.now],
    );
    return { kind: 'reserved', purchase: toPurchase(db.dialect, r!) };
  });
}
