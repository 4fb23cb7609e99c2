// Creating a task on PostgreSQL. Races between processes are settled by row locks and unique indexes:
// the charge is an UPDATE that re-checks the balance under the key's row lock, and an idempotency key or
// payment nonce is reserved by an insert that waits for a concurrent holder to commit or roll back, so
// the loser sees the winner's row and reports what SQLite would, never an error.
import type { CreateTaskOptions, CreateTaskOutcome, NewTask } from '../../store/port.js';
import { Rollback } from '../postgres-pool.js';
import type { Sql } from '../sql.js';
import { getTask } from './get-task.js';
import { nonceKey, TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

/**
 * Inserts the task, charging `chargeKeyId` its price in the same statement (so atomically, with or
 * without a surrounding transaction); null when the key is unknown, revoked or short of credits.
 */
async function insertTask(q: Sql, t: NewTask, chargeKeyId: string | undefined) {
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
    [t.id, t.tool, q.dialect.json(t.input ?? {}), t.payer.kind, t.payer.id, t.priceMicros, chargeKeyId ? t.priceMicros : 0, t.payment ? q.dialect.json(t.payment) : null, t.maxAttempts, t.now, chargeKeyId ?? null],
    'insert_task',
  );
  return r ? toTask(q.dialect, r) : null;
}

/** Why insertTask refused to charge the key (null when, read again now, nothing stands in the way). */
export async function chargeRefusal(q: Sql, keyId: string, price: number): Promise<CreateTaskOutcome | null> {
  const key = await q.one<{ balance_micros: number; revoked_at: number | null }>('SELECT balance_micros, revoked_at FROM api_keys WHERE id = $1', [keyId]);
  if (!key || key.revoked_at !== null) return { kind: 'key_invalid' };
  if (key.balance_micros < price) return { kind: 'insufficient_credits', balanceMicros: key.balance_micros };
  return null;
}

async function createInTransaction(tx: Sql, t: NewTask, opts: CreateTaskOptions): Promise<CreateTaskOutcome> {
  // The payment nonce is reserved before the idempotency key: a payment seen once never answers again,
  // whatever Idempotency-Key comes with it (see docs/payments.md, "One signature, one task").
  const n = opts.nonce && nonceKey(opts.nonce);
  const nonceWhere = 'WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4';
  if (n) {
    const reserved = await tx.run('INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING', [...n, t.id, t.now]);
    if (reserved === 0) {
      const used = await tx.one<{ task_id: string }>(`SELECT task_id FROM payment_nonces ${nonceWhere}`, n);
      throw new Rollback<CreateTaskOutcome>({ kind: 'nonce_used', taskId: used?.task_id ?? '' });
    }
  }
  if (opts.idempotency) {
    const { scope, key, requestHash, windowMs } = opts.idempotency;
    await tx.run('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND created_at < $3', [scope, key, t.now - windowMs]);
    // Reserve the key first. ON CONFLICT waits for a concurrent holder to commit or roll back, then
    // either inserts (it rolled back) or does nothing (it committed, and its row is visible below).
    const values = [scope, key, requestHash, t.id, t.now];
    if ((await tx.run('INSERT INTO idempotency_keys (scope, key, request_hash, task_id, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', values)) === 0) {
      const prior = await tx.one<{ request_hash: string; task_id: string }>('SELECT request_hash, task_id FROM idempotency_keys WHERE scope = $1 AND key = $2 FOR UPDATE', [scope, key]);
      // Deleted between our insert and this read (retention): let the whole transaction run again.
      if (!prior) throw Object.assign(new Error('idempotency record vanished'), { code: '40001' });
      if (prior.request_hash !== requestHash) throw new Rollback<CreateTaskOutcome>({ kind: 'idempotency_mismatch', taskId: prior.task_id });
      const first = await getTask(tx, prior.task_id);
      if (first) {
        if (!n) throw new Rollback<CreateTaskOutcome>({ kind: 'replayed', task: first });
        // A fresh payment that found its first task stays used up (committed), so it cannot answer twice either.
        await tx.run(`UPDATE payment_nonces SET task_id = $5 ${nonceWhere}`, [...n, first.id]);
        return { kind: 'replayed', task: first };
      }
      // The first task is gone (retention): the key now belongs to this request.
      await tx.run('UPDATE idempotency_keys SET request_hash = $3, task_id = $4, created_at = $5 WHERE scope = $1 AND key = $2', values);
    }
  }
  const created = await insertTask(tx, t, opts.chargeKeyId);
  if (created) return { kind: 'created', task: created };
  throw new Rollback((await chargeRefusal(tx, opts.chargeKeyId!, t.priceMicros)) ?? { kind: 'insufficient_credits', balanceMicros: 0 });
}

export async function createTaskPostgres(db: Sql, t: NewTask, opts: CreateTaskOptions = {}): Promise<CreateTaskOutcome> {
  if (!opts.idempotency && !opts.nonce) {
    // The common case needs no explicit transaction: charge, insert and ledger are one statement.
    for (let attempt = 1; ; attempt++) {
      const created = await insertTask(db, t, opts.chargeKeyId);
      if (created) return { kind: 'created', task: created };
      const refusal = await chargeRefusal(db, opts.chargeKeyId!, t.priceMicros);
      // Refused, but the key was topped up in between: try again rather than report a stale balance.
      if (refusal || attempt >= 3) return refusal ?? { kind: 'insufficient_credits', balanceMicros: 0 };
    }
  }
  try {
    return await db.transaction((tx) => createInTransaction(tx, t, opts));
  } catch (err) {
    // Refusals roll back, so a refused request leaves no idempotency record, nonce or charge behind.
    if (err instanceof Rollback) return err.value as CreateTaskOutcome;
    throw err;
  }
}
