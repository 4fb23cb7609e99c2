// Retention: tasks finished before `cutoff`, and idempotency records older than it.
import type { Sql } from '../sql.js';

export async function deleteFinishedBefore(db: Sql, cutoff: number): Promise<number> {
  await db.run('DELETE FROM idempotency_keys WHERE created_at < $1', [cutoff]);
  return db.run('DELETE FROM tasks WHERE finished_at IS NOT NULL AND finished_at < $1', [cutoff]);
}
