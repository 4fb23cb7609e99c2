// Charge and insert on PostgreSQL in one statement, so atomic with or without a surrounding transaction:
// the UPDATE takes the key's row lock and re-checks the balance after any concurrent charge, so
// concurrent charges can never overdraw it.
import type { CreateTaskOutcome, NewTask } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { chargeRefusal, newTaskValues } from './create-task.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function insertChargedPostgres(q: Sql, t: NewTask, chargeKeyId: string | undefined): Promise<CreateTaskOutcome> {
  for (let attempt = 1; ; attempt++) {
    const r = await q.one<TaskRecord>(
      `WITH charged AS (
         UPDATE api_keys SET balance_micros = balance_micros - $6 WHERE id = $11 AND revoked_at IS NULL AND balance_micros >= $6 RETURNING id
       ), task AS (
         INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, payment, attempts, max_attempts, run_after, created_at)
         SELECT $1, $2, $3, 'pending', $4, $5, $6, $7, $8, 0, $9, $10, $10 WHERE $11::text IS NULL OR EXISTS (SELECT 1 FROM charged)
         RETURNING *
       ), ledger AS (
         INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at)
         SELECT $11, task.id, -task.price_micros, 'charge', $10 FROM task WHERE $11::text IS NOT NULL AND task.price_micros > 0
       )
       SELECT ${TASK_COLUMNS} FROM task`,
      [...newTaskValues(q.dialect, t, chargeKeyId), chargeKeyId ?? null],
      'insert_task',
    );
    if (r) return { kind: 'created', task: toTask(q.dialect, r) };
    const refused = await chargeRefusal(q, chargeKeyId!, t.priceMicros);
    // Refused, but the key was topped up in between: try again rather than report a stale balance.
    if (refused || attempt >= 3) return refused ?? { kind: 'insufficient_credits', balanceMicros: 0 };
  }
}
