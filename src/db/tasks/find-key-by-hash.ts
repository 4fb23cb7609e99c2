// The key a presented secret hashes to (every authenticated request).
import type { Sql } from '../sql.js';
import { toKey, type KeyRecord } from './records.js';

export async function findKeyByHash(db: Sql, hash: string) {
  const r = await db.one<KeyRecord>(
    'SELECT id, prefix, label, balance_micros, created_at, revoked_at FROM api_keys WHERE hash = $1',
    [hash],
    'find_key_by_hash',
  );
  return r ? toKey(r) : null;
}
