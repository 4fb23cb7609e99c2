// How many professionals the directory holds, and how many of them are demo listings.
import type { PlanDb } from '../../db/plan.js';
import type { DirectoryStats } from '../store-shapes.js';

export async function directoryStats(db: PlanDb): Promise<DirectoryStats> {
  // Two counts rather than SUM(is_demo): each is answered from an index instead of reading every row.
  const r = await db.one<{ total: number; demo: number }>('SELECT (SELECT COUNT(*) FROM pros) AS total, (SELECT COUNT(*) FROM pros WHERE is_demo) AS demo');
  return { total: Number(r?.total ?? 0), demo: Number(r?.demo ?? 0) };
}
