// A wallet's key purchases, newest first.
import type { Sql } from '../sql.js';
import { PURCHASE_COLUMNS, toPurchase, type PurchaseRecord } from './records.js';

export async function listKeyPurchases(db: Sql, wallet: string, limit: number) {
  const rows = await db.all<PurchaseRecord>(`SELECT ${PURCHASE_COLUMNS} FROM key_purchases WHERE wallet = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [
    wallet.toLowerCase(),
    limit,
  ]);
  return rows.map((r) => toPurchase(db.dialect, r));
}
