// Creating a batch in one transaction: the charge of the whole batch (a conditional UPDATE that re-checks
// the balance as it takes it: under the key's row lock on PostgreSQL, SQLite's transaction holds the write
// lock), the batch row, then the dialect's writes of its tasks, one ledger row per charged task (so a failed
// item is refunded by the ordinary task refund, exactly once) and the item map. A refusal leaves nothing.
import type { CreateBatchOutcome, NewBatch } from '../../store/port.js';
import { orRollback, Rollback, type Sql } from '../sql.js';
import { chargeRefusal } from './create-task.js';
import { BATCH_COLUMNS, toBatch, type BatchRecord } from './records.js';

/** The dialect's writes of a batch's tasks, their ledger rows and its item map, inside the creating transaction. */
export type InsertBatchTasks = (tx: Sql, b: NewBatch, chargeKeyId: string | undefined) => Promise<void>;

export function createBatch(db: Sql, insertTasks: InsertBatchTasks, b: NewBatch, chargeKeyId: string | undefined): Promise<CreateBatchOutcome> {
  const totalMicros = b.tasks.reduce((n, t) => n + t.priceMicros, 0);
  return orRollback(() =>
    db.transaction(async (tx): Promise<CreateBatchOutcome> => {
      if (chargeKeyId) {
        const charged = await tx.run('UPDATE api_keys SET balance_micros = balance_micros - $2 WHERE id = $1 AND revoked_at IS NULL AND balance_micros >= $2', [
          chargeKeyId,
          totalMicros,
        ]);
        if (charged === 0) throw new Rollback((await chargeRefusal(tx, chargeKeyId, totalMicros)) ?? { kind: 'insufficient_credits', balanceMicros: 0 });
      }
      const batch = await tx.one<BatchRecord>(
        `INSERT INTO batches (id, tool, payer_kind, payer_id, total, unique_count, price_micros, created_at, webhook_url) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${BATCH_COLUMNS}`,
        [b.id, b.tool, b.payer.kind, b.payer.id, b.itemTasks.length, b.tasks.length, totalMicros, b.now, b.webhook?.url ?? null],
      );
      await insertTasks(tx, b, chargeKeyId);
      return { kind: 'created', batch: toBatch(batch!) };
    }),
  );
}
