// Running → complete with its result, only by the worker holding the lease.
import type { Completion, TaskRow } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { camelColumns } from '../columns.js';
import { TASK_COLUMNS, TASK_FIELDS, toTask, type TaskRecord } from './records.js';

export async function completeTask(db: Sql, id: string, owner: string, result: unknown, now: number) {
  const r = await db.one<TaskRecord>(
    `UPDATE tasks SET status = 'complete', result = $1, error = NULL, error_kind = NULL, lease_owner = NULL, lease_expires_at = NULL,
       finished_at = $2 WHERE id = $3 AND lease_owner = $4 AND status = 'running' RETURNING ${TASK_COLUMNS}`,
    [db.dialect.json(result), now, id, owner],
    'complete_task',
  );
  return r ? toTask(db.dialect, r) : null;
}

type LeanRecord = Omit<TaskRecord, 'input' | 'result'>;

const COLUMNS_BUT_INPUT_AND_RESULT = camelColumns(
  TASK_FIELDS.split(', ')
    .filter((c) => c !== 'input' && c !== 'result')
    .join(', '),
);

/**
 * Several completions on PostgreSQL ($1 ids, $2 results as text, $3 finish times, $4 the lease holder)
 * through complete_tasks() (migration 021), which reads the primary key alone whatever plan PostgreSQL
 * would make of the statement. Exported so a test can ask PostgreSQL how it runs it.
 */
export const COMPLETE_TASKS_SQL = `SELECT ${COLUMNS_BUT_INPUT_AND_RESULT} FROM complete_tasks($1::text[], $2::text[], $3::bigint[], $4)`;

/**
 * Several completions by one lease holder at once, each exactly as completeTask would settle it (a task
 * whose lease `owner` no longer holds is left alone and answers null), in the order given. Input and
 * result, the bulk of a row, are not read back: the input is the one claimed, the result is read from
 * the very text stored (as a poller reads it). On PostgreSQL one statement: a statement and a commit per
 * task were most of the server's work per task in a drain. On SQLite one transaction of single-row
 * statements (a single completion needs none).
 */
export async function completeTasks(db: Sql, owner: string, items: readonly Completion[]): Promise<(TaskRow | null)[]> {
  const results = items.map((c) => db.dialect.json(c.result));
  const settled = (r: LeanRecord | undefined, i: number): TaskRow | null =>
    r ? { ...toTask(db.dialect, { ...r, input: null, result: null }), input: items[i]!.input, result: JSON.parse(results[i]!) as unknown } : null;
  if (db.dialect.name === 'sqlite') {
    const one = (tx: Sql, i: number) =>
      tx.one<LeanRecord>(
        `UPDATE tasks SET status = 'complete', result = $1, error = NULL, error_kind = NULL, lease_owner = NULL, lease_expires_at = NULL,
           finished_at = $2 WHERE id = $3 AND lease_owner = $4 AND status = 'running' RETURNING ${COLUMNS_BUT_INPUT_AND_RESULT}`,
        [results[i], items[i]!.now, items[i]!.id, owner],
        'complete_task_lean',
      );
    if (items.length === 1) return [settled(await one(db, 0), 0)];
    return db.transaction(async (tx) => {
      const out = [];
      for (let i = 0; i < items.length; i++) out.push(settled(await one(tx, i), i));
      return out;
    });
  }
  const rows = await db.all<LeanRecord>(COMPLETE_TASKS_SQL, [items.map((c) => c.id), results, items.map((c) => c.now), owner], 'complete_tasks');
  const byId = new Map(rows.map((r) => [r.id, r]));
  return items.map((c, i) => settled(byId.get(c.id), i));
}
