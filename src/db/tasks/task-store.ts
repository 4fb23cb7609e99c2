// The task store over the database kit: one object for both dialects. Plain operations are written once
// (src/db/tasks/<operation>.ts, against Sql), and those that need nothing else are the store's methods as
// they are (plain-operations.ts, bound to the connection); the dialect supplies the few parts whose
// concurrency differs (a task's charge-and-insert, a batch's task writes, claiming) and, on PostgreSQL, the
// wake-ups sent once a change has committed.
import type { ClaimOptions, TaskCreation, TaskRow, TaskStore } from '../../store/port.js';
import { migrate } from '../migrate.js';
import { withOperations } from '../operations.js';
import type { PlanDb } from '../plan.js';
import { appendBatch } from './append-batch.js';
import { cancelPending } from './cancel-pending.js';
import { completeTask, completeTasks } from './complete-task.js';
import { createBatch, type InsertBatchTasks } from './create-batch.js';
import { createTask, type CreateTaskParts } from './create-task.js';
import { createTasks, type InsertManyCharged } from './create-tasks.js';
import { failTask } from './fail-task.js';
import { getTask } from './get-task.js';
import { taskMigrations } from './migrations.js';
import * as plain from './plain-operations.js';
import { toTask } from './records.js';
import { recoverExpiredLeases } from './recover-expired-leases.js';
import { retryTask } from './retry-task.js';
import { endSession, renewSession } from './task-sessions.js';

/** What a dialect brings: charge-and-insert (create-task.ts), a batch's task writes (create-batch.ts) and claiming. */
export interface DialectOperations extends CreateTaskParts {
  /** Group commit's plain creations on one key in one statement, where the dialect gains from it. */
  insertMany?: InsertManyCharged;
  insertBatchTasks: InsertBatchTasks;
  claimTasks(o: ClaimOptions): Promise<TaskRow[]>;
}

/** Tells other processes, after the commit, that a task of a tool may be claimable or a task settled (PostgreSQL). */
export type Wake = (event: 'task_available' | 'task_settled', item: string) => void;

export class SqlTaskStore<D extends PlanDb = PlanDb> extends withOperations<PlanDb, typeof plain>(plain) implements TaskStore {
  readonly dialect: 'sqlite' | 'postgres';

  constructor(
    /** The connection, public for plain reads the port does not offer (src/db/sql-runner.ts). */
    readonly db: D,
    private readonly ops: DialectOperations,
    private readonly wake: Wake = () => undefined,
  ) {
    super(db);
    this.dialect = db.dialect.name;
  }

  migrate = () => migrate(this.db, taskMigrations(this.dialect));

  /** Outages of the database under this store: logged once each (open-store.ts), shown by /healthz and /metrics. */
  get faults() {
    return this.db.faults;
  }

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

  appendBatch: TaskStore['appendBatch'] = async (b, opts = {}) => {
    const outcome = await appendBatch(this.db, this.ops.insertBatchTasks, b, opts.chargeKeyId);
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

  renewSession = (id: string, leaseMs: number) => renewSession(this.db, id, leaseMs);

  async endSession(id: string) {
    await endSession(this.db, id);
    // Its pending tasks, of any tool, are everyone's now.
    this.wake('task_available', '');
  }

  async recoverExpiredLeases(now: number) {
    const { gaveUp, requeued } = await recoverExpiredLeases(this.db, now);
    for (const id of gaveUp) this.wake('task_settled', id);
    for (const tool of new Set(requeued)) this.wake('task_available', tool);
    return { requeued: requeued.length, failed: gaveUp.length };
  }
}
