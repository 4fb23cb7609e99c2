// Creating a task: the payment nonce, the idempotency key, the charge and the insert succeed or fail
// together. The nonce is reserved before the idempotency key: a payment seen once never answers again,
// whatever Idempotency-Key comes with it (see docs/payments.md, "One signature, one task"). Both are
// reserved by inserts that race on a unique key, so on PostgreSQL a concurrent holder is waited for and
// the loser sees the winner's row; SQLite's transaction holds the write lock throughout. Refusals roll
// back, so a refused request leaves no idempotency record, nonce or charge behind.
import type { CreateTaskOptions, CreateTaskOutcome, NewTask } from '../../store/port.js';
import type { Dialect } from '../dialect.js';
import { orRollback, Rollback, type Sql } from '../sql.js';
import { getTask } from './get-task.js';
import { NONCE_WHERE, nonceKey, reserveNonce } from './reserve-nonce.js';

/** What a key's charge reads to tell why it cannot pay (see `refusal`). */
export const KEY_STATE = 'SELECT balance_micros, revoked_at FROM api_keys WHERE id = $1';

/** Why a key in `state` (read by KEY_STATE) cannot pay `price`; null when it can. Both dialects' charges answer this. */
export function refusal(state: { balance_micros: number; revoked_at: number | null } | undefined, price: number) {
  if (!state || state.revoked_at !== null) return { kind: 'key_invalid' } as const;
  return state.balance_micros < price ? ({ kind: 'insufficient_credits', balanceMicros: state.balance_micros } as const) : null;
}

/** Why the key could not pay, read now (null when nothing stands in the way any more). */
export const chargeRefusal = async (q: Sql, keyId: string, price: number) => refusal(await q.one(KEY_STATE, [keyId]), price);

/** $1…$12 of both dialects' task insert: id, tool, input, payer kind and id, price, charged, payment, max attempts, now, webhook url and events. */
export function newTaskValues(d: Dialect, t: NewTask, chargeKeyId: string | undefined): unknown[] {
  const charged = chargeKeyId ? t.priceMicros : 0;
  return [
    t.id,
    t.tool,
    d.json(t.input ?? {}),
    t.payer.kind,
    t.payer.id,
    t.priceMicros,
    charged,
    t.payment ? d.json(t.payment) : null,
    t.maxAttempts,
    t.now,
    t.webhook?.url ?? null,
    t.webhook?.events ?? null,
    t.session ?? null,
  ];
}

/** The dialect's charge-and-insert: the created task, or why the key could not pay. */
export type InsertCharged = (q: Sql, t: NewTask, chargeKeyId: string | undefined) => Promise<CreateTaskOutcome>;

export interface CreateTaskParts {
  /** Charge-and-insert inside the creating transaction. */
  insert: InsertCharged;
  /** A creation with no nonce and no idempotency key: charge-and-insert, atomic on its own. */
  plain(t: NewTask, chargeKeyId: string | undefined): Promise<CreateTaskOutcome>;
}

/** Nonce, idempotency key, charge and insert inside `tx`; a refusal throws Rollback with its outcome. */
export async function reserveAndInsert(tx: Sql, insert: InsertCharged, t: NewTask, opts: CreateTaskOptions): Promise<CreateTaskOutcome> {
  const usedBy = opts.nonce ? await reserveNonce(tx, opts.nonce, t.id, t.now) : null;
  if (usedBy !== null) throw new Rollback<CreateTaskOutcome>({ kind: 'nonce_used', taskId: usedBy });
  if (opts.idempotency) {
    const { scope, key, requestHash, windowMs } = opts.idempotency;
    await tx.run('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND created_at < $3', [scope, key, t.now - windowMs]);
    const values = [scope, key, requestHash, t.id, t.now];
    const inserted = await tx.run(
      'INSERT INTO idempotency_keys (scope, key, request_hash, task_id, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
      values,
    );
    if (inserted === 0) {
      const prior = await tx.one<{ request_hash: string; task_id: string }>(
        `SELECT request_hash, task_id FROM idempotency_keys WHERE scope = $1 AND key = $2${tx.dialect.forUpdate}`,
        [scope, key],
      );
      // Deleted between our insert and this read (retention, PostgreSQL): let the whole transaction run again.
      if (!prior) throw Object.assign(new Error('idempotency record vanished'), { code: '40001' });
      if (prior.request_hash !== requestHash) throw new Rollback<CreateTaskOutcome>({ kind: 'idempotency_mismatch', taskId: prior.task_id });
      const first = await getTask(tx, prior.task_id);
      if (first) {
        if (!opts.nonce) throw new Rollback<CreateTaskOutcome>({ kind: 'replayed', task: first });
        // A fresh payment that found its first task stays used up (committed), so it cannot answer twice either.
        await tx.run(`UPDATE payment_nonces SET task_id = $5 ${NONCE_WHERE}`, [...nonceKey(opts.nonce), first.id]);
        return { kind: 'replayed', task: first };
      }
      // The first task is gone (retention): the key now belongs to this request.
      await tx.run('UPDATE idempotency_keys SET request_hash = $3, task_id = $4, created_at = $5 WHERE scope = $1 AND key = $2', values);
    }
  }
  const outcome = await insert(tx, t, opts.chargeKeyId);
  if (outcome.kind !== 'created') throw new Rollback(outcome);
  return outcome;
}

export function createTask(db: Sql, parts: CreateTaskParts, t: NewTask, opts: CreateTaskOptions = {}): Promise<CreateTaskOutcome> {
  if (!opts.idempotency && !opts.nonce) return parts.plain(t, opts.chargeKeyId);
  return orRollback(() => db.transaction((tx) => reserveAndInsert(tx, parts.insert, t, opts)));
}
