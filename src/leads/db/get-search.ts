// One search by id, with its results once complete.
import type { PlanDb } from '../../db/plan.js';
import type { SearchRecord } from '../types.js';
import { rowToSearch, type Row } from './rows.js';

export async function getSearch(db: PlanDb, id: string): Promise<SearchRecord | undefined> {
  const r = await db.one<Row>('SELECT * FROM searches WHERE id = $1', [id]);
  return r && rowToSearch(db.dialect, r);
}
