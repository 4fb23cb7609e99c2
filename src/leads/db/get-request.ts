// One request by id (requester details as stored, or "[erased]" past retention).
import type { PlanDb } from '../../db/plan.js';
import type { RequestRecord } from '../types.js';
import { REQUEST_COLUMNS, toRequest, type RequestRow } from './rows.js';

export async function getRequest(db: PlanDb, id: string): Promise<RequestRecord | undefined> {
  const r = await db.one<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM requests WHERE id = $1`, [id]);
  return r && toRequest(db.dialect, r);
}
