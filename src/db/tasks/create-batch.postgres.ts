// Creating a batch on PostgreSQL in one transaction: the charge re-checks the balance under the key's row
// lock, and the tasks, their ledger rows and the item map go in through unnest, one statement each for
// ten thousand rows instead of ten thousand round trips.
import type { CreateBatchOutcome, NewBatch } from '../../store/port.js';
import { orRollback, Rollback, type Sql } from '../sql.js';
import { chargeRefusal } from './insert-charged.postgres.js';
import { BATCH_COLUMNS, toBatch, type BatchRecord } from './records.js';

export async function createBatchPostgres(db: Sql, b: NewBatch, chargeKeyId: string | undefined): Promise<CreateBatchOutcome> {
  const totalMicros = b.tasks.reduce((n, t) => n + t.priceMicros, 0);
  return orRollback(db, async (tx): Promise<CreateBatchOutcome> => {
    if (chargeKeyId) {
      const charged = await tx.run('UPDATE api_keys SET balance_micros = balance_micros - $2 WHERE id = $1 AND revoked_at IS NULL AND balance_micros >= $2', [
        chargeKeyId,
        totalMicros,
      ]);
      if (charged === 0) throw new Rollback((await chargeRefusal(tx, chargeKeyId, totalMicros)) ?? { kind: 'insufficient_credits', balanceMicros: 0 });
    }
    const batch = await tx.one<BatchRecord>(
      `INSERT INTO batches (id, tool, payer_kind, payer_id, total, unique_count, price_micros, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${BATCH_COLUMNS}`,
      [b.id, b.tool, b.payer.kind, b.payer.id, b.itemTasks.length, b.tasks.length, totalMicros, b.now],
    );
    // One ledger row per task, so a failed item is refunded by the ordinary task refund, exactly once.
    await tx.run(
      `WITH task AS (
         INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, attempts, max_attempts, run_after, created_at, batch_id)
         SELECT u.id, $2, u.input::json, 'pending', $3, $4, u.price, CASE WHEN $8::text IS NULL THEN 0 ELSE u.price END, 0, $5, $6, $6, $7
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
        b.tasks.map((t) => db.dialect.json(t.input ?? {})),
        b.tasks.map((t) => t.priceMicros),
      ],
    );
    await tx.run(
      'INSERT INTO batch_items (batch_id, idx, task_id) SELECT $1, u.ord - 1, u.task_id FROM unnest($2::text[]) WITH ORDINALITY AS u(task_id, ord)',
      [b.id, b.itemTasks.map((i) => b.tasks[i]!.id)],
    );
    return { kind: 'created', batch: toBatch(batch!) };
  });
}
