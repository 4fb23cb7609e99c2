// Appending to a batch in one transaction (a crawl adds its pages as it finds them): the charge of the new
// tasks (the same conditional UPDATE as create-batch.ts), the batch row created on first use, its totals
// raised (the returned total places the new items at its end: the row lock, or SQLite's write lock,
// serialises appenders), then the dialect's writes of the tasks, their ledger rows and items.
import type { AppendBatchOutcome, NewBatch } from '../../store/port.js';
import { orRollback, Rollback, type Sql } from '../sql.js';
import type { InsertBatchTasks } from './create-batch.js';
import { chargeRefusal } from './create-task.js';
import { BATCH_COLUMNS, toBatch, type BatchRecord } from './records.js';

export function appendBatch(db: Sql, insertTasks: InsertBatchTasks, b: NewBatch, chargeKeyId: string | undefined): Promise<AppendBatchOutcome> {
  const totalMicros = b.tasks.reduce((n, t) => n + t.priceMicros, 0);
  return orRollback(() =>
    db.transaction(async (tx): Promise<AppendBatchOutcome> => {
      if (chargeKeyId && totalMicros > 0) {
        const charged = await tx.run('UPDATE api_keys SET balance_micros = balance_micros - $2 WHERE id = $1 AND revoked_at IS NULL AND balance_micros >= $2', [
          chargeKeyId,
          totalMicros,
        ]);
        if (charged === 0) throw new Rollback((await chargeRefusal(tx, chargeKeyId, totalMicros)) ?? { kind: 'insufficient_credits', balanceMicros: 0 });
      }
      await tx.run(
        `INSERT INTO batches (id, tool, payer_kind, payer_id, total, unique_count, price_micros, created_at) VALUES ($1, $2, $3, $4, 0, 0, 0, $5)
         ON CONFLICT (id) DO NOTHING`,
        [b.id, b.tool, b.payer.kind, b.payer.id, b.now],
      );
      const batch = await tx.one<BatchRecord>(
        `UPDATE batches SET total = total + $2, unique_count = unique_count + $3, price_micros = price_micros + $4 WHERE id = $1 RETURNING ${BATCH_COLUMNS}`,
        [b.id, b.itemTasks.length, b.tasks.length, totalMicros],
      );
      const row = toBatch(batch!);
      const firstIndex = row.total - b.itemTasks.length;
      await insertTasks(tx, { ...b, firstIndex }, chargeKeyId);
      return { kind: 'created', batch: row, firstIndex };
    }),
  );
}
