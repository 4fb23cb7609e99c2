// Extends the leases `owner` still holds, in one statement, and says which tasks were asked to cancel.
// The new expiry is the store's clock plus `leaseMs` (dialect.nowMs), like the claim's: recovery compares
// it with that clock too, so no worker's own clock, ahead or behind, decides when a lease ends.
import type { Dialect } from '../dialect.js';
import type { Sql } from '../sql.js';

/**
 * The renewal ($1 the lease's length, $2 the ids, $3 the holder); on PostgreSQL through renew_leases()
 * (migration 021), which reads the primary key alone whatever plan PostgreSQL would make of the statement.
 * Exported so a test can ask the database how it runs it.
 */
export const renewLeasesSql = (d: Dialect) =>
  d.name === 'postgres'
    ? 'SELECT id, cancel_requested FROM renew_leases($2::text[], $3, $1)'
    : `UPDATE tasks SET lease_expires_at = ${d.nowMs} + $1 WHERE ${d.inArray('id', '$2')} AND lease_owner = $3 AND status = 'running'
     RETURNING id, cancel_requested`;

export async function renewLeases(db: Sql, owner: string, ids: readonly string[], leaseMs: number) {
  if (ids.length === 0) return { held: [], cancelRequested: [] };
  const d = db.dialect;
  const rows = await db.all<{ id: string; cancel_requested: unknown }>(
    renewLeasesSql(d),
    [Math.max(0, Math.round(leaseMs)), d.array(ids), owner],
    'renew_leases',
  );
  const byId = new Map(rows.map((r) => [r.id, d.fromBool(r.cancel_requested)]));
  const held = ids.filter((id) => byId.has(id));
  return { held, cancelRequested: held.filter((id) => byId.get(id) === true) };
}
