// Claiming on SQLite: the due pending tasks, oldest first, moved to running under a lease in one
// BEGIN IMMEDIATE transaction. The write lock makes each claim exclusive: no other worker, in this
// process or another, can claim the same rows in between.
import type { ClaimOptions } from '../../store/port.js';
import type { SqliteDb } from '../sqlite.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export function claimTasksSqlite(db: SqliteDb, o: ClaimOptions) {
  const d = db.dialect;
  const only = o.onlyTools ? `AND ${d.inArray('tool', '$2')}` : '';
  const except = o.excludeTools?.length ? `AND NOT ${d.inArray('tool', '$3')}` : '';
  return db.immediate(() => {
    const ids = db
      .sql(`SELECT id FROM tasks WHERE status = 'pending' AND run_after <= $1 ${only} ${except} ORDER BY run_after, created_at LIMIT $4`)
      .all<{ id: string }>([o.now, d.array(o.onlyTools ?? []), d.array(o.excludeTools ?? []), o.limit]);
    const claim = db.sql(
      `UPDATE tasks SET status = 'running', lease_owner = $1, lease_expires_at = $2, attempts = attempts + 1, started_at = COALESCE(started_at, $3)
       WHERE id = $4 AND status = 'pending' RETURNING ${TASK_COLUMNS}`,
    );
    return ids.flatMap(({ id }) => {
      const r = claim.get<TaskRecord>([o.owner, o.now + o.leaseMs, o.now, id]);
      return r ? [toTask(d, r)] : [];
    });
  });
}
