// Whether the directory holds demo professionals (answered by the partial index pros_demo).
import type { PlanDb } from '../../db/plan.js';

export async function hasDemoPros(db: PlanDb): Promise<boolean> {
  return (await db.one('SELECT 1 FROM pros WHERE is_demo LIMIT 1')) !== undefined;
}
