// A key by id or displayed prefix; prefixes may collide, so the oldest answers, on both dialects.
import type { ApiKeyRow } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { KEY_COLUMNS } from './records.js';

export async function findKey(db: Sql, idOrPrefix: string) {
  return (await db.one<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1 OR prefix = $1 ORDER BY created_at, id LIMIT 1`, [idOrPrefix])) ?? null;
}
