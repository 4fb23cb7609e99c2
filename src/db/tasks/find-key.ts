// A key by id or displayed prefix; prefixes may collide, so the oldest answers, on both dialects.
import type { Sql } from '../sql.js';
import { toKey, type KeyRecord } from './records.js';

export async function findKey(db: Sql, idOrPrefix: string) {
  const r = await db.one<KeyRecord>('SELECT * FROM api_keys WHERE id = $1 OR prefix = $1 ORDER BY created_at, id LIMIT 1', [idOrPrefix]);
  return r ? toKey(r) : null;
}
