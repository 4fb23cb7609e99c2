// GET /v1/tasks: a caller's tasks with optional filters, newest first, paged by (created_at, id). A page
// never reads inputs (no listing shows them) and reads results only within its byte budget: first the
// page's rows with each result's size, then the results that fit, so a page of tasks holding megabytes
// each costs the process at most the budget.
import { LIST_RESULT_BUDGET_BYTES, type ListedTask, type TaskListQuery } from '../../store/port.js';
import { camelColumns } from '../columns.js';
import type { Sql } from '../sql.js';
import { toTask, type TaskRecord } from './records.js';

const LISTED_COLUMNS = camelColumns(
  'id, tool, status, error, error_kind, error_code, payer_kind, payer_id, price_micros, charged_micros, payment, attempts, max_attempts, lease_owner, lease_expires_at, run_after, cancel_requested, created_at, started_at, finished_at',
);

export async function listTasks(db: Sql, q: TaskListQuery): Promise<ListedTask[]> {
  const values: unknown[] = [];
  const p = (v: unknown) => `$${values.push(v)}`;
  const where = [`payer_kind = ${p(q.payer.kind)}`, `payer_id = ${p(q.payer.id)}`];
  if (q.status) where.push(`status = ${p(q.status)}`);
  if (q.tool) where.push(`tool = ${p(q.tool)}`);
  if (q.since !== undefined) where.push(`created_at >= ${p(q.since)}`);
  if (q.before !== undefined) {
    // (created_at, id) is the page key, so tasks created in the same millisecond are neither skipped nor repeated.
    const before = p(q.before);
    where.push(q.beforeId === undefined ? `created_at < ${before}` : `(created_at < ${before} OR (created_at = ${before} AND id < ${p(q.beforeId)}))`);
  }
  const text = `SELECT ${LISTED_COLUMNS}, ${db.dialect.jsonBytes('result')} AS "resultBytes" FROM tasks WHERE ${where.join(' AND ')}
    ORDER BY created_at DESC, id DESC LIMIT ${p(q.limit)}`;
  const rows = await db.all<Omit<TaskRecord, 'input' | 'result'> & { resultBytes: number | null }>(text, values);

  let budget = q.resultBudgetBytes ?? LIST_RESULT_BUDGET_BYTES;
  const wanted: string[] = [];
  for (const r of rows) {
    if (r.status !== 'complete' || r.resultBytes === null || r.resultBytes > budget) continue;
    budget -= r.resultBytes;
    wanted.push(r.id);
  }
  const results = new Map<string, unknown>();
  if (wanted.length) {
    const found = await db.all<{ id: string; result: unknown }>(`SELECT id, result FROM tasks WHERE ${db.dialect.inArray('id', '$1')}`, [
      db.dialect.array(wanted),
    ]);
    for (const f of found) results.set(f.id, f.result);
  }
  return rows.map(({ resultBytes, ...r }) => {
    const task = toTask(db.dialect, { ...r, input: null, result: results.get(r.id) ?? null } as TaskRecord);
    const omitted = r.status === 'complete' && resultBytes !== null && !results.has(r.id);
    return { ...task, input: null, ...(omitted ? { resultOmitted: true as const } : {}) };
  });
}
