// An account's use of the day: searches, requests and the distinct service categories.
import { all, one, runReads, type Plan, type PlanDb } from '../../db/plan.js';
import type { Usage } from '../types.js';

/** The day's categories, sorted in code: PostgreSQL would sort by the database's locale, SQLite by bytes. */
export function* usageCategories(accountId: string, day: string): Plan<string[]> {
  const rows = yield* all<{ category: string }>('SELECT category FROM usage_categories WHERE account_id = $1 AND day = $2', [accountId, day]);
  return rows.map((r) => String(r.category)).sort();
}

export function getUsage(db: PlanDb, accountId: string, day: string): Promise<Usage> {
  return runReads(db, function* () {
    const r = yield* one<{ searches: number; requests: number }>('SELECT searches, requests FROM usage_daily WHERE account_id = $1 AND day = $2', [
      accountId,
      day,
    ]);
    return { searches: Number(r?.searches ?? 0), requests: Number(r?.requests ?? 0), categories: yield* usageCategories(accountId, day) };
  });
}
