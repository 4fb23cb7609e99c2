// One professional by id.
import type { PlanDb } from '../../db/plan.js';
import type { Pro } from '../types.js';
import { proColumns, toPro, type ProRow } from './rows.js';

export async function getPro(db: PlanDb, id: string): Promise<Pro | undefined> {
  const r = await db.one<ProRow>(`SELECT ${proColumns()} FROM pros WHERE id = $1`, [id]);
  return r && toPro(db.dialect, r);
}
