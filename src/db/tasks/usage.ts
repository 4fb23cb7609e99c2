// GET /v1/usage: a caller's tasks created in [from, to) with their money, per tool or per UTC day.
// Refunds come from the ledger (one row per refunded task, by its unique index), so a refund is counted
// once however the task ended. Sums may arrive as strings (PostgreSQL numeric).
import type { UsageQuery, UsageRow } from '../../store/port.js';
import type { Sql } from '../sql.js';

export async function usage(db: Sql, q: UsageQuery): Promise<UsageRow[]> {
  const bucket = q.group === 'day' ? db.dialect.utcDay('t.created_at') : 't.tool';
  const rows = await db.all<Record<string, unknown>>(
    `SELECT ${bucket} AS bucket, COUNT(*) AS tasks,
       SUM(CASE WHEN t.status = 'failed' THEN 1 ELSE 0 END) AS failed,
       SUM(CASE WHEN t.status = 'cancelled' THEN 1 ELSE 0 END) AS cancelled,
       COALESCE(SUM(t.charged_micros), 0) AS charged, COALESCE(SUM(r.delta_micros), 0) AS refunded
     FROM tasks t LEFT JOIN credit_ledger r ON r.task_id = t.id AND r.reason = 'refund'
     WHERE t.payer_kind = $1 AND t.payer_id = $2 AND t.created_at >= $3 AND t.created_at < $4
     GROUP BY 1 ORDER BY 1`,
    [q.payer.kind, q.payer.id, q.from, q.to],
  );
  return rows.map((r) => ({
    bucket: String(r.bucket),
    tasks: Number(r.tasks),
    failed: Number(r.failed),
    cancelled: Number(r.cancelled),
    chargedMicros: Number(r.charged),
    refundedMicros: Number(r.refunded),
  }));
}
