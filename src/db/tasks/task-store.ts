// The task store over the database kit: one object for both dialects. Plain operations are written once
// (src/db/tasks/<operation>.ts, against Sql); the dialect supplies the few whose concurrency differs
// (creating a task or batch with its charge and reservations, claiming) and, on PostgreSQL, the wake-ups
// sent once a change has committed.
import type { Sql } from '../sql.js';
import type {
  ClaimOptions,
  CreateBatchOutcome,
  CreateTaskOptions,
  CreateTaskOutcome,
  FailOptions,
  NewBatch,
  NewTask,
  TaskRow,
  TaskStore,
} from '../../store/port.js';
import { batchCounts } from './batch-counts.js';
import { cancelPending } from './cancel-pending.js';
import { completeTask, completeTasks, type Completion } from './complete-task.js';
import type { TaskCreation } from './create-tasks.js';
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

/** What a dialect brings to the store. */
export interface DialectOperations {
  createTask(t: NewTask, opts?: CreateTaskOptions): Promise<CreateTaskOutcome>;
  /** Several creations in one transaction (create-tasks.ts), outcomes in the order given. */
  createTasks(items: readonly TaskCreation[]): Promise<CreateTaskOutcome[]>;
  claimTasks(o: ClaimOptions): Promise<TaskRow[]>;
  createBatch(b: NewBatch, chargeKeyId: string | undefined): Promise<CreateBatchOutcome>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** Tells other processes, after the commit, that a task may be claimable or has settled (PostgreSQL). */
export interface Wakeups {
  available(tool: string): void;
  settled(taskId: string): void;
}

const quiet: Wakeups = { available: () => undefined, settled: () => undefined };

export class SqlTaskStore implements TaskStore {
  readonly dialect: 'sqlite' | 'postgres';

  constructor(
    /** The connection, public for plain reads the port does not offer (src/db/sql-runner.ts). */
    readonly db: Sql,
    private readonly ops: DialectOperations,
    private readonly wake: Wakeups = quiet,
  ) {
    this.dialect = db.dialect.name;
  }

  migrate = () => this.ops.migrate();
  close = () => this.ops.close();

  async createTask(t: NewTask, opts?: CreateTaskOptions) {
    const outcome = await this.ops.createTask(t, opts);
    if (outcome.kind === 'created') this.wake.available(t.tool);
    return outcome;
  }

  /** Group commit (src/engine/group-commit.ts): one transaction, then one wake-up per tool created. */
  async createTasks(items: readonly TaskCreation[]) {
    if (items.length === 0) return [];
    const outcomes = await this.ops.createTasks(items);
    const tools = new Set<string>();
    outcomes.forEach((o, i) => {
      if (o.kind === 'created') tools.add(items[i]!.task.tool);
    });
    for (const tool of tools) this.wake.available(tool);
    return outcomes;
  }

  async claimTasks(o: ClaimOptions) {
    if (o.limit <= 0 || o.onlyTools?.length === 0) return [];
    return this.ops.claimTasks(o);
  }

  async createBatch(b: NewBatch, opts: { chargeKeyId?: string } = {}) {
    const outcome = await this.ops.createBatch(b, opts.chargeKeyId);
    if (outcome.kind === 'created') this.wake.available(b.tool);
    return outcome;
  }

  /** A task that reached a terminal state, announced after its commit so a woken waiter reads it settled. */
  private settled(task: TaskRow | null): TaskRow | null {
    if (task) this.wake.settled(task.id);
    return task;
  }

  async completeTask(id: string, owner: string, result: unknown, now: number) {
    return this.settled(await completeTask(this.db, id, owner, result, now));
  }

  /** Several completions by one lease holder in one write (src/engine/complete-batch.ts). */
  async completeTasks(owner: string, items: readonly Completion[]) {
    return (await completeTasks(this.db, owner, items)).map((t) => this.settled(t));
  }

  async failTask(id: string, owner: string, o: FailOptions, now: number) {
    return this.settled(await failTask(this.db, id, owner, o, now));
  }

  async retryTask(id: string, owner: string, error: string, runAfter: number, now: number) {
    const tool = await retryTask(this.db, id, owner, error, runAfter);
    // Due now (a worker shutting down gives its task back): wake the other workers at once.
    if (tool !== null && runAfter <= now) this.wake.available(tool);
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
    for (const id of gaveUp) this.wake.settled(id);
    for (const tool of new Set(requeued)) this.wake.available(tool);
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
