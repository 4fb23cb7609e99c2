// Running → pending again at `runAfter`, releasing the lease. Answers the task's tool (null when the
// lease was not held), so a task due at once can wake other workers.
import type { Sql } from '../sql.js';

export async function retryTask(db: Sql, id: string, owner: string, error: string, runAfter: number): Promise<string | null> {
  const r = await db.one<{ tool: string }>(
    `UPDATE tasks SET status = 'pending', error = $1, lease_owner = NULL, lease_expires_at = NULL, run_after = $2
     WHERE id = $3 AND lease_owner = $4 AND status = 'running' RETURNING tool`,
    [db.dialect.text(error), runAfter, id, owner],
    'retry_task',
  );
  return r?.tool ?? null;
}
