// The task store over the database kit: one object for both dialects. Plain operations are written once
// (src/db/tasks/<operation>.ts, against Sql); the dialect supplies the few parts whose concurrency differs
// (a task's charge-and-insert, a batch's task writes, claiming) and, on PostgreSQL, the wake-ups sent once
// a change has committed.
import type { ClaimOptions, TaskCreation, TaskRow, TaskStore } from '../../store/port.js';
import { migrate } from '../migrate.js';
import type { PlanDb } from '../plan.js';
import { batchCounts } from './batch-counts.js';
import { cancelPending } from './cancel-pending.js';
import { completeTask, completeTasks } from './complete-task.js';
import { createBatch, type InsertBatchTasks } from './create-batch.js';
import { createTask, type CreateTaskParts } from './create-task.js';
import { createTasks, type InsertManyCharged } from './create-tasks.js';
import { createKey } from './create-key.js';
import { creditKey } from './credit-key.js';
import { deleteFinishedBefore } from './delete-finished-before.js';
import { failTask } from './fail-task.js';
import { findKey } from './find-key.js';
import { findKeyByHash } from './find-key-by-hash.js';
import { getBatch } from './get-batch.js';
import { getTask } from './get-task.js';
import { listBatchItems } from './list-batch-items.js';
import { listKeyPurchases } from './list-key-purchases.js';
import { listKeys } from './list-keys.js';
import { listTasks } from './list-tasks.js';
import { listTasksByPayer } from './list-tasks-by-payer.js';
import { listUnsettledPayments } from './list-unsettled-payments.js';
import { markKeyPurchaseUnpaid } from './mark-key-purchase-unpaid.js';
import { taskMigrations } from './migrations.js';
import { toTask } from './records.js';
import { recoverExpiredLeases } from './recover-expired-leases.js';
import { renewLeases } from './renew-leases.js';
import { reserveKeyPurchase } from './reserve-key-purchase.js';
import { retryTask } from './retry-task.js';
import { revokeKey } from './revoke-key.js';
import { setPayment } from './set-payment.js';
import { settleKeyPurchase } from './settle-key-purchase.js';
import { stats } from './stats.js';
import { usage } from './usage.js';
import { useSignInNonce } from './use-sign-in-nonce.js';

/** What a dialect brings: charge-and-insert (create-task.ts), a batch's task writes (create-batch.ts) and claiming. */
export interface DialectOperations extends CreateTaskParts {
  /** Group commit's plain creations on one key in one statement, where the dialect gains from it. */
  insertMany?: InsertManyCharged;
  insertBatchTasks: InsertBatchTasks;
  claimTasks(o: ClaimOptions): Promise<TaskRow[]>;
}

/** Tells other processes, after the commit, that a task of a tool may be claimable or a task settled (PostgreSQL). */
export type Wake = (event: 'task_available' | 'task_settled', item: string) => void;

export class SqlTaskStore<D extends PlanDb = PlanDb> implements TaskStore {
  readonly dialect: 'sqlite' | 'postgres';

  constructor(
    /** The connection, public for plain reads the port does not offer (src/db/sql-runner.ts). */
    readonly db: D,
    private readonly ops: DialectOperations,
    private readonly wake: Wake = () => undefined,
  ) {
    this.dialect = db.dialect.name;
  }

  migrate = () => migrate(this.db, taskMigrations(this.dialect));

  async close() {
    await this.db.close();
  }

  createTask: TaskStore['createTask'] = async (t, opts) => {
    const outcome = await createTask(this.db, this.ops, t, opts);
    if (outcome.kind === 'created') this.wake('task_available', t.tool);
    return outcome;
  };

  /** Group commit (src/engine/group-commit.ts): one transaction, then one wake-up per tool created. */
  createTasks = async (items: readonly TaskCreation[]) => {
    if (items.length === 0) return [];
    const outcomes = await createTasks(this.db, this.ops.insert, items, this.ops.insertMany);
    const created = items.filter((_, i) => outcomes[i]!.kind === 'created');
    for (const tool of new Set(created.map((c) => c.task.tool))) this.wake('task_available', tool);
    return outcomes;
  };

  async claimTasks(o: ClaimOptions) {
    if (o.limit <= 0 || o.onlyTools?.length === 0) return [];
    return this.ops.claimTasks(o);
  }

