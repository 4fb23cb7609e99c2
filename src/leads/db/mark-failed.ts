// A delivery failed for good (attempt budget spent, or the receiver said stop); lease released.
import type { PlanDb } from '../../db/plan.js';

export async function markFailed(db: PlanDb, id: string, attempts: number, error: string, now: number): Promise<void> {
  await db.run("UPDATE deliveries SET status = 'failed', attempts = $1, last_error = $2, lease_until = NULL, updated_at = $3 WHERE id = $4", [
    attempts,
    db.dialect.text(error),
    now,
    id,
  ]);
}
