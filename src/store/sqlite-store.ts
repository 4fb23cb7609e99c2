// SQLite adapter of the store port (better-sqlite3, WAL). better-sqlite3 is synchronous, so each
// write runs in one IMMEDIATE transaction: charging, idempotency and nonce checks are atomic with
// the task insert even under heavy concurrency, and several processes may share the file.
import Database from 'better-sqlite3';
import { countsOf } from './batch-counts.js';
import { type BatchRecord, toBatch } from './batch-rows.js';
import { type PurchaseRecordOf, toPurchaseRow } from './purchase-rows.js';
import { listTasksSql, toUsageRow, usageSql } from './caller-queries.js';
import { migrateSqlite } from '../db/migrate.js';
import { SqliteDb } from '../db/sqlite.js';
import { taskMigrations } from '../db/tasks/migrations.js';
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
  TaskStatus,
  TaskListQuery,
  TaskStore,
  UsageQuery,
  UsageRow,
} from './port.js';

interface TaskRecord {
  id: string;
  tool: string;
  input: string;
  status: TaskStatus;
  result: string | null;
  error: string | null;
  error_kind: string | null;
  payer_kind: Payer['kind'];
  payer_id: string | null;
  price_micros: number;
  charged_micros: number;
  payment: string | null;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  run_after: number;
  cancel_requested: number;
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
    input: JSON.parse(r.input),
    status: r.status,
    result: r.result === null ? null : JSON.parse(r.result),
    error: r.error,
    errorKind: r.error_kind as TaskRow['errorKind'],
    payer: { kind: r.payer_kind, id: r.payer_id },
    priceMicros: r.price_micros,
    chargedMicros: r.charged_micros,
    payment: r.payment === null ? null : JSON.parse(r.payment),
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    leaseOwner: r.lease_owner,
    leaseExpiresAt: r.lease_expires_at,
    runAfter: r.run_after,
    cancelRequested: r.cancel_requested === 1,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

type PurchaseRecord = PurchaseRecordOf<string>;
const toPurchase = (r: PurchaseRecord): KeyPurchaseRow => toPurchaseRow(r, JSON.parse(r.payment) as Record<string, unknown>);

function toKey(r: KeyRecord): ApiKeyRow {
  return { id: r.id, prefix: r.prefix, label: r.label, balanceMicros: r.balance_micros, createdAt: r.created_at, revokedAt: r.revoked_at };
}

export class SqliteStore implements TaskStore {
  readonly dialect = 'sqlite' as const;
  private readonly conn: SqliteDb;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** One transaction wrapper, built once: creating one per call showed up in profiles of the hot path. */
  private readonly runInTransaction: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(file: string) {
    this.conn = new SqliteDb(file);
    this.db = this.conn.raw;
    this.runInTransaction = this.db.transaction((fn: () => unknown) => fn());
  }

  /** Runs fn in a BEGIN IMMEDIATE transaction: writers queue on the lock instead of failing mid-way. */
  private transaction<T>(fn: () => T): T {
    return this.runInTransaction.immediate(fn) as T;
  }

  /** Prepared once per SQL text: preparing costs more than running these small statements. */
  private sql(text: string): Database.Statement {
    let st = this.statements.get(text);
    if (!st) {
      st = this.db.prepare(text);
      this.statements.set(text, st);
    }
    return st;
  }

