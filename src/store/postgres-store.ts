// PostgreSQL adapter of the store port (pg Pool), for many API nodes and worker processes sharing one
// database. Same semantics as the SQLite adapter, checked by the same contract suite. Every
// multi-statement operation runs in one transaction; races between processes are settled by row locks
// (claims take pending rows FOR UPDATE SKIP LOCKED, so workers never queue behind each other) and by
// unique indexes (an idempotency key, a payment nonce, a refund: the loser of the race sees the
// winner's row and reports the same outcome SQLite would, never an error).
import type pg from 'pg';
import { listTasksSql, toUsageRow, usageSql } from './caller-queries.js';
import { migratePostgres } from '../db/migrate.js';
import { PostgresNotifier, channelName } from '../db/postgres-notifier.js';
import { clientConfig, createPool, inTransaction, Rollback, type PostgresConnectionOptions, type Queryable } from '../db/postgres-pool.js';
import { taskMigrations } from '../db/tasks/migrations.js';
import { countsOf } from './batch-counts.js';
import { type BatchRecord, toBatch } from './batch-rows.js';
import { type PurchaseRecordOf, toPurchaseRow } from './purchase-rows.js';
import type {
  ApiKeyRow,
  BatchCounts,
  BatchItem,
  BatchRow,
  ClaimOptions,
  CreateBatchOutcome,
  NewBatch,
  CreateTaskOptions,
  CreateTaskOutcome,
  FailOptions,
  KeyPurchaseRow,
  NewKeyPurchase,
  NewTask,
  Payer,
  StoreStats,
  TaskRow,
  TaskListQuery,
  TaskStatus,
  TaskStore,
  UsageQuery,
  UsageRow,
} from './port.js';

