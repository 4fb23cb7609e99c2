// Revokes a key (the first revocation time is kept).
import type { Sql } from '../sql.js';
import { toKey, type KeyRecord } from './records.js';

export async function revokeKey(db: Sql, id: string, now: number) {
  const r = await db.one<KeyRecord>('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING *', [now, id]);
  return r ? toKey(r) : null;
}
