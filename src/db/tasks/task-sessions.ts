// Session leases (migration 014): a session that runs its own tasks keeps a row here while it lives. A
// claim leaves the session's tasks to it until the row expires (its process died) or is removed (it ended).
import type { Sql } from '../sql.js';

/** Extends (or opens) `id`'s lease to `until`, and clears leases that ended before `now`. */
export async function renewSession(db: Sql, id: string, until: number, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM task_sessions WHERE expires_at <= $1', [now]);
    await tx.run('INSERT INTO task_sessions (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at', [id, until]);
  });
}

/** Ends `id`'s lease: its tasks still pending go to any worker at once. */
export async function endSession(db: Sql, id: string): Promise<void> {
  await db.run('DELETE FROM task_sessions WHERE id = $1', [id]);
}
