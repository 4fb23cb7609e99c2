// The queue and its leases: creating tasks (charged, idempotent, paid once), claiming them under a lease,
// settling them. Every method that settles a task checks the lease owner, so only the worker holding
// the lease can settle it. Leases (tasks' and sessions') start, end and expire on the store's clock: the
// callers give a length, never an instant, and a `now` a method takes is its caller's clock for the other
// timestamps it writes (started_at, finished_at, run_after) and for what is due, never for a lease.
import type { FailureKind, NewTask, TaskRow } from './task-row.js';

export interface CreateTaskOptions {
  /** Charge this key the task's price in the same transaction. */
  chargeKeyId?: string;
  /** Same scope+key within the window returns the first task; a different hash is a mismatch. */
  idempotency?: { scope: string; key: string; requestHash: string; windowMs: number };
  /** x402: reserve this payment nonce in the same transaction (one signature, one task). */
  nonce?: { network: string; asset: string; payer: string; nonce: string };
}

/** One creation of a group commit: a task and how it is paid, written with others in one transaction. */
export interface TaskCreation {
  task: NewTask;
  opts: CreateTaskOptions;
}

export type CreateTaskOutcome =
  | { kind: 'created'; task: TaskRow }
  | { kind: 'replayed'; task: TaskRow }
  | { kind: 'idempotency_mismatch'; taskId: string }
  | { kind: 'insufficient_credits'; balanceMicros: number }
  | { kind: 'key_invalid' }
  | { kind: 'nonce_used'; taskId: string };

export interface ClaimOptions {
  owner: string;
  limit: number;
  /** The lease's length, from the store's clock. */
  leaseMs: number;
  /** The caller's clock: tasks due by it (run_after) are claimed, and it is their started_at. */
  now: number;
  /** Only these tools (a dedicated worker pool); undefined = all. */
  onlyTools?: readonly string[];
  /** Tools at their concurrency limit in this worker. */
  excludeTools?: readonly string[];
  /** At most this many tasks of each tool listed (its room under its concurrency limit in this worker). */
  toolLimits?: Readonly<Record<string, number>>;
}

export interface FailOptions {
  error: string;
  kind: FailureKind;
  /** A stable code naming the failure (shown as the task's `error_code`), e.g. BLOCKED_BY_SITE. */
  code?: string;
  /** Give the charged credits back (failures that are not the input's fault). */
  refund: boolean;
}

/** One task's completion in a batch: its result and when it finished. */
export interface Completion {
  id: string;
  /** The task's input as claimed (input never changes once a task is created). */
  input: unknown;
  result: unknown;
  /** When the task finished (its finished_at). */
  now: number;
}

export interface QueueStore {
  createTask(task: NewTask, opts?: CreateTaskOptions): Promise<CreateTaskOutcome>;
  /**
   * Several creations in one transaction (group commit). Each keeps its own outcome: one refused leaves no
   * trace and spares the others; a failure of the transaction itself rejects, and then none was written.
   */
  createTasks(items: readonly TaskCreation[]): Promise<CreateTaskOutcome[]>;
  getTask(id: string): Promise<TaskRow | null>;
  /** Moves up to `limit` due pending tasks to running under a lease, oldest first. */
  claimTasks(opts: ClaimOptions): Promise<TaskRow[]>;
  /** Extends the leases this owner still holds to `leaseMs` from the store's now; says which are held and which were asked to cancel. */
  renewLeases(owner: string, ids: readonly string[], leaseMs: number): Promise<{ held: string[]; cancelRequested: string[] }>;
  completeTask(id: string, owner: string, result: unknown, now: number): Promise<TaskRow | null>;
  /** Several completions by one lease holder in one write, each settled as completeTask would; answers in the order given. */
  completeTasks(owner: string, items: readonly Completion[]): Promise<(TaskRow | null)[]>;
  failTask(id: string, owner: string, opts: FailOptions, now: number): Promise<TaskRow | null>;
  /** Back to pending to run again at `runAfter` (transient failure); the lease is released. */
  retryTask(id: string, owner: string, error: string, runAfter: number, now: number): Promise<boolean>;
  /** Pending → cancelled (refunded) at once; running → flagged for its worker; terminal → unchanged. */
  requestCancel(id: string, now: number): Promise<TaskRow | null>;
  /**
   * Running tasks whose lease expired on the store's clock (their process died) go back to pending (due at
   * `now`), or fail (finished at `now`) once out of attempts.
   */
  recoverExpiredLeases(now: number): Promise<{ requeued: number; failed: number }>;
  deleteFinishedBefore(cutoff: number): Promise<number>;
  /**
   * A session's lease (NewTask.session): while it is unexpired, the session's tasks are claimed only by the
   * worker pool whose owner is `id`. Renewed by that pool's heartbeat to `leaseMs` from the store's now;
   * clears leases that have ended.
   */
  renewSession(id: string, leaseMs: number): Promise<void>;
  /** Ends a session's lease (a clean stop): its tasks still pending are claimable by any worker at once. */
  endSession(id: string): Promise<void>;

  // Optional wake-ups across processes (PostgreSQL LISTEN/NOTIFY). They only make things faster: workers
  // and waiters keep polling, so a missed notification costs latency, never a task. Each returns an
  // unsubscribe function. Adapters without cross-process signalling (SQLite) leave them out.
  /** `listener(tool)` runs when a task of `tool` may have become claimable (created, requeued). */
  onTaskAvailable?(listener: (tool: string) => void): () => void;
  /** `listener(taskId)` runs when a task reached a terminal state, in whichever process settled it. */
  onTaskSettled?(listener: (taskId: string) => void): () => void;
}
