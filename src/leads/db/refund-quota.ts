// Gives one use of a kind back (a duplicate request notified nobody); never below zero.
import type { PlanDb } from '../../db/plan.js';
import type { QuotaKind } from '../types.js';

export async function refundQuota(db: PlanDb, accountId: string, day: string, kind: QuotaKind): Promise<void> {
  const column = kind === 'searches' ? 'searches' : 'requests';
  await db.run(`UPDATE usage_daily SET ${column} = ${db.dialect.greatest('0', `${column} - 1`)} WHERE account_id = $1 AND day = $2`, [accountId, day]);
}
