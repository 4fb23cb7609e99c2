// Adds credit to a key (or takes it, with a negative amount), with its ledger row, in one transaction.
// `onlyLive` credits only a key not revoked, decided by the UPDATE itself: on PostgreSQL a revocation in
// flight holds the row, and the condition is checked again once it commits, so the two cannot both win.
import type { ApiKeyRow } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { KEY_COLUMNS } from './records.js';

export function creditKey(db: Sql, id: string, micros: number, reason: string, now: number, o: { onlyLive?: boolean } = {}) {
  return db.transaction(async (tx) => {
    const key = await tx.one<ApiKeyRow>(
      `UPDATE api_keys SET balance_micros = balance_micros + $1 WHERE id = $2${o.onlyLive ? ' AND revoked_at IS NULL' : ''} RETURNING ${KEY_COLUMNS}`,
      [micros, id],
    );
    if (!key) return null;
    await tx.run('INSERT INTO credit_ledger (key_id, delta_micros, reason, created_at) VALUES ($1, $2, $3, $4)', [id, micros, db.dialect.text(reason), now]);
    return key;
  });
}
