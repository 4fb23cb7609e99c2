// One batch by id.
import type { Sql } from '../sql.js';
import { BATCH_COLUMNS, toBatch, type BatchRecord } from './records.js';

export async function getBatch(db: Sql, id: string) {
  const r = await db.one<BatchRecord>(`SELECT ${BATCH_COLUMNS} FROM batches WHERE id = $1`, [id]);
  return r ? toBatch(r) : null;
}
