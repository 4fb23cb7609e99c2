// Session leases (migration 014): a session that runs its own tasks keeps a row here while it lives. A
// claim leaves the session's tasks to it until the row expires (its process died) or is removed (it ended).
// Expiry is on the store's clock (dialect.nowMs), the clock the claim compares it with (migration 016 on
// PostgreSQL), so a worker whose clock runs ahead does not take a live session's tasks.
import type { Sql } from '../sql.js';

/** Extends (or opens) `id`'s lease to `leaseMs` from the store's now, and clears leases that have ended. */
export async function renewSession(db: Sql, id: string, leaseMs: number): Promise<void> {
  const now = db.dialect.nowMs;
  await db.transaction(async (tx) => {
    await tx.run(`DELETE FROM task_sessions WHERE expires_at <= ${now}`);
    await tx.run(`INSERT INTO task_sessions (id, expires_at) VALUES ($1, ${now} + $2) ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at`, [
      id,
      Math.max(0, Math.round(leaseMs)),
    ]);
  });
}

/** Ends `id`'s lease: its tasks still pending go to any worker at once. */
export async function endSession(db: Sql, id: string): Promise<void> {
  await db.run('DELETE FROM task_sessions WHERE id = $1', [id]);
}
