// A batch's tasks, their ledger rows and its item map on SQLite (create-batch.ts): a statement per row,
// run synchronously on the connection inside the creating transaction, which holds the write lock.
import type { NewBatch } from '../../store/port.js';
import type { SqliteDb } from '../sqlite.js';
import { CHARGE_LEDGER } from './insert-charged.sqlite.js';

export function insertBatchTasksSqlite(db: SqliteDb, b: NewBatch, chargeKeyId: string | undefined): void {
  const task = db.sql(
    `INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, attempts, max_attempts, run_after, created_at, batch_id, session)
     VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, 0, $8, $9, $9, $10, $11)`,
  );
  const ledger = db.sql(CHARGE_LEDGER);
  for (const t of b.tasks) {
    const charged = chargeKeyId ? t.priceMicros : 0;
    task.run([t.id, t.tool, db.dialect.json(t.input ?? {}), t.payer.kind, t.payer.id, t.priceMicros, charged, t.maxAttempts, t.now, b.id, b.session ?? null]);
    if (chargeKeyId && charged > 0) ledger.run([chargeKeyId, t.id, -charged, t.now]);
  }
  const item = db.sql('INSERT INTO batch_items (batch_id, idx, task_id) VALUES ($1, $2, $3)');
  b.itemTasks.forEach((taskIndex, idx) => item.run([b.id, (b.firstIndex ?? 0) + idx, b.tasks[taskIndex]!.id]));
}
