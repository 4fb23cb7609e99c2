// Charge and insert on SQLite: the balance check, the charge with its ledger row and the insert, called
// inside a transaction that holds the write lock from the check on. Synchronous, so a plain creation is
// one BEGIN IMMEDIATE transaction with no awaits (creation is the hot path).
import type { CreateTaskOutcome, NewTask } from '../../store/port.js';
import type { SqliteDb } from '../sqlite.js';
import { KEY_STATE, newTaskValues, refusal } from './create-task.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

/** A charged task's ledger row: $1 key, $2 task, $3 the (negative) amount, $4 now. */
export const CHARGE_LEDGER = "INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at) VALUES ($1, $2, $3, 'charge', $4)";

const INSERT = `INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, payment, attempts, max_attempts, run_after, created_at, webhook_url, webhook_events, session)
  VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, 0, $9, $10, $10, $11, $12, $13) RETURNING ${TASK_COLUMNS}`;

export function insertChargedSqlite(db: SqliteDb, t: NewTask, chargeKeyId: string | undefined): CreateTaskOutcome {
  if (chargeKeyId) {
    const refused = refusal(db.sql(KEY_STATE).get([chargeKeyId]), t.priceMicros);
    if (refused) return refused;
    if (t.priceMicros > 0) {
      db.sql('UPDATE api_keys SET balance_micros = balance_micros - $1 WHERE id = $2').run([t.priceMicros, chargeKeyId]);
      db.sql(CHARGE_LEDGER).run([chargeKeyId, t.id, -t.priceMicros, t.now]);
    }
  }
  return { kind: 'created', task: toTask(db.dialect, db.sql(INSERT).get<TaskRecord>(newTaskValues(db.dialect, t, chargeKeyId))!) };
}
