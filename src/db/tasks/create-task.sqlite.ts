// Creating a task on SQLite: nonce, idempotency, charge, insert and ledger as checks and writes in one
// BEGIN IMMEDIATE transaction. The write lock is taken first, so nothing changes between a check and
// the write that depends on it, in this process or another sharing the file.
import type { CreateTaskOptions, CreateTaskOutcome, NewTask } from '../../store/port.js';
import type { SqliteDb } from '../sqlite.js';
import { nonceKey, TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

export function createTaskSqlite(db: SqliteDb, t: NewTask, opts: CreateTaskOptions = {}): Promise<CreateTaskOutcome> {
  const d = db.dialect;
  return db.immediate((): CreateTaskOutcome => {
    const n = opts.nonce && nonceKey(opts.nonce);
    const reserveNonce = (taskId: string) =>
      n && db.sql('INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)').run([...n, taskId, t.now]);
    // The payment nonce is checked before the idempotency key: a payment seen once never answers again,
    // whatever Idempotency-Key comes with it (see docs/payments.md, "One signature, one task").
    if (n) {
      const used = db.sql('SELECT task_id FROM payment_nonces WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4').get<{ task_id: string }>(n);
      if (used) return { kind: 'nonce_used', taskId: used.task_id };
    }
    if (opts.idempotency) {
      const { scope, key, requestHash, windowMs } = opts.idempotency;
      db.sql('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND created_at < $3').run([scope, key, t.now - windowMs]);
      const prior = db.sql('SELECT request_hash, task_id FROM idempotency_keys WHERE scope = $1 AND key = $2').get<{ request_hash: string; task_id: string }>([scope, key]);
      if (prior) {
        if (prior.request_hash !== requestHash) return { kind: 'idempotency_mismatch', taskId: prior.task_id };
        const first = db.sql(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1`).get<TaskRecord>([prior.task_id]);
        if (first) {
          // A fresh payment that found its first task is used up too, so it cannot answer twice either.
          reserveNonce(first.id);
          return { kind: 'replayed', task: toTask(d, first) };
        }
        // The first task is gone (retention): the key now belongs to this request.
        db.sql('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2').run([scope, key]);
      }
    }
    reserveNonce(t.id);
    if (opts.chargeKeyId) {
      const key = db.sql('SELECT balance_micros, revoked_at FROM api_keys WHERE id = $1').get<{ balance_micros: number; revoked_at: number | null }>([opts.chargeKeyId]);
      if (!key || key.revoked_at !== null) return { kind: 'key_invalid' };
      if (key.balance_micros < t.priceMicros) return { kind: 'insufficient_credits', balanceMicros: key.balance_micros };
      if (t.priceMicros > 0) {
        db.sql('UPDATE api_keys SET balance_micros = balance_micros - $1 WHERE id = $2').run([t.priceMicros, opts.chargeKeyId]);
        db.sql("INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at) VALUES ($1, $2, $3, 'charge', $4)").run([opts.chargeKeyId, t.id, -t.priceMicros, t.now]);
      }
    }
    const created = db
      .sql(
        `INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, payment, attempts, max_attempts, run_after, created_at)
         VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, 0, $9, $10, $10) RETURNING ${TASK_COLUMNS}`,
      )
      .get<TaskRecord>([t.id, t.tool, d.json(t.input ?? {}), t.payer.kind, t.payer.id, t.priceMicros, opts.chargeKeyId ? t.priceMicros : 0, t.payment ? d.json(t.payment) : null, t.maxAttempts, t.now]);
    if (opts.idempotency) {
      const { scope, key, requestHash } = opts.idempotency;
      db.sql('INSERT INTO idempotency_keys (scope, key, request_hash, task_id, created_at) VALUES ($1, $2, $3, $4, $5)').run([scope, key, requestHash, t.id, t.now]);
    }
    return { kind: 'created', task: toTask(d, created!) };
  });
}
