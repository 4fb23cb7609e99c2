// Leader leases (migration 015): a named job held by one process at a time. Taking and renewing are one
// statement, so two processes racing for a free or expired lease cannot both win: the row's conflict
// update runs only when the lease has expired or is already the caller's, and RETURNING says who won.
// The store's clock decides (dialect.nowMs): on PostgreSQL the server's, so a node whose clock runs
// ahead cannot see a live lease as expired and take it, nor one running behind hold it past its end.
import type { Sql } from '../sql.js';

/** Takes `name` for `holder` for `ttlMs` of the store's clock if it is free, expired or already theirs; whether they hold it. */
export async function holdLease(db: Sql, name: string, holder: string, ttlMs: number): Promise<boolean> {
  const now = db.dialect.nowMs;
  const won = await db.one<{ holder: string }>(
    `INSERT INTO leader_leases (name, holder, expires_at) VALUES ($1, $2, ${now} + $3)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
     WHERE leader_leases.expires_at <= ${now} OR leader_leases.holder = excluded.holder
     RETURNING holder`,
    [name, holder, Math.max(0, Math.round(ttlMs))],
  );
  return won !== undefined;
}

/** Gives `name` up at once if `holder` holds it (another process need not wait for it to expire). */
export async function releaseLease(db: Sql, name: string, holder: string): Promise<void> {
  await db.run('DELETE FROM leader_leases WHERE name = $1 AND holder = $2', [name, holder]);
}
