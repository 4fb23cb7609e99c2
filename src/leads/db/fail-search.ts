// Marks a pending search failed with the sentence its caller will read.
import type { PlanDb } from '../../db/plan.js';

export async function failSearch(db: PlanDb, id: string, error: string, now: number): Promise<void> {
  await db.run("UPDATE searches SET status = 'failed', error = $1, completed_at = $2 WHERE id = $3 AND status = 'pending'", [db.dialect.text(error), now, id]);
}
