// Revokes a key (the first revocation time is kept).
import type { ApiKeyRow } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { KEY_COLUMNS } from './records.js';

export async function revokeKey(db: Sql, id: string, now: number) {
  return (await db.one<ApiKeyRow>(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING ${KEY_COLUMNS}`, [now, id])) ?? null;
}