  createBatch: TaskStore['createBatch'] = async (b, opts = {}) => {
    const outcome = await createBatch(this.db, this.ops.insertBatchTasks, b, opts.chargeKeyId);
    if (outcome.kind === 'created') this.wake('task_available', b.tool);
    return outcome;
  };

  /** A task that reached a terminal state, announced after its commit so a woken waiter reads it settled. */
  private settled(task: TaskRow | null): TaskRow | null {
    if (task) this.wake('task_settled', task.id);
    return task;
  }

  completeTask: TaskStore['completeTask'] = async (...a) => this.settled(await completeTask(this.db, ...a));

  /** Several completions by one lease holder in one write (src/engine/complete-batch.ts). */
  completeTasks: TaskStore['completeTasks'] = async (owner, items) => (await completeTasks(this.db, owner, items)).map((t) => this.settled(t));

  failTask: TaskStore['failTask'] = async (...a) => this.settled(await failTask(this.db, ...a));

  async retryTask(id: string, owner: string, error: string, runAfter: number, now: number) {
    const tool = await retryTask(this.db, id, owner, error, runAfter);
    // Due now (a worker shutting down gives its task back): wake the other workers at once.
    if (tool !== null && runAfter <= now) this.wake('task_available', tool);
    return tool !== null;
  }

  async requestCancel(id: string, now: number) {
    const [cancelled] = await cancelPending(this.db, 'id', id, now);
    return cancelled ? this.settled(toTask(this.db.dialect, cancelled)) : getTask(this.db, id);
  }

  async cancelBatch(id: string, now: number) {
    const cancelled = await cancelPending(this.db, 'batch_id', id, now);
    return cancelled.map((r) => this.settled(toTask(this.db.dialect, r))!);
  }

  async recoverExpiredLeases(now: number) {
    const { gaveUp, requeued } = await recoverExpiredLeases(this.db, now);
    for (const id of gaveUp) this.wake('task_settled', id);
    for (const tool of new Set(requeued)) this.wake('task_available', tool);
    return { requeued: requeued.length, failed: gaveUp.length };
  }

  getTask = (id: string) => getTask(this.db, id);
  renewLeases = (owner: string, ids: readonly string[], leaseMs: number, now: number) => renewLeases(this.db, owner, ids, leaseMs, now);
  deleteFinishedBefore = (cutoff: number) => deleteFinishedBefore(this.db, cutoff);
  listTasksByPayer: TaskStore['listTasksByPayer'] = (...a) => listTasksByPayer(this.db, ...a);
  listTasks: TaskStore['listTasks'] = (q) => listTasks(this.db, q);
  usage: TaskStore['usage'] = (q) => usage(this.db, q);
  stats: TaskStore['stats'] = () => stats(this.db);

  getBatch: TaskStore['getBatch'] = (id) => getBatch(this.db, id);
  batchCounts: TaskStore['batchCounts'] = (id) => batchCounts(this.db, id);
  listBatchItems: TaskStore['listBatchItems'] = (...a) => listBatchItems(this.db, ...a);

  createKey: TaskStore['createKey'] = (k) => createKey(this.db, k);
  findKeyByHash: TaskStore['findKeyByHash'] = (hash) => findKeyByHash(this.db, hash);
  findKey: TaskStore['findKey'] = (idOrPrefix) => findKey(this.db, idOrPrefix);
  listKeys: TaskStore['listKeys'] = () => listKeys(this.db);
  creditKey: TaskStore['creditKey'] = (...a) => creditKey(this.db, ...a);
  revokeKey: TaskStore['revokeKey'] = (...a) => revokeKey(this.db, ...a);

  setPayment: TaskStore['setPayment'] = (...a) => setPayment(this.db, ...a);
  listUnsettledPayments: TaskStore['listUnsettledPayments'] = (...a) => listUnsettledPayments(this.db, ...a);
  useSignInNonce: TaskStore['useSignInNonce'] = (...a) => useSignInNonce(this.db, ...a);
  reserveKeyPurchase: TaskStore['reserveKeyPurchase'] = (p) => reserveKeyPurchase(this.db, p);
  settleKeyPurchase: TaskStore['settleKeyPurchase'] = (...a) => settleKeyPurchase(this.db, ...a);
  markKeyPurchaseUnpaid: TaskStore['markKeyPurchaseUnpaid'] = (...a) => markKeyPurchaseUnpaid(this.db, ...a);
  listKeyPurchases: TaskStore['listKeyPurchases'] = (...a) => listKeyPurchases(this.db, ...a);
}
