// A new API key, with its opening balance granted through the ledger (as `reason`: a grant, a purchase) in
// the same transaction.
import type { ApiKeyRow, NewApiKey } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { KEY_COLUMNS } from './records.js';

export function createKey(db: Sql, k: NewApiKey, reason = 'grant') {
  return db.transaction(async (tx) => {
    const key = await tx.one<ApiKeyRow>(
      `INSERT INTO api_keys (id, hash, prefix, label, balance_micros, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
      [k.id, k.hash, k.prefix, db.dialect.text(k.label), k.balanceMicros, k.now],
    );
    if (k.balanceMicros > 0) {
      await tx.run('INSERT INTO credit_ledger (key_id, delta_micros, reason, created_at) VALUES ($1, $2, $3, $4)', [k.id, k.balanceMicros, reason, k.now]);
    }
    return key!;
  });
}
