// A delivery was accepted by its receiver: done, lease released.
import type { PlanDb } from '../../db/plan.js';

export async function markDelivered(db: PlanDb, id: string, now: number): Promise<void> {
  await db.run(
    "UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = $1, lease_until = NULL, last_error = NULL, updated_at = $1 WHERE id = $2",
    [now, id],
  );
}
