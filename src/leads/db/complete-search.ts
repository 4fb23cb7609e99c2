// Stores a search's results; only a pending search can complete (the first completion is kept).
import type { PlanDb } from '../../db/plan.js';
import type { SearchMeta, SearchResultEntry } from '../types.js';
import { jsonParam } from './rows.js';

export async function completeSearch(db: PlanDb, id: string, results: SearchResultEntry[], meta: SearchMeta, now: number): Promise<void> {
  await db.run("UPDATE searches SET status = 'complete', results = $1, meta = $2, completed_at = $3 WHERE id = $4 AND status = 'pending'", [
    jsonParam(db.dialect, results),
    jsonParam(db.dialect, meta),
    now,
    id,
  ]);
}
