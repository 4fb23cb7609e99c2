// One request by id (requester details as stored, or "[erased]" past retention).
import type { PlanDb } from '../../db/plan.js';
import type { RequestRecord } from '../types.js';
import { rowToRequest, type Row } from './rows.js';

export async function getRequest(db: PlanDb, id: string): Promise<RequestRecord | undefined> {
  const r = await db.one<Row>('SELECT * FROM requests WHERE id = $1', [id]);
  return r && rowToRequest(db.dialect, r);
}
