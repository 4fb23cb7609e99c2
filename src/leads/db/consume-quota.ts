// Counts one use of a kind in a category unless a daily limit is spent, atomically.
import { one, run, runPlan, type PlanDb } from '../../db/plan.js';
import { Rollback } from '../../db/sql.js';
import type { Category } from '../categories.js';
import type { QuotaOutcome } from '../store-shapes.js';
import type { QuotaKind, QuotaLimits, Usage } from '../types.js';
import { usageCategories } from './get-usage.js';

export function consumeQuota(db: PlanDb, accountId: string, day: string, kind: QuotaKind, category: Category, limits: QuotaLimits): Promise<QuotaOutcome> {
  const column = kind === 'searches' ? 'searches' : 'requests';
  return runPlan<QuotaOutcome>(db, function* () {
    // The no-op DO UPDATE creates or locks the day's row and returns its latest committed counts: on
    // PostgreSQL every other consumer for this account and day waits here until this one commits (SQLite's
    // BEGIN IMMEDIATE holds the whole database), so the check and the increment act on numbers nobody
    // else can change meanwhile.
    const row = yield* one<{ searches: number; requests: number }>(
      'INSERT INTO usage_daily (account_id, day) VALUES ($1, $2) ON CONFLICT (account_id, day) DO UPDATE SET day = excluded.day RETURNING searches, requests',
      [accountId, day],
    );
    const usage: Usage = { searches: Number(row?.searches ?? 0), requests: Number(row?.requests ?? 0), categories: yield* usageCategories(accountId, day) };
    const limit = kind === 'searches' ? limits.searchesPerDay : limits.requestsPerDay;
    // Refusals roll back, so they leave no trace (not even the empty day row).
    if (usage[kind] >= limit) throw new Rollback<QuotaOutcome>({ ok: false, exceeded: kind, usage });
    if (!usage.categories.includes(category) && usage.categories.length >= limits.categoriesPerDay) {
      throw new Rollback<QuotaOutcome>({ ok: false, exceeded: 'categories', usage });
    }
    yield* run(`UPDATE usage_daily SET ${column} = ${column} + 1 WHERE account_id = $1 AND day = $2`, [accountId, day]);
    yield* run('INSERT INTO usage_categories (account_id, day, category) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [accountId, day, category]);
    const categories = usage.categories.includes(category) ? usage.categories : [...usage.categories, category].sort();
    return { ok: true, usage: { ...usage, [kind]: usage[kind] + 1, categories } };
  });
}
