// Every key, oldest first.
import type { ApiKeyRow } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { KEY_COLUMNS } from './records.js';

export function listKeys(db: Sql) {
  return db.all<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
}
