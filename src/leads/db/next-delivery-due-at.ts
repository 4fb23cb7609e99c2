// When the dispatcher next has work: the earliest pending attempt or lease expiry, if any.
import type { PlanDb } from '../../db/plan.js';
import { numOrNull } from './rows.js';

export async function nextDeliveryDueAt(db: PlanDb): Promise<number | undefined> {
  const r = await db.one<{ due: unknown }>(
    "SELECT MIN(CASE WHEN status = 'pending' THEN next_attempt_at ELSE lease_until END) AS due FROM deliveries WHERE status IN ('pending', 'sending')",
  );
  return numOrNull(r?.due) ?? undefined;
}