interface TaskRecord {
  id: string;
  tool: string;
  input: unknown;
  status: TaskStatus;
  result: unknown;
  error: string | null;
  error_kind: string | null;
  payer_kind: Payer['kind'];
  payer_id: string | null;
  price_micros: number;
  charged_micros: number;
  payment: Record<string, unknown> | null;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  run_after: number;
  cancel_requested: boolean;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

interface KeyRecord {
  id: string;
  prefix: string;
  label: string | null;
  balance_micros: number;
  created_at: number;
  revoked_at: number | null;
}

function toTask(r: TaskRecord): TaskRow {
  return {
    id: r.id,
    tool: r.tool,
    input: r.input,
    status: r.status,
    result: r.result,
    error: r.error,
    errorKind: r.error_kind as TaskRow['errorKind'],
    payer: { kind: r.payer_kind, id: r.payer_id },
    priceMicros: r.price_micros,
    chargedMicros: r.charged_micros,
    payment: r.payment,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    leaseOwner: r.lease_owner,
    leaseExpiresAt: r.lease_expires_at,
    runAfter: r.run_after,
    cancelRequested: r.cancel_requested,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

type PurchaseRecord = PurchaseRecordOf<Record<string, unknown>>;
const toPurchase = (r: PurchaseRecord): KeyPurchaseRow => toPurchaseRow(r, r.payment);

function toKey(r: KeyRecord): ApiKeyRow {
  return { id: r.id, prefix: r.prefix, label: r.label, balanceMicros: r.balance_micros, createdAt: r.created_at, revokedAt: r.revoked_at };
}

// Hot statements are named, so each connection parses and plans them once (a quarter of the server's
// time per task went to parsing otherwise). They list columns instead of `*`: a prepared `*` fails with
// "cached plan must not change result type" in running processes once a later migration adds a column.
const TASK_COLUMNS = 'id, tool, input, status, result, error, error_kind, payer_kind, payer_id, price_micros, charged_micros, payment, attempts, max_attempts, lease_owner, lease_expires_at, run_after, cancel_requested, created_at, started_at, finished_at';

/** PostgreSQL text cannot hold NUL; JSON columns keep it escaped, plain text columns drop it. */
function text(s: string): string;
function text(s: string | null): string | null;
function text(s: string | null): string | null {
  return s === null ? null : s.replace(/\0/g, '');
}

/** Task input and results go in as JSON text: pg would turn a JS array into a PostgreSQL array literal. */
const json = (v: unknown): string => JSON.stringify(v ?? null);

// Gives back what a task was charged, once: the unique (task_id, reason) index turns a second refund
// (a retried settle, two sweepers) into no row, and only inserted ledger rows move balances. Written as
// two CTEs over `source` (the rows just settled), so the refund is part of the settling statement.
function REFUND_CTES(source: string, when: string, nowParam: string): string {
  return `refunded AS (
    INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at)
    SELECT payer_id, id, charged_micros, 'refund', ${nowParam} FROM ${source}
    WHERE ${when} AND payer_kind = 'key' AND payer_id IS NOT NULL AND charged_micros > 0
    ON CONFLICT (task_id, reason) WHERE task_id IS NOT NULL DO NOTHING
    RETURNING key_id, delta_micros
  ), credited AS (
    UPDATE api_keys k SET balance_micros = k.balance_micros + r.total
    FROM (SELECT key_id, SUM(delta_micros) AS total FROM refunded GROUP BY key_id) r
    WHERE k.id = r.key_id
  )`;
}

/** Cancels (and refunds) the pending tasks matching `column = $2` at time $1, returning them. */
function cancelPendingSql(column: 'id' | 'batch_id'): string {
  return `WITH cancelled AS (
     UPDATE tasks SET status = 'cancelled', error = 'Cancelled before it started.', error_kind = 'cancelled', finished_at = $1
     WHERE ${column} = $2 AND status = 'pending'
     RETURNING *
   ), ${REFUND_CTES('cancelled', 'true', '$1')}
   SELECT * FROM cancelled`;
}

export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /** Where connection problems of idle or listening connections are reported. */
  onError?: (err: Error) => void;
}

export class PostgresStore implements TaskStore {
  readonly dialect = 'postgres' as const;
  readonly schema: string;
  private readonly pool: pg.Pool;
  private readonly notifier: PostgresNotifier;
  private readonly availableChannel: string;
  private readonly settledChannel: string;
  private closed = false;

  constructor(o: PostgresStoreOptions) {
    this.schema = o.schema;
    this.pool = createPool(o);
    this.notifier = new PostgresNotifier(
      { ...clientConfig(o), application_name: `${o.applicationName ?? 'agent-utility'}:listen` },
      (sql, params) => this.pool.query(sql, params),
      o.onError,
    );
    this.availableChannel = channelName(o.schema, 'task_available');
    this.settledChannel = channelName(o.schema, 'task_settled');
  }

  async migrate(): Promise<void> {
    await migratePostgres({ pool: this.pool, schema: this.schema }, taskMigrations('postgres'));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.notifier.close();
    await this.pool.end();
  }

  onTaskAvailable(listener: (tool: string) => void): () => void {
    return this.notifier.subscribe(this.availableChannel, listener);
  }

  onTaskSettled(listener: (taskId: string) => void): () => void {
    return this.notifier.subscribe(this.settledChannel, listener);
  }

  private async taskById(q: Queryable, id: string): Promise<TaskRow | null> {
    const r = await q.query<TaskRecord>({ name: 'get_task', text: `SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1`, values: [id] });
    return r.rows[0] ? toTask(r.rows[0]) : null;
  }

  async createTask(t: NewTask, opts: CreateTaskOptions = {}): Promise<CreateTaskOutcome> {
    if (!opts.idempotency && !opts.nonce) {
      // The common case needs no explicit transaction: charge, insert and ledger are one statement.
      for (let attempt = 1; ; attempt++) {
        const created = await this.insertTask(this.pool, t, opts.chargeKeyId);
        if (created) return this.announced({ kind: 'created', task: created });
        const refusal = await this.chargeRefusal(this.pool, opts.chargeKeyId!, t.priceMicros);
        // Refused, but the key was topped up in between: try again rather than report a stale balance.
        if (refusal || attempt >= 3) return refusal ?? { kind: 'insufficient_credits', balanceMicros: 0 };
      }
    }
    try {
      return this.announced(await inTransaction(this.pool, (tx) => this.createInTransaction(tx, t, opts)));
    } catch (err) {
      // Refusals roll back, so a refused request leaves no idempotency record, nonce or charge behind.
      if (err instanceof Rollback) return err.value as CreateTaskOutcome;
      throw err;
    }
  }

  /** Wakes workers everywhere once a creation has committed. */
  private announced(outcome: CreateTaskOutcome): CreateTaskOutcome {
    if (outcome.kind === 'created') this.notifier.publish(this.availableChannel, outcome.task.tool);
    return outcome;
  }

  /**
   * Inserts the task, charging `chargeKeyId` its price in the same statement (so atomically, with or
   * without a surrounding transaction); null when the key is unknown, revoked or short of credits.
   * The UPDATE takes the key's row lock and re-checks the balance after any concurrent charge, so
   * concurrent charges can never overdraw it.
   */
  private async insertTask(q: Queryable, t: NewTask, chargeKeyId: string | undefined): Promise<TaskRow | null> {
    const r = await q.query<TaskRecord>({
      name: 'insert_task',
      text: `WITH charged AS (
         UPDATE api_keys SET balance_micros = balance_micros - $6
         WHERE id = $11 AND revoked_at IS NULL AND balance_micros >= $6
         RETURNING id
       ), task AS (
         INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, payment,
           attempts, max_attempts, run_after, created_at)
         SELECT $1, $2, $3, 'pending', $4, $5, $6, $7, $8, 0, $9, $10, $10
         WHERE $11::text IS NULL OR EXISTS (SELECT 1 FROM charged)
         RETURNING *
       ), ledger AS (
         INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at)
         SELECT $11, task.id, -task.price_micros, 'charge', $10 FROM task WHERE $11::text IS NOT NULL AND task.price_micros > 0
       )
       SELECT ${TASK_COLUMNS} FROM task`,
      values: [
        t.id,
        t.tool,
        json(t.input ?? {}),
        t.payer.kind,
        t.payer.id,
        t.priceMicros,
        chargeKeyId ? t.priceMicros : 0,
        t.payment ? json(t.payment) : null,
        t.maxAttempts,
        t.now,
        chargeKeyId ?? null,
      ],
    });
    return r.rows[0] ? toTask(r.rows[0]) : null;
  }

  /** Why insertTask refused to charge the key (null when, read again now, nothing stands in the way). */
  private async chargeRefusal(q: Queryable, keyId: string, price: number): Promise<CreateTaskOutcome | null> {
    const key = (await q.query<{ balance_micros: number; revoked_at: number | null }>('SELECT balance_micros, revoked_at FROM api_keys WHERE id = $1', [keyId]))
      .rows[0];
    if (!key || key.revoked_at !== null) return { kind: 'key_invalid' };
    if (key.balance_micros < price) return { kind: 'insufficient_credits', balanceMicros: key.balance_micros };
    return null;
  }

  private async createInTransaction(tx: pg.PoolClient, t: NewTask, opts: CreateTaskOptions): Promise<CreateTaskOutcome> {
    // The payment nonce is reserved before the idempotency key: a payment seen once never answers again,
    // whatever Idempotency-Key comes with it (see docs/payments.md, "One signature, one task").
    const n = opts.nonce && [opts.nonce.network, opts.nonce.asset.toLowerCase(), opts.nonce.payer.toLowerCase(), opts.nonce.nonce.toLowerCase()];
    if (n) {
      const reserved = await tx.query(
        `INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (network, asset, payer, nonce) DO NOTHING`,
        [...n, t.id, t.now],
      );
      if (reserved.rowCount === 0) {
        const used = await tx.query<{ task_id: string }>('SELECT task_id FROM payment_nonces WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4', n);
        throw new Rollback<CreateTaskOutcome>({ kind: 'nonce_used', taskId: used.rows[0]?.task_id ?? '' });
      }
    }
    if (opts.idempotency) {
      const { scope, key, requestHash, windowMs } = opts.idempotency;
      await tx.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND created_at < $3', [scope, key, t.now - windowMs]);
      // Reserve the key first. ON CONFLICT waits for a concurrent holder to commit or roll back, then
      // either inserts (it rolled back) or does nothing (it committed, and its row is visible below).
      const reserved = await tx.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, task_id, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (scope, key) DO NOTHING`,
        [scope, key, requestHash, t.id, t.now],
      );
      if (reserved.rowCount === 0) {
        const prior = await tx.query<{ request_hash: string; task_id: string }>(
          'SELECT request_hash, task_id FROM idempotency_keys WHERE scope = $1 AND key = $2 FOR UPDATE',
          [scope, key],
        );
        const p = prior.rows[0];
        // Deleted between our insert and this read (retention): let the whole transaction run again.
        if (!p) throw Object.assign(new Error('idempotency record vanished'), { code: '40001' });
        if (p.request_hash !== requestHash) throw new Rollback<CreateTaskOutcome>({ kind: 'idempotency_mismatch', taskId: p.task_id });
        const task = await this.taskById(tx, p.task_id);
        if (task) {
          if (!n) throw new Rollback<CreateTaskOutcome>({ kind: 'replayed', task });
          // A fresh payment that found its first task stays used up (committed), so it cannot answer twice either.
          await tx.query('UPDATE payment_nonces SET task_id = $5 WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4', [...n, task.id]);
          return { kind: 'replayed', task };
        }
        // The first task is gone (retention): the key now belongs to this request.
        await tx.query('UPDATE idempotency_keys SET request_hash = $3, task_id = $4, created_at = $5 WHERE scope = $1 AND key = $2', [
          scope,
          key,
          requestHash,
          t.id,
          t.now,
        ]);
      }
    }
    const created = await this.insertTask(tx, t, opts.chargeKeyId);
    if (created) return { kind: 'created', task: created };
    throw new Rollback((await this.chargeRefusal(tx, opts.chargeKeyId!, t.priceMicros)) ?? { kind: 'insufficient_credits', balanceMicros: 0 });
  }

  async getTask(id: string): Promise<TaskRow | null> {
    return this.taskById(this.pool, id);
  }

  async claimTasks(o: ClaimOptions): Promise<TaskRow[]> {
    if (o.limit <= 0) return [];
    if (o.onlyTools && o.onlyTools.length === 0) return [];
    // claim_tasks (migration 003) pins the plan to the ordered scan of pending rows whatever the
    // statistics say; the function, its SKIP LOCKED and the lease are described there.
    const r = await this.pool.query<TaskRecord>({
      name: 'claim_tasks',
      text: `SELECT ${TASK_COLUMNS} FROM claim_tasks($1, $2, $3, $4, $5, $6)`,
      values: [o.now, o.limit, o.owner, o.now + o.leaseMs, o.onlyTools ?? null, o.excludeTools && o.excludeTools.length > 0 ? o.excludeTools : null],
    });
    return r.rows.map(toTask).sort((a, b) => a.runAfter - b.runAfter || a.createdAt - b.createdAt);
  }

  async renewLeases(owner: string, ids: readonly string[], leaseMs: number, now: number) {
    if (ids.length === 0) return { held: [], cancelRequested: [] };
    const r = await this.pool.query<{ id: string; cancel_requested: boolean }>({
      name: 'renew_leases',
      text: `UPDATE tasks SET lease_expires_at = $1 WHERE id = ANY($2::text[]) AND lease_owner = $3 AND status = 'running'
       RETURNING id, cancel_requested`,
      values: [now + leaseMs, ids, owner],
    });
    const byId = new Map(r.rows.map((row) => [row.id, row.cancel_requested]));
    const held = ids.filter((id) => byId.has(id));
    return { held, cancelRequested: held.filter((id) => byId.get(id) === true) };
  }

  async completeTask(id: string, owner: string, result: unknown, now: number): Promise<TaskRow | null> {
    const r = await this.pool.query<TaskRecord>({
      name: 'complete_task',
      text: `UPDATE tasks SET status = 'complete', result = $1, error = NULL, error_kind = NULL, lease_owner = NULL,
         lease_expires_at = NULL, finished_at = $2
       WHERE id = $3 AND lease_owner = $4 AND status = 'running'
       RETURNING ${TASK_COLUMNS}`,
      values: [json(result), now, id, owner],
    });
    return this.settled(r.rows[0]);
  }

  async failTask(id: string, owner: string, o: FailOptions, now: number): Promise<TaskRow | null> {
    // One statement, so atomic without a transaction: settle under the lease and refund once.
    const r = await this.pool.query<TaskRecord>({
      name: 'fail_task',
      text: `WITH settled AS (
         UPDATE tasks SET status = $1, error = $2, error_kind = $3, lease_owner = NULL, lease_expires_at = NULL, finished_at = $4
         WHERE id = $5 AND lease_owner = $6 AND status = 'running'
         RETURNING *
       ), ${REFUND_CTES('settled', '$7::boolean', '$4')}
       SELECT ${TASK_COLUMNS} FROM settled`,
      values: [o.kind === 'cancelled' ? 'cancelled' : 'failed', text(o.error), o.kind, now, id, owner, o.refund],
    });
    return this.settled(r.rows[0]);
  }

  async retryTask(id: string, owner: string, error: string, runAfter: number, now: number): Promise<boolean> {
    const r = await this.pool.query<{ tool: string }>({
      name: 'retry_task',
      text: `UPDATE tasks SET status = 'pending', error = $1, lease_owner = NULL, lease_expires_at = NULL, run_after = $2
       WHERE id = $3 AND lease_owner = $4 AND status = 'running'
       RETURNING tool`,
      values: [text(error), runAfter, id, owner],
    });
    const tool = r.rows[0]?.tool;
    // Due now (a worker shutting down gives its task back): wake the other workers at once.
    if (tool !== undefined && runAfter <= now) this.notifier.publish(this.availableChannel, tool);
    return tool !== undefined;
  }

  async requestCancel(id: string, now: number): Promise<TaskRow | null> {
    const outcome = await inTransaction(this.pool, async (tx) => {
      const pending = await tx.query<TaskRecord>(
        cancelPendingSql('id'),
        [now, id],
      );
      if (pending.rows[0]) return { cancelled: pending.rows[0] };
      const flagged = await tx.query<TaskRecord>("UPDATE tasks SET cancel_requested = true WHERE id = $1 AND status = 'running' RETURNING *", [id]);
      if (flagged.rows[0]) return { task: toTask(flagged.rows[0]) };
      return { task: await this.taskById(tx, id) };
    });
    // Announced only after the commit, so a waiter woken by it reads the cancelled state.
    return 'cancelled' in outcome ? this.settled(outcome.cancelled) : outcome.task;
  }

  async recoverExpiredLeases(now: number): Promise<{ requeued: number; failed: number }> {
    const { giveUp, again } = await inTransaction(this.pool, async (tx) => {
      // Every process sweeps; SKIP LOCKED lets concurrent sweepers split the expired rows instead of
      // blocking on each other, and each row is handled by exactly one of them.
      const expired = await tx.query<{ id: string; tool: string; give_up: boolean }>(
        `SELECT id, tool, (cancel_requested OR attempts >= max_attempts) AS give_up FROM tasks
         WHERE status = 'running' AND lease_expires_at < $1
         ORDER BY lease_expires_at
         FOR UPDATE SKIP LOCKED`,
        [now],
      );
      const giveUp = expired.rows.filter((r) => r.give_up).map((r) => r.id);
      const again = expired.rows.filter((r) => !r.give_up);
      if (giveUp.length > 0) {
        await tx.query(
          `WITH settled AS (
             UPDATE tasks SET
               status = CASE WHEN cancel_requested THEN 'cancelled' ELSE 'failed' END,
               error = CASE WHEN cancel_requested THEN 'Cancelled.'
                            ELSE 'The worker running this task stopped ' || attempts || ' times; giving up.' END,
               error_kind = CASE WHEN cancel_requested THEN 'cancelled' ELSE 'crashed' END,
               lease_owner = NULL, lease_expires_at = NULL, finished_at = $2
             WHERE id = ANY($1::text[])
             RETURNING *
           ), ${REFUND_CTES('settled', 'true', '$2')}
           SELECT id FROM settled`,
          [giveUp, now],
        );
      }
      if (again.length > 0) {
        await tx.query("UPDATE tasks SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, run_after = $2 WHERE id = ANY($1::text[])", [
          again.map((r) => r.id),
          now,
        ]);
      }
      return { giveUp, again };
    });
    // After the commit: waiters of the tasks given up on, and workers for the requeued ones.
    for (const id of giveUp) this.notifier.publish(this.settledChannel, id);
    for (const tool of new Set(again.map((r) => r.tool))) this.notifier.publish(this.availableChannel, tool);
    return { requeued: again.length, failed: giveUp.length };
  }

  /** A task row that just reached a terminal state (after its commit): tell waiters in every process. */
  private settled(row: TaskRecord | undefined): TaskRow | null {
    if (!row) return null;
    this.notifier.publish(this.settledChannel, row.id);
    return toTask(row);
  }

  async deleteFinishedBefore(cutoff: number): Promise<number> {
    return inTransaction(this.pool, async (tx) => {
      await tx.query('DELETE FROM idempotency_keys WHERE created_at < $1', [cutoff]);
      const r = await tx.query('DELETE FROM tasks WHERE finished_at IS NOT NULL AND finished_at < $1', [cutoff]);
      return r.rowCount ?? 0;
    });
  }

  async setPayment(id: string, payment: Record<string, unknown>): Promise<void> {
    await this.pool.query('UPDATE tasks SET payment = $1 WHERE id = $2', [json(payment), id]);
  }

  async listUnsettledPayments(finishedBefore: number, limit: number): Promise<TaskRow[]> {
    const r = await this.pool.query<TaskRecord>(
      `SELECT * FROM tasks WHERE payer_kind = 'x402' AND finished_at IS NOT NULL AND finished_at < $1
         AND payment->>'status' = 'pending' ORDER BY finished_at LIMIT $2`,
      [finishedBefore, limit],
    );
    return r.rows.map(toTask);
  }

  async useSignInNonce(nonce: string, now: number, forgetBefore: number): Promise<boolean> {
    await this.pool.query("DELETE FROM payment_nonces WHERE network = 'siwx' AND created_at < $1", [forgetBefore]);
    const r = await this.pool.query(
      "INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES ('siwx', '', '', $1, '', $2) ON CONFLICT DO NOTHING",
      [nonce, now],
    );
    return r.rowCount === 1;
  }

  async listTasksByPayer(payer: Payer, limit: number, beforeCreatedAt?: number): Promise<TaskRow[]> {
    const r = await this.pool.query<TaskRecord>(
      'SELECT * FROM tasks WHERE payer_kind = $1 AND payer_id = $2 AND created_at < $3 ORDER BY created_at DESC, id DESC LIMIT $4',
      [payer.kind, payer.id, beforeCreatedAt ?? Number.MAX_SAFE_INTEGER, limit],
    );
    return r.rows.map(toTask);
  }

  async listTasks(q: TaskListQuery): Promise<TaskRow[]> {
    const r = await this.pool.query<TaskRecord>(listTasksSql('postgres', q));
    return r.rows.map(toTask);
  }

  async usage(q: UsageQuery): Promise<UsageRow[]> {
    const r = await this.pool.query<Record<string, unknown>>(usageSql('postgres', q));
    return r.rows.map(toUsageRow);
  }

  async stats(): Promise<StoreStats> {
    const r = await this.pool.query<{ tool: string; status: TaskStatus; count: number }>(
      'SELECT tool, status, COUNT(*) AS count FROM tasks GROUP BY tool, status',
    );
    const byToolStatus = r.rows;
    const queueDepth = byToolStatus.filter((x) => x.status === 'pending').reduce((n, x) => n + x.count, 0);
    const running = byToolStatus.filter((x) => x.status === 'running').reduce((n, x) => n + x.count, 0);
    return { byToolStatus, queueDepth, running };
  }

  async createBatch(b: NewBatch, opts: { chargeKeyId?: string } = {}): Promise<CreateBatchOutcome> {
    const totalMicros = b.tasks.reduce((n, t) => n + t.priceMicros, 0);
    try {
      const outcome = await inTransaction(this.pool, async (tx): Promise<CreateBatchOutcome> => {
        if (opts.chargeKeyId) {
          const charged = await tx.query(
            'UPDATE api_keys SET balance_micros = balance_micros - $2 WHERE id = $1 AND revoked_at IS NULL AND balance_micros >= $2',
            [opts.chargeKeyId, totalMicros],
          );
          if (charged.rowCount === 0) {
            throw new Rollback((await this.chargeRefusal(tx, opts.chargeKeyId, totalMicros)) ?? { kind: 'insufficient_credits', balanceMicros: 0 });
          }
        }
        const r = await tx.query<BatchRecord>(
          `INSERT INTO batches (id, tool, payer_kind, payer_id, total, unique_count, price_micros, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
          [b.id, b.tool, b.payer.kind, b.payer.id, b.itemTasks.length, b.tasks.length, totalMicros, b.now],
        );
        // Arrays through unnest: ten thousand rows in one statement each, not ten thousand round trips.
        // One ledger row per task, so a failed item is refunded by the ordinary task refund, exactly once.
        await tx.query(
          `WITH task AS (
             INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, attempts, max_attempts,
               run_after, created_at, batch_id)
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
            opts.chargeKeyId ?? null,
            b.tasks.map((t) => json(t.input ?? {})),
            b.tasks.map((t) => t.priceMicros),
          ],
        );
        await tx.query(
          'INSERT INTO batch_items (batch_id, idx, task_id) SELECT $1, u.ord - 1, u.task_id FROM unnest($2::text[]) WITH ORDINALITY AS u(task_id, ord)',
          [b.id, b.itemTasks.map((i) => b.tasks[i]!.id)],
        );
        return { kind: 'created', batch: toBatch(r.rows[0]!) };
      });
      this.notifier.publish(this.availableChannel, b.tool);
      return outcome;
    } catch (err) {
      if (err instanceof Rollback) return err.value as CreateBatchOutcome;
      throw err;
    }
  }

  async getBatch(id: string): Promise<BatchRow | null> {
    const r = await this.pool.query<BatchRecord>('SELECT * FROM batches WHERE id = $1', [id]);
    return r.rows[0] ? toBatch(r.rows[0]) : null;
  }

  async batchCounts(id: string): Promise<BatchCounts> {
    const r = await this.pool.query<{ status: TaskStatus; n: string }>(
      `SELECT COALESCE(t.status, 'cancelled') AS status, COUNT(*) AS n FROM batch_items i LEFT JOIN tasks t ON t.id = i.task_id
       WHERE i.batch_id = $1 GROUP BY 1`,
      [id],
    );
    return countsOf(r.rows);
  }

  async listBatchItems(id: string, from: number, limit: number): Promise<BatchItem[]> {
    const r = await this.pool.query<TaskRecord & { batch_idx: number }>(
      `SELECT i.idx AS batch_idx, t.* FROM batch_items i LEFT JOIN tasks t ON t.id = i.task_id
       WHERE i.batch_id = $1 AND i.idx >= $2 ORDER BY i.idx LIMIT $3`,
      [id, from, limit],
    );
    return r.rows.map((row) => ({ index: row.batch_idx, task: row.id === null ? null : toTask(row) }));
  }

  async cancelBatch(id: string, now: number): Promise<TaskRow[]> {
    const rows = await inTransaction(this.pool, async (tx) => {
      const cancelled = await tx.query<TaskRecord>(
        cancelPendingSql('batch_id'),
        [now, id],
      );
      await tx.query("UPDATE tasks SET cancel_requested = true WHERE batch_id = $1 AND status = 'running'", [id]);
      return cancelled.rows;
    });
    return rows.map((row) => this.settled(row)!);
  }

  async createKey(k: { id: string; hash: string; prefix: string; label: string | null; balanceMicros: number; now: number }): Promise<ApiKeyRow> {
    return inTransaction(this.pool, async (tx) => {
      const r = await tx.query<KeyRecord>(
        'INSERT INTO api_keys (id, hash, prefix, label, balance_micros, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
        [k.id, k.hash, k.prefix, text(k.label), k.balanceMicros, k.now],
      );
      if (k.balanceMicros > 0) {
        await tx.query("INSERT INTO credit_ledger (key_id, delta_micros, reason, created_at) VALUES ($1, $2, 'grant', $3)", [k.id, k.balanceMicros, k.now]);
      }
      return toKey(r.rows[0]!);
    });
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRow | null> {
    const r = await this.pool.query<KeyRecord>('SELECT * FROM api_keys WHERE hash = $1', [hash]);
    return r.rows[0] ? toKey(r.rows[0]) : null;
  }

  async findKey(idOrPrefix: string): Promise<ApiKeyRow | null> {
    const r = await this.pool.query<KeyRecord>('SELECT * FROM api_keys WHERE id = $1 OR prefix = $1 ORDER BY created_at LIMIT 1', [idOrPrefix]);
    return r.rows[0] ? toKey(r.rows[0]) : null;
  }

  async listKeys(): Promise<ApiKeyRow[]> {
    return (await this.pool.query<KeyRecord>('SELECT * FROM api_keys ORDER BY created_at, id')).rows.map(toKey);
  }

  async creditKey(id: string, micros: number, reason: string, now: number): Promise<ApiKeyRow | null> {
    return inTransaction(this.pool, async (tx) => {
      const r = await tx.query<KeyRecord>('UPDATE api_keys SET balance_micros = balance_micros + $1 WHERE id = $2 RETURNING *', [micros, id]);
      if (!r.rows[0]) return null;
      await tx.query('INSERT INTO credit_ledger (key_id, delta_micros, reason, created_at) VALUES ($1, $2, $3, $4)', [id, micros, text(reason), now]);
      return toKey(r.rows[0]);
    });
  }

  async revokeKey(id: string, now: number): Promise<ApiKeyRow | null> {
    const r = await this.pool.query<KeyRecord>('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING *', [now, id]);
    return r.rows[0] ? toKey(r.rows[0]) : null;
  }

  async reserveKeyPurchase(p: NewKeyPurchase): Promise<{ kind: 'reserved'; purchase: KeyPurchaseRow } | { kind: 'nonce_used'; usedBy: string }> {
    return inTransaction(this.pool, async (tx) => {
      const n = [p.nonce.network, p.nonce.asset.toLowerCase(), p.nonce.payer.toLowerCase(), p.nonce.nonce.toLowerCase()];
      // ON CONFLICT makes two concurrent uses of one signature race on the primary key, not on a read.
      const reserved = await tx.query(
        'INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING task_id',
        [...n, p.id, p.now],
      );
      if (reserved.rowCount === 0) {
        const used = await tx.query<{ task_id: string }>('SELECT task_id FROM payment_nonces WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4', n);
        return { kind: 'nonce_used' as const, usedBy: used.rows[0]?.task_id ?? '' };
      }
      const r = await tx.query<PurchaseRecord>(
        `INSERT INTO key_purchases (id, kind, key_id, wallet, micros, status, payment, created_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7) RETURNING *`,
        [p.id, p.kind, p.keyId, p.wallet.toLowerCase(), p.micros, JSON.stringify(p.payment), p.now],
      );
      return { kind: 'reserved' as const, purchase: toPurchase(r.rows[0]!) };
    });
  }

  async settleKeyPurchase(
    id: string,
    o: { payment: Record<string, unknown>; newKey?: { id: string; hash: string; prefix: string; label: string | null }; now: number },
  ): Promise<{ purchase: KeyPurchaseRow; key: ApiKeyRow } | null> {
    return inTransaction(this.pool, async (tx) => {
      // The row lock serializes two settlers of one purchase; the second sees it settled and grants nothing.
      const pending = await tx.query<PurchaseRecord>("SELECT * FROM key_purchases WHERE id = $1 AND status = 'pending' FOR UPDATE", [id]);
      const row = pending.rows[0];
      if (!row) return null;
      let keyId = row.key_id;
      if (row.kind === 'create') {
        if (!o.newKey) throw new Error('settling a key creation needs the new key');
        keyId = o.newKey.id;
        await tx.query('INSERT INTO api_keys (id, hash, prefix, label, balance_micros, created_at) VALUES ($1, $2, $3, $4, 0, $5)', [
          o.newKey.id,
          o.newKey.hash,
          o.newKey.prefix,
          text(o.newKey.label),
          o.now,
        ]);
      }
      const key = await tx.query<KeyRecord>('UPDATE api_keys SET balance_micros = balance_micros + $1 WHERE id = $2 RETURNING *', [row.micros, keyId]);
      await tx.query("INSERT INTO credit_ledger (key_id, delta_micros, reason, created_at) VALUES ($1, $2, 'purchase', $3)", [keyId, row.micros, o.now]);
      const r = await tx.query<PurchaseRecord>("UPDATE key_purchases SET status = 'settled', key_id = $1, payment = $2, settled_at = $3 WHERE id = $4 RETURNING *", [
        keyId,
        JSON.stringify(o.payment),
        o.now,
        id,
      ]);
      return { purchase: toPurchase(r.rows[0]!), key: toKey(key.rows[0]!) };
    });
  }

  async markKeyPurchaseUnpaid(id: string, payment: Record<string, unknown>): Promise<void> {
    await this.pool.query("UPDATE key_purchases SET status = 'unpaid', payment = $1 WHERE id = $2 AND status = 'pending'", [JSON.stringify(payment), id]);
  }

  async listKeyPurchases(wallet: string, limit: number): Promise<KeyPurchaseRow[]> {
    const r = await this.pool.query<PurchaseRecord>('SELECT * FROM key_purchases WHERE wallet = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [wallet.toLowerCase(), limit]);
    return r.rows.map(toPurchase);
  }
}
