// x402 tasks finished before `finishedBefore` whose payment is still pending (to settle or void). The
// sweep needs a task's state and payment only, so neither its input nor its result is read: a page of
// 100 tasks holding megabyte results each costs nothing more than a page of small ones.
import type { UnsettledCursor, UnsettledTask } from '../../store/port.js';
import { camelColumns } from '../columns.js';
import type { Sql } from '../sql.js';
import { toTask, type TaskRecord } from './records.js';

const UNSETTLED_COLUMNS = camelColumns(
  'id, tool, status, error, error_kind, error_code, payer_kind, payer_id, price_micros, charged_micros, payment, attempts, max_attempts, lease_owner, lease_expires_at, run_after, cancel_requested, created_at, started_at, finished_at',
);

/**
 * The sweep's page: $1 finished before, $2 the page size, and after the first page $3, $4 the last row's
 * (finished_at, id), which orders ties so a page that starts after the previous one skips none. Its WHERE
 * holds the partial index tasks_x402_unsettled's terms word for word (migration 019): the planners use the
 * index only when the query implies its condition.
 */
export function unsettledPaymentsSql(afterCursor: boolean): string {
  return `SELECT ${UNSETTLED_COLUMNS} FROM tasks WHERE payer_kind = 'x402' AND finished_at IS NOT NULL AND finished_at < $1
       AND payment->>'status' = 'pending' ${afterCursor ? 'AND (finished_at, id) > ($3, $4)' : ''} ORDER BY finished_at, id LIMIT $2`;
}

export async function listUnsettledPayments(db: Sql, finishedBefore: number, limit: number, after?: UnsettledCursor): Promise<UnsettledTask[]> {
  const rows = await db.all<Omit<TaskRecord, 'input' | 'result'>>(
    unsettledPaymentsSql(after !== undefined),
    after ? [finishedBefore, limit, after.finishedAt, after.id] : [finishedBefore, limit],
  );
  return rows.map((r) => {
    const { input: _input, result: _result, ...task } = toTask(db.dialect, { ...r, input: null, result: null } as TaskRecord);
    return task;
  });
}
