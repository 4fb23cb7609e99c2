// SQL for the caller-facing reads (GET /v1/tasks, GET /v1/usage), shared by both adapters: the
// dialects differ only in placeholders and in how a millisecond timestamp becomes a UTC day.
import type { TaskListQuery, UsageQuery, UsageRow } from './port.js';

type Dialect = 'sqlite' | 'postgres';

const DAY_OF: Record<Dialect, string> = {
  sqlite: "strftime('%Y-%m-%d', t.created_at / 1000, 'unixepoch')",
  postgres: "to_char(to_timestamp(t.created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
};

/** Collects parameters and hands out the dialect's placeholder for each. */
class Params {
  readonly values: unknown[] = [];
  constructor(private readonly dialect: Dialect) {}
  add(v: unknown): string {
    this.values.push(v);
    return this.dialect === 'postgres' ? `$${this.values.length}` : '?';
  }
}

export function listTasksSql(dialect: Dialect, q: TaskListQuery): { text: string; values: unknown[] } {
  const p = new Params(dialect);
  const where = [`payer_kind = ${p.add(q.payer.kind)}`, `payer_id = ${p.add(q.payer.id)}`];
  if (q.status) where.push(`status = ${p.add(q.status)}`);
  if (q.tool) where.push(`tool = ${p.add(q.tool)}`);
  if (q.since !== undefined) where.push(`created_at >= ${p.add(q.since)}`);
  if (q.before !== undefined) {
    // (created_at, id) is the page key, so tasks created in the same millisecond are neither skipped nor repeated.
    where.push(
      q.beforeId === undefined
        ? `created_at < ${p.add(q.before)}`
        : `(created_at < ${p.add(q.before)} OR (created_at = ${p.add(q.before)} AND id < ${p.add(q.beforeId)}))`,
    );
  }
  const text = `SELECT * FROM tasks WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${p.add(q.limit)}`;
  return { text, values: p.values };
}

export function usageSql(dialect: Dialect, q: UsageQuery): { text: string; values: unknown[] } {
  const p = new Params(dialect);
  const bucket = q.group === 'day' ? DAY_OF[dialect] : 't.tool';
  // Refunds come from the ledger (one row per refunded task, by its unique index), so a refund is counted
  // once however the task ended.
  const text = `SELECT ${bucket} AS bucket, COUNT(*) AS tasks,
      SUM(CASE WHEN t.status = 'failed' THEN 1 ELSE 0 END) AS failed,
      SUM(CASE WHEN t.status = 'cancelled' THEN 1 ELSE 0 END) AS cancelled,
      COALESCE(SUM(t.charged_micros), 0) AS charged,
      COALESCE(SUM(r.delta_micros), 0) AS refunded
    FROM tasks t LEFT JOIN credit_ledger r ON r.task_id = t.id AND r.reason = 'refund'
    WHERE t.payer_kind = ${p.add(q.payer.kind)} AND t.payer_id = ${p.add(q.payer.id)}
      AND t.created_at >= ${p.add(q.from)} AND t.created_at < ${p.add(q.to)}
    GROUP BY 1 ORDER BY 1`;
  return { text, values: p.values };
}

/** Both drivers may return counts and sums as strings (bigint) or numbers. */
export function toUsageRow(r: Record<string, unknown>): UsageRow {
  return {
    bucket: String(r.bucket),
    tasks: Number(r.tasks),
    failed: Number(r.failed),
    cancelled: Number(r.cancelled),
    chargedMicros: Number(r.charged),
    refundedMicros: Number(r.refunded),
  };
}
