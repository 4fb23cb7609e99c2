// A delivery attempt failed and is tried again at nextAttemptAt; lease released.
import type { PlanDb } from '../../db/plan.js';

export async function markRetry(db: PlanDb, id: string, attempts: number, nextAttemptAt: number, error: string, now: number): Promise<void> {
  await db.run(
    "UPDATE deliveries SET status = 'pending', attempts = $1, next_attempt_at = $2, last_error = $3, lease_until = NULL, updated_at = $4 WHERE id = $5",
    [attempts, nextAttemptAt, db.dialect.text(error), now, id],
  );
}
