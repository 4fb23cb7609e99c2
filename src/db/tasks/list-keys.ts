// Every key, oldest first.
import type { Sql } from '../sql.js';
import { toKey, type KeyRecord } from './records.js';

export async function listKeys(db: Sql) {
  return (await db.all<KeyRecord>('SELECT * FROM api_keys ORDER BY created_at, id')).map(toKey);
}
