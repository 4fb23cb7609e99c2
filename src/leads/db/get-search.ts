// One search by id, with its results once complete.
import type { PlanDb } from '../../db/plan.js';
import type { SearchRecord } from '../types.js';
import { SEARCH_COLUMNS, toSearch, type SearchRow } from './rows.js';

export async function getSearch(db: PlanDb, id: string): Promise<SearchRecord | undefined> {
  const r = await db.one<SearchRow>(`SELECT ${SEARCH_COLUMNS} FROM searches WHERE id = $1`, [id]);
  return r && toSearch(db.dialect, r);
}
