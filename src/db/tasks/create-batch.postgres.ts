// A batch's tasks, their ledger rows and its item map on PostgreSQL (create-batch.ts): through unnest,
// one statement each for ten thousand rows instead of ten thousand round trips.
import type { NewBatch } from '../../store/port.js';
import type { Sql } from '../sql.js';

export async function insertBatchTasksPostgres(tx: Sql, b: NewBatch, chargeKeyId: string | undefined): Promise<void> {
  await tx.run(
    `WITH task AS (
       INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, attempts, max_attempts, run_after, created_at, batch_id, session)
       SELECT u.id, $2, u.input::json, 'pending', $3, $4, u.price, CASE WHEN $8::text IS NULL THEN 0 ELSE u.price END, 0, $5, $6, $6, $7, $11
       FROM unnest($1::text[], $9::text[], $10::bigint[]) AS u(id, input, price)
       RETURNING id, price_micros
     )
     INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at)
     SELECT $8, id, -price_micros, 'charge', $6 FROM task WHERE $8::text IS NOT NULL AND price_micros > 0`,
    [
      b.tasks.map((t) => t.id),
      b.tool,
      b.payer.kind,
      b.payer.id,
      b.tasks[0]?.maxAttempts ?? 1,
      b.now,
      b.id,
      chargeKeyId ?? null,
      b.tasks.map((t) => tx.dialect.json(t.input ?? {})),
      b.tasks.map((t) => t.priceMicros),
      b.session ?? null,
    ],
  );
  await tx.run(
    'INSERT INTO batch_items (batch_id, idx, task_id) SELECT $1, $3::integer + u.ord - 1, u.task_id FROM unnest($2::text[]) WITH ORDINALITY AS u(task_id, ord)',
    [b.id, b.itemTasks.map((i) => b.tasks[i]!.id), b.firstIndex ?? 0],
  );
}
