// Item counts of a batch by status, shared by both store adapters.
import type { BatchCounts, TaskStatus } from './port.js';

/** Every status present, zero when no item has it (PostgreSQL counts arrive as strings). */
export function countsOf(rows: readonly { status: TaskStatus; n: number | string }[]): BatchCounts {
  const counts: BatchCounts = { pending: 0, running: 0, complete: 0, failed: 0, cancelled: 0 };
  for (const r of rows) counts[r.status] += Number(r.n);
  return counts;
}
