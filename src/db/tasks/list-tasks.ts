// GET /v1/tasks: a caller's tasks with optional filters, newest first, paged by (created_at, id).
import type { TaskListQuery } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function listTasks(db: Sql, q: TaskListQuery) {
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
  const text = `SELECT ${TASK_COLUMNS} FROM tasks WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${p(q.limit)}`;
  return (await db.all<TaskRecord>(text, values)).map((r) => toTask(db.dialect, r));
}
