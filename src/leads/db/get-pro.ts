// One professional by id.
import type { PlanDb } from '../../db/plan.js';
import type { Pro } from '../types.js';
import { rowToPro, type Row } from './rows.js';

export async function getPro(db: PlanDb, id: string): Promise<Pro | undefined> {
  const r = await db.one<Row>('SELECT * FROM pros WHERE id = $1', [id]);
  return r && rowToPro(db.dialect, r);
}