  async migrate(): Promise<void> {
    await migrateSqlite(this.conn, taskMigrations('sqlite'));
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private taskById(id: string): TaskRow | null {
    const r = this.sql('SELECT * FROM tasks WHERE id = ?').get(id) as TaskRecord | undefined;
    return r ? toTask(r) : null;
  }

  async createTask(t: NewTask, opts: CreateTaskOptions = {}): Promise<CreateTaskOutcome> {
    return this.transaction(() => this.createInTx(t, opts));
  }

  private createInTx(t: NewTask, opts: CreateTaskOptions): CreateTaskOutcome {
    {
      const n = opts.nonce && { ...opts.nonce, asset: opts.nonce.asset.toLowerCase(), payer: opts.nonce.payer.toLowerCase(), nonce: opts.nonce.nonce.toLowerCase() };
      const reserveNonce = (taskId: string) =>
        n && this.sql('INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(n.network, n.asset, n.payer, n.nonce, taskId, t.now);
      // The payment nonce is checked before the idempotency key: a payment seen once never answers again,
      // whatever Idempotency-Key comes with it (see docs/payments.md, "One signature, one task").
      if (n) {
        const used = this.sql('SELECT task_id FROM payment_nonces WHERE network = ? AND asset = ? AND payer = ? AND nonce = ?')
          .pluck()
          .get(n.network, n.asset, n.payer, n.nonce) as string | undefined;
        if (used) return { kind: 'nonce_used', taskId: used };
      }
      if (opts.idempotency) {
        const { scope, key, requestHash, windowMs } = opts.idempotency;
        this.sql('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND created_at < ?').run(scope, key, t.now - windowMs);
        const prior = this.sql('SELECT request_hash, task_id FROM idempotency_keys WHERE scope = ? AND key = ?').get(scope, key) as
          | { request_hash: string; task_id: string }
          | undefined;
        if (prior) {
          if (prior.request_hash !== requestHash) return { kind: 'idempotency_mismatch', taskId: prior.task_id };
          const task = this.taskById(prior.task_id);
          if (task) {
            // A fresh payment that found its first task is used up too, so it cannot answer twice either.
            reserveNonce(task.id);
            return { kind: 'replayed', task };
          }
          this.sql('DELETE FROM idempotency_keys WHERE scope = ? AND key = ?').run(scope, key);
        }
      }
      reserveNonce(t.id);
      let charged = 0;
      if (opts.chargeKeyId) {
        const key = this.sql('SELECT balance_micros, revoked_at FROM api_keys WHERE id = ?').get(opts.chargeKeyId) as
          | { balance_micros: number; revoked_at: number | null }
          | undefined;
        if (!key || key.revoked_at !== null) return { kind: 'key_invalid' };
        if (key.balance_micros < t.priceMicros) return { kind: 'insufficient_credits', balanceMicros: key.balance_micros };
        if (t.priceMicros > 0) {
          this.sql('UPDATE api_keys SET balance_micros = balance_micros - ? WHERE id = ?').run(t.priceMicros, opts.chargeKeyId);
          this.sql("INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at) VALUES (?, ?, ?, 'charge', ?)")
            .run(opts.chargeKeyId, t.id, -t.priceMicros, t.now);
        }
        charged = t.priceMicros;
      }
      const inserted = this.sql(
          `INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, payment,
             attempts, max_attempts, run_after, created_at)
           VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, 0, ?, ?, ?) RETURNING *`,
        )
        .get(
          t.id,
          t.tool,
          JSON.stringify(t.input ?? {}),
          t.payer.kind,
          t.payer.id,
          t.priceMicros,
          charged,
          t.payment ? JSON.stringify(t.payment) : null,
          t.maxAttempts,
          t.now,
          t.now,
        );
      if (opts.idempotency) {
        const { scope, key, requestHash } = opts.idempotency;
        this.sql('INSERT INTO idempotency_keys (scope, key, request_hash, task_id, created_at) VALUES (?, ?, ?, ?, ?)')
          .run(scope, key, requestHash, t.id, t.now);
      }
      return { kind: 'created', task: toTask(inserted as TaskRecord) };
    }
  }

  async getTask(id: string): Promise<TaskRow | null> {
    return this.taskById(id);
  }

  async claimTasks(o: ClaimOptions): Promise<TaskRow[]> {
    if (o.limit <= 0) return [];
    return this.transaction(() => {
      const params: unknown[] = [o.now];
      let filter = '';
      if (o.onlyTools) {
        if (o.onlyTools.length === 0) return [];
        filter += ` AND tool IN (${o.onlyTools.map(() => '?').join(',')})`;
        params.push(...o.onlyTools);
      }
      if (o.excludeTools && o.excludeTools.length > 0) {
        filter += ` AND tool NOT IN (${o.excludeTools.map(() => '?').join(',')})`;
        params.push(...o.excludeTools);
      }
      params.push(o.limit);
      const ids = this.sql(`SELECT id FROM tasks WHERE status = 'pending' AND run_after <= ?${filter} ORDER BY run_after, created_at LIMIT ?`)
        .pluck()
        .all(...params) as string[];
      const claim = this.sql(
        `UPDATE tasks SET status = 'running', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1,
           started_at = COALESCE(started_at, ?) WHERE id = ? AND status = 'pending' RETURNING *`,
      );
      const out: TaskRow[] = [];
      for (const id of ids) {
        const r = claim.get(o.owner, o.now + o.leaseMs, o.now, id) as TaskRecord | undefined;
        if (r) out.push(toTask(r));
      }
      return out;
    });
  }

  async renewLeases(owner: string, ids: readonly string[], leaseMs: number, now: number) {
    return this.transaction(() => {
      const held: string[] = [];
      const cancelRequested: string[] = [];
      const renew = this.sql(
        "UPDATE tasks SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND status = 'running' RETURNING cancel_requested",
      );
      for (const id of ids) {
        const r = renew.get(now + leaseMs, id, owner) as { cancel_requested: number } | undefined;
        if (r) {
          held.push(id);
          if (r.cancel_requested === 1) cancelRequested.push(id);
        }
      }
      return { held, cancelRequested };
    });
  }

  async completeTask(id: string, owner: string, result: unknown, now: number): Promise<TaskRow | null> {
    const r = this.sql(
        `UPDATE tasks SET status = 'complete', result = ?, error = NULL, error_kind = NULL, lease_owner = NULL,
           lease_expires_at = NULL, finished_at = ? WHERE id = ? AND lease_owner = ? AND status = 'running' RETURNING *`,
      )
      .get(JSON.stringify(result ?? null), now, id, owner) as TaskRecord | undefined;
    return r ? toTask(r) : null;
  }

  private refund(task: TaskRecord, now: number): void {
    if (task.payer_kind !== 'key' || !task.payer_id || task.charged_micros <= 0) return;
    // The unique (task_id, reason) index makes a second refund of the same task impossible.
    const inserted = this.sql(
        "INSERT OR IGNORE INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at) VALUES (?, ?, ?, 'refund', ?)",
      )
      .run(task.payer_id, task.id, task.charged_micros, now);
    if (inserted.changes === 1) {
      this.sql('UPDATE api_keys SET balance_micros = balance_micros + ? WHERE id = ?').run(task.charged_micros, task.payer_id);
    }
  }

  async failTask(id: string, owner: string, o: FailOptions, now: number): Promise<TaskRow | null> {
    return this.transaction(() => {
      const status = o.kind === 'cancelled' ? 'cancelled' : 'failed';
      const r = this.sql(
          `UPDATE tasks SET status = ?, error = ?, error_kind = ?, lease_owner = NULL, lease_expires_at = NULL, finished_at = ?
           WHERE id = ? AND lease_owner = ? AND status = 'running' RETURNING *`,
        )
        .get(status, o.error, o.kind, now, id, owner) as TaskRecord | undefined;
      if (!r) return null;
      if (o.refund) this.refund(r, now);
      return toTask(r);
    });
  }

  async retryTask(id: string, owner: string, error: string, runAfter: number, _now: number): Promise<boolean> {
    const r = this.sql(
        `UPDATE tasks SET status = 'pending', error = ?, lease_owner = NULL, lease_expires_at = NULL, run_after = ?
         WHERE id = ? AND lease_owner = ? AND status = 'running'`,
      )
      .run(error, runAfter, id, owner);
    return r.changes === 1;
  }

  async requestCancel(id: string, now: number): Promise<TaskRow | null> {
    return this.transaction(() => {
      const pending = this.sql(
          `UPDATE tasks SET status = 'cancelled', error = 'Cancelled before it started.', error_kind = 'cancelled', finished_at = ?
           WHERE id = ? AND status = 'pending' RETURNING *`,
        )
        .get(now, id) as TaskRecord | undefined;
      if (pending) {
        this.refund(pending, now);
        return toTask(pending);
      }
      this.sql("UPDATE tasks SET cancel_requested = 1 WHERE id = ? AND status = 'running'").run(id);
      return this.taskById(id);
    });
  }

  async recoverExpiredLeases(now: number): Promise<{ requeued: number; failed: number }> {
    return this.transaction(() => {
      const expired = this.sql("SELECT * FROM tasks WHERE status = 'running' AND lease_expires_at < ?")
        .all(now) as TaskRecord[];
      let requeued = 0;
      let failed = 0;
      for (const t of expired) {
        if (t.cancel_requested === 1 || t.attempts >= t.max_attempts) {
          const cancelled = t.cancel_requested === 1;
          this.sql(
              `UPDATE tasks SET status = ?, error = ?, error_kind = ?, lease_owner = NULL, lease_expires_at = NULL, finished_at = ?
               WHERE id = ?`,
            )
            .run(
              cancelled ? 'cancelled' : 'failed',
              cancelled ? 'Cancelled.' : `The worker running this task stopped ${t.attempts} times; giving up.`,
              cancelled ? 'cancelled' : 'crashed',
              now,
              t.id,
            );
          this.refund(t, now);
          failed++;
        } else {
          this.sql("UPDATE tasks SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, run_after = ? WHERE id = ?")
            .run(now, t.id);
          requeued++;
        }
      }
      return { requeued, failed };
    });
  }

  async deleteFinishedBefore(cutoff: number): Promise<number> {
    return this.transaction(() => {
      this.sql('DELETE FROM idempotency_keys WHERE created_at < ?').run(cutoff);
      return this.sql('DELETE FROM tasks WHERE finished_at IS NOT NULL AND finished_at < ?').run(cutoff).changes;
    });
  }

  async setPayment(id: string, payment: Record<string, unknown>): Promise<void> {
    this.sql('UPDATE tasks SET payment = ? WHERE id = ?').run(JSON.stringify(payment), id);
  }

  async listUnsettledPayments(finishedBefore: number, limit: number): Promise<TaskRow[]> {
    const rows = this.sql(
        `SELECT * FROM tasks WHERE payer_kind = 'x402' AND finished_at IS NOT NULL AND finished_at < ?
           AND json_extract(payment, '$.status') = 'pending' ORDER BY finished_at LIMIT ?`,
      )
      .all(finishedBefore, limit) as TaskRecord[];
    return rows.map(toTask);
  }

  async useSignInNonce(nonce: string, now: number, forgetBefore: number): Promise<boolean> {
    return this.db.transaction(() => {
      this.sql("DELETE FROM payment_nonces WHERE network = 'siwx' AND created_at < ?").run(forgetBefore);
      const r = this.sql("INSERT OR IGNORE INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES ('siwx', '', '', ?, '', ?)")
        .run(nonce, now);
      return r.changes === 1;
    }).immediate();
  }

  async listTasksByPayer(payer: Payer, limit: number, beforeCreatedAt?: number): Promise<TaskRow[]> {
    const rows = this.sql(
        `SELECT * FROM tasks WHERE payer_kind = ? AND payer_id = ? AND created_at < ? ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(payer.kind, payer.id, beforeCreatedAt ?? Number.MAX_SAFE_INTEGER, limit) as TaskRecord[];
    return rows.map(toTask);
  }

  async listTasks(q: TaskListQuery): Promise<TaskRow[]> {
    const { text, values } = listTasksSql('sqlite', q);
    return (this.sql(text).all(...values) as TaskRecord[]).map(toTask);
  }

  async usage(q: UsageQuery): Promise<UsageRow[]> {
    const { text, values } = usageSql('sqlite', q);
    return (this.sql(text).all(...values) as Record<string, unknown>[]).map(toUsageRow);
  }

  async stats(): Promise<StoreStats> {
    const byToolStatus = this.sql('SELECT tool, status, COUNT(*) AS count FROM tasks GROUP BY tool, status').all() as {
      tool: string;
      status: TaskStatus;
      count: number;
    }[];
    const queueDepth = byToolStatus.filter((r) => r.status === 'pending').reduce((n, r) => n + r.count, 0);
    const running = byToolStatus.filter((r) => r.status === 'running').reduce((n, r) => n + r.count, 0);
    return { byToolStatus, queueDepth, running };
  }

  async createBatch(b: NewBatch, opts: { chargeKeyId?: string } = {}): Promise<CreateBatchOutcome> {
    return this.transaction((): CreateBatchOutcome => {
      const totalMicros = b.tasks.reduce((n, t) => n + t.priceMicros, 0);
      if (opts.chargeKeyId) {
        const key = this.sql('SELECT balance_micros, revoked_at FROM api_keys WHERE id = ?').get(opts.chargeKeyId) as
          | { balance_micros: number; revoked_at: number | null }
          | undefined;
        if (!key || key.revoked_at !== null) return { kind: 'key_invalid' };
        if (key.balance_micros < totalMicros) return { kind: 'insufficient_credits', balanceMicros: key.balance_micros };
        this.sql('UPDATE api_keys SET balance_micros = balance_micros - ? WHERE id = ?').run(totalMicros, opts.chargeKeyId);
      }
      const r = this.sql(
          `INSERT INTO batches (id, tool, payer_kind, payer_id, total, unique_count, price_micros, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        )
        .get(b.id, b.tool, b.payer.kind, b.payer.id, b.itemTasks.length, b.tasks.length, totalMicros, b.now) as BatchRecord;
      const insert = this.sql(
        `INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, price_micros, charged_micros, attempts, max_attempts,
           run_after, created_at, batch_id) VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
      );
      // One ledger row per task: a failed item is refunded by the ordinary task refund, exactly once.
      const ledger = this.sql("INSERT INTO credit_ledger (key_id, task_id, delta_micros, reason, created_at) VALUES (?, ?, ?, 'charge', ?)");
      for (const t of b.tasks) {
        const charged = opts.chargeKeyId ? t.priceMicros : 0;
        insert.run(t.id, t.tool, JSON.stringify(t.input ?? {}), t.payer.kind, t.payer.id, t.priceMicros, charged, t.maxAttempts, t.now, t.now, b.id);
        if (opts.chargeKeyId && charged > 0) ledger.run(opts.chargeKeyId, t.id, -charged, t.now);
      }
      const item = this.sql('INSERT INTO batch_items (batch_id, idx, task_id) VALUES (?, ?, ?)');
      b.itemTasks.forEach((taskIndex, idx) => item.run(b.id, idx, b.tasks[taskIndex]!.id));
      return { kind: 'created', batch: toBatch(r) };
    });
  }

  async getBatch(id: string): Promise<BatchRow | null> {
    const r = this.sql('SELECT * FROM batches WHERE id = ?').get(id) as BatchRecord | undefined;
    return r ? toBatch(r) : null;
  }

  async batchCounts(id: string): Promise<BatchCounts> {
    const rows = this.sql(
        `SELECT COALESCE(t.status, 'cancelled') AS status, COUNT(*) AS n FROM batch_items i LEFT JOIN tasks t ON t.id = i.task_id
         WHERE i.batch_id = ? GROUP BY 1`,
      )
      .all(id) as { status: TaskStatus; n: number }[];
    return countsOf(rows);
  }

  async listBatchItems(id: string, from: number, limit: number): Promise<BatchItem[]> {
    const rows = this.sql(
        `SELECT i.idx AS batch_idx, t.* FROM batch_items i LEFT JOIN tasks t ON t.id = i.task_id
         WHERE i.batch_id = ? AND i.idx >= ? ORDER BY i.idx LIMIT ?`,
      )
      .all(id, from, limit) as (TaskRecord & { batch_idx: number })[];
    return rows.map((r) => ({ index: r.batch_idx, task: r.id === null ? null : toTask(r) }));
  }

  async cancelBatch(id: string, now: number): Promise<TaskRow[]> {
    return this.transaction(() => {
      const cancelled = this.sql(
          `UPDATE tasks SET status = 'cancelled', error = 'Cancelled before it started.', error_kind = 'cancelled', finished_at = ?
           WHERE batch_id = ? AND status = 'pending' RETURNING *`,
        )
        .all(now, id) as TaskRecord[];
      for (const t of cancelled) this.refund(t, now);
      this.sql("UPDATE tasks SET cancel_requested = 1 WHERE batch_id = ? AND status = 'running'").run(id);
      return cancelled.map(toTask);
    });
  }

  async createKey(k: { id: string; hash: string; prefix: string; label: string | null; balanceMicros: number; now: number }) {
    return this.transaction(() => {
      this.sql('INSERT INTO api_keys (id, hash, prefix, label, balance_micros, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(k.id, k.hash, k.prefix, k.label, k.balanceMicros, k.now);
      if (k.balanceMicros > 0) {
        this.sql("INSERT INTO credit_ledger (key_id, delta_micros, reason, created_at) VALUES (?, ?, 'grant', ?)")
          .run(k.id, k.balanceMicros, k.now);
      }
      return toKey(this.sql('SELECT * FROM api_keys WHERE id = ?').get(k.id) as KeyRecord);
    });
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRow | null> {
    const r = this.sql('SELECT * FROM api_keys WHERE hash = ?').get(hash) as KeyRecord | undefined;
    return r ? toKey(r) : null;
  }

  async findKey(idOrPrefix: string): Promise<ApiKeyRow | null> {
    const r = this.sql('SELECT * FROM api_keys WHERE id = ? OR prefix = ?').get(idOrPrefix, idOrPrefix) as KeyRecord | undefined;
    return r ? toKey(r) : null;
  }

  async listKeys(): Promise<ApiKeyRow[]> {
    return (this.sql('SELECT * FROM api_keys ORDER BY created_at').all() as KeyRecord[]).map(toKey);
  }

  async creditKey(id: string, micros: number, reason: string, now: number): Promise<ApiKeyRow | null> {
    return this.transaction(() => {
      const r = this.sql('UPDATE api_keys SET balance_micros = balance_micros + ? WHERE id = ? RETURNING *').get(micros, id) as
        | KeyRecord
        | undefined;
      if (!r) return null;
      this.sql('INSERT INTO credit_ledger (key_id, delta_micros, reason, created_at) VALUES (?, ?, ?, ?)').run(id, micros, reason, now);
      return toKey(r);
    });
  }

  async revokeKey(id: string, now: number): Promise<ApiKeyRow | null> {
    const r = this.sql('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? RETURNING *').get(now, id) as
      | KeyRecord
      | undefined;
    return r ? toKey(r) : null;
  }

  async reserveKeyPurchase(p: NewKeyPurchase): Promise<{ kind: 'reserved'; purchase: KeyPurchaseRow } | { kind: 'nonce_used'; usedBy: string }> {
    return this.transaction(() => {
      const n = { ...p.nonce, asset: p.nonce.asset.toLowerCase(), payer: p.nonce.payer.toLowerCase(), nonce: p.nonce.nonce.toLowerCase() };
      const used = this.sql('SELECT task_id FROM payment_nonces WHERE network = ? AND asset = ? AND payer = ? AND nonce = ?')
        .pluck()
        .get(n.network, n.asset, n.payer, n.nonce) as string | undefined;
      if (used !== undefined) return { kind: 'nonce_used' as const, usedBy: used };
      this.sql('INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(n.network, n.asset, n.payer, n.nonce, p.id, p.now);
      const r = this.sql(
          `INSERT INTO key_purchases (id, kind, key_id, wallet, micros, status, payment, created_at)
           VALUES (?, ?, ?, ?, ?, 'pending', ?, ?) RETURNING *`,
        )
        .get(p.id, p.kind, p.keyId, p.wallet.toLowerCase(), p.micros, JSON.stringify(p.payment), p.now) as PurchaseRecord;
      return { kind: 'reserved' as const, purchase: toPurchase(r) };
    });
  }

  async settleKeyPurchase(
    id: string,
    o: { payment: Record<string, unknown>; newKey?: { id: string; hash: string; prefix: string; label: string | null }; now: number },
  ): Promise<{ purchase: KeyPurchaseRow; key: ApiKeyRow } | null> {
    return this.transaction(() => {
      const pending = this.sql("SELECT * FROM key_purchases WHERE id = ? AND status = 'pending'").get(id) as PurchaseRecord | undefined;
      if (!pending) return null;
      let keyId = pending.key_id;
      if (pending.kind === 'create') {
        if (!o.newKey) throw new Error('settling a key creation needs the new key');
        keyId = o.newKey.id;
        this.sql('INSERT INTO api_keys (id, hash, prefix, label, balance_micros, created_at) VALUES (?, ?, ?, ?, 0, ?)')
          .run(o.newKey.id, o.newKey.hash, o.newKey.prefix, o.newKey.label, o.now);
      }
      this.sql('UPDATE api_keys SET balance_micros = balance_micros + ? WHERE id = ?').run(pending.micros, keyId);
      this.sql("INSERT INTO credit_ledger (key_id, delta_micros, reason, created_at) VALUES (?, ?, 'purchase', ?)").run(keyId, pending.micros, o.now);
      const r = this.sql("UPDATE key_purchases SET status = 'settled', key_id = ?, payment = ?, settled_at = ? WHERE id = ? RETURNING *")
        .get(keyId, JSON.stringify(o.payment), o.now, id) as PurchaseRecord;
      const key = this.sql('SELECT * FROM api_keys WHERE id = ?').get(keyId) as KeyRecord;
      return { purchase: toPurchase(r), key: toKey(key) };
    });
  }

  async markKeyPurchaseUnpaid(id: string, payment: Record<string, unknown>): Promise<void> {
    this.sql("UPDATE key_purchases SET status = 'unpaid', payment = ? WHERE id = ? AND status = 'pending'").run(JSON.stringify(payment), id);
  }

  async listKeyPurchases(wallet: string, limit: number): Promise<KeyPurchaseRow[]> {
    const rows = this.sql('SELECT * FROM key_purchases WHERE wallet = ? ORDER BY created_at DESC, id DESC LIMIT ?').all(wallet.toLowerCase(), limit) as PurchaseRecord[];
    return rows.map(toPurchase);
  }
}

