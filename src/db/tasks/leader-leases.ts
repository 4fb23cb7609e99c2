// Leader leases (migration 015): a named job held by one process at a time. Taking and renewing are one
// statement, so two processes racing for a free or expired lease cannot both win: the row's conflict
// update runs only when the lease has expired or is already the caller's, and RETURNING says who won.
import type { Sql } from '../sql.js';

/** Takes `name` for `holder` until `now + ttlMs` if it is free, expired or already theirs; whether they hold it. */
export async function holdLease(db: Sql, name: string, holder: string, ttlMs: number, now: number): Promise<boolean> {
  const won = await db.one<{ holder: string }>(
    `INSERT INTO leader_leases (name, holder, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
     WHERE leader_leases.expires_at <= $4 OR leader_leases.holder = excluded.holder
     RETURNING holder`,
    [name, holder, now + ttlMs, now],
  );
  return won !== undefined;
}

/** Gives `name` up at once if `holder` holds it (another process need not wait for it to expire). */
export async function releaseLease(db: Sql, name: string, holder: string): Promise<void> {
  await db.run('DELETE FROM leader_leases WHERE name = $1 AND holder = $2', [name, holder]);
}
