// Extends the leases `owner` still holds, in one statement, and says which tasks were asked to cancel.
import type { Sql } from '../sql.js';

export async function renewLeases(db: Sql, owner: string, ids: readonly string[], leaseMs: number, now: number) {
  if (ids.length === 0) return { held: [], cancelRequested: [] };
  const d = db.dialect;
  const rows = await db.all<{ id: string; cancel_requested: unknown }>(
    `UPDATE tasks SET lease_expires_at = $1 WHERE ${d.inArray('id', '$2')} AND lease_owner = $3 AND status = 'running'
     RETURNING id, cancel_requested`,
    [now + leaseMs, d.array(ids), owner],
    'renew_leases',
  );
  const byId = new Map(rows.map((r) => [r.id, d.fromBool(r.cancel_requested)]));
  const held = ids.filter((id) => byId.has(id));
  return { held, cancelRequested: held.filter((id) => byId.get(id) === true) };
}
