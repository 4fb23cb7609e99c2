// The key a presented secret hashes to (every authenticated request).
import type { ApiKeyRow } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { KEY_COLUMNS } from './records.js';

export async function findKeyByHash(db: Sql, hash: string) {
  return (await db.one<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1`, [hash], 'find_key_by_hash')) ?? null;
}
