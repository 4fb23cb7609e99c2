// Creating a batch on SQLite: charge check, batch row, one task and one ledger row per distinct input,
// and the item map, in one BEGIN IMMEDIATE transaction (the write lock is held from the balance check on).
import type { CreateBatchOutcome, NewBatch } from '../../store/port.js';
import type { SqliteDb } from '../sqlite.js';
import { KEY_STATE, refusal } from './create-task.js';
import { BATCH_COLUMNS, toBatch, type BatchRecord } from './records.js';

export function createBatchSqlite(db: SqliteDb, b: NewBatch, chargeKeyId: string | undefined): Promise<CreateBatchOutcome> {
  const totalMicros = b.tasks.reduce((n, t) => n + t.priceMicros, 0);
  return db.immediate((): CreateBatchOutcome => {
    if (chargeKeyId) {
      const refused = refusal(db.sql(KEY_STATE).get([chargeKeyId]), totalMicros);
      if (refused) return refused;
      db.sql('UPDATE api_keys SET balance_micros = balance_micros - $1 WHERE id = $2').run([totalMicros, chargeKeyId]);
    }
    const batch = db
      .sql(
        `INSERT INTO batches (id, tool, payer_kind, payer_id, total, unique_count, price_micros, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${BATCH_COLUMNS}`,
      )
      .get<BatchRecord>([b.id, b.tool, b.payer.kind, b.payer.id, b.itemTasks.length, b.tasks.length, totalMicros, b.now]);
    const task = db.sql(
      `INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, attempts, max_attempts, run_after, created_at, batch_id)
       VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, 0, $8, $9, $9, $10)`,
    );
    // One ledger row per task: a failed item is refunded by the ordinary task refund, exactly once.
    const ledger = db.sql("INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at) VALUES ($1, $2, $3, 'charge', $4)");
    for (const t of b.tasks) {
      const charged = chargeKeyId ? t.priceMicros : 0;
      task.run([t.id, t.tool, db.dialect.json(t.input ?? {}), t.payer.kind, t.payer.id, t.priceMicros, charged, t.maxAttempts, t.now, b.id]);
      if (chargeKeyId && charged > 0) ledger.run([chargeKeyId, t.id, -charged, t.now]);
    }
    const item = db.sql('INSERT INTO batch_items (batch_id, idx, task_id) VALUES ($1, $2, $3)');
    b.itemTasks.forEach((taskIndex, idx) => item.run([b.id, idx, b.tasks[taskIndex]!.id]));
    return { kind: 'created', batch: toBatch(batch!) };
  });
}
