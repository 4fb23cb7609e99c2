// Charge and insert on PostgreSQL in one statement, so atomic with or without a surrounding transaction:
// the UPDATE takes the key's row lock and re-checks the balance after any concurrent charge, so
// concurrent charges can never overdraw it. One statement serves one creation or several charging one
// key (group commit), so a busy key's row lock is held for one statement instead of one round trip per
// creation (with every caller on one key, those round trips bounded creations per second).
import type { CreateTaskOutcome, NewTask } from '../../store/port.js';
import type { Sql } from '../sql.js';
import { chargeRefusal, newTaskValues } from './create-task.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export async function insertChargedPostgres(q: Sql, t: NewTask, chargeKeyId: string | undefined): Promise<CreateTaskOutcome> {
  for (let attempt = 1; ; attempt++) {
    const created = await insertManyChargedPostgres(q, [t], chargeKeyId);
    if (created) return created[0]!;
    const refused = await chargeRefusal(q, chargeKeyId!, t.priceMicros);
    // Refused, but the key was topped up in between: try again rather than report a stale balance.
    if (refused || attempt >= 3) return refused ?? { kind: 'insufficient_credits', balanceMicros: 0 };
  }
}

/** The created tasks in the order given, or null when the key could not pay for all of them (nothing written). */
export async function insertManyChargedPostgres(q: Sql, tasks: readonly NewTask[], chargeKeyId: string | undefined): Promise<CreateTaskOutcome[] | null> {
  const values = tasks.map((t) => newTaskValues(q.dialect, t, chargeKeyId));
  const column = (i: number) => values.map((v) => v[i]);
  const total = chargeKeyId ? tasks.reduce((sum, t) => sum + t.priceMicros, 0) : 0;
  const rows = await q.all<TaskRecord>(
    `WITH charged AS (
       UPDATE api_keys SET balance_micros = balance_micros - $11 WHERE id = $12 AND revoked_at IS NULL AND balance_micros >= $11 RETURNING id
     ), task AS (
       INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, payment, attempts, max_attempts, run_after, created_at, webhook_url, webhook_events, session)
       SELECT u.id, u.tool, u.input::json, 'pending', u.payer_kind, u.payer_id, u.price, u.charged, u.payment::jsonb, 0, u.max_attempts, u.now, u.now, u.webhook_url, u.webhook_events, u.session
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::text[], $9::int[], $10::bigint[], $13::text[], $14::text[], $15::text[])
         AS u (id, tool, input, payer_kind, payer_id, price, charged, payment, max_attempts, now, webhook_url, webhook_events, session)
       WHERE $12::text IS NULL OR EXISTS (SELECT 1 FROM charged)
       RETURNING *
     ), ledger AS (
       INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at)
       SELECT $12, task.id, -task.price_micros, 'charge', task.created_at FROM task WHERE $12::text IS NOT NULL AND task.price_micros > 0
     )
     SELECT ${TASK_COLUMNS} FROM task`,
    [...Array.from({ length: 10 }, (_, i) => column(i)), total, chargeKeyId ?? null, column(10), column(11), column(12)],
    'insert_tasks',
  );
  if (rows.length !== tasks.length) return null;
  // INSERT … RETURNING has no order: answer in the order given.
  const byId = new Map(rows.map((r) => [r.id, r]));
  return tasks.map((t) => ({ kind: 'created', task: toTask(q.dialect, byId.get(t.id)!) }));
}
