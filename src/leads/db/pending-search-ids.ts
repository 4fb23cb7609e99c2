// Searches accepted but never finished (a process stopped while running them), oldest first.
import type { PlanDb } from '../../db/plan.js';

export async function pendingSearchIds(db: PlanDb): Promise<string[]> {
  return (await db.all<{ id: string }>("SELECT id FROM searches WHERE status = 'pending' ORDER BY created_at")).map((r) => String(r.id));
}
