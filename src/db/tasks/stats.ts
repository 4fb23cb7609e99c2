// Task counts per tool and status, for /metrics and the operator.
import type { StoreStats, TaskStatus } from '../../store/port.js';
import type { Sql } from '../sql.js';

export async function stats(db: Sql): Promise<StoreStats> {
  const rows = await db.all<{ tool: string; status: TaskStatus; count: number }>('SELECT tool, status, COUNT(*) AS count FROM tasks GROUP BY tool, status');
  const byToolStatus = rows.map((r) => ({ ...r, count: Number(r.count) }));
  const total = (status: TaskStatus) => byToolStatus.filter((r) => r.status === status).reduce((n, r) => n + r.count, 0);
  return { byToolStatus, queueDepth: total('pending'), running: total('running') };
}
