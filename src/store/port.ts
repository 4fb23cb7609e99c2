// The narrow store port. Every adapter (SQLite, PostgreSQL) implements it and passes the same contract
// suite (test/integration/store-contract.test.ts). Times are epoch milliseconds. Every method that
// settles a task checks the lease owner, so only the worker holding the lease can settle it.

export type TaskStatus = 'pending' | 'running' | 'complete' | 'failed' | 'cancelled';
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['complete', 'failed', 'cancelled'];
export type FailureKind = 'transient' | 'permanent' | 'input' | 'timeout' | 'internal' | 'cancelled' | 'crashed';

export interface Payer {
  /** 'key' (prepaid API key), 'x402' (wallet payment), 'local' (stdio MCP, not charged). */
  kind: 'key' | 'x402' | 'local';
  /** Key id, wallet address, or a local principal name. */
  id: string | null;
}

export interface TaskRow {
  id: string;
  tool: string;
  input: unknown;
  status: TaskStatus;
  result: unknown;
  error: string | null;
  errorKind: FailureKind | null;
  payer: Payer;
  priceMicros: number;
  chargedMicros: number;
  payment: Record<string, unknown> | null;
  attempts: number;
  maxAttempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  runAfter: number;
  cancelRequested: boolean;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface NewTask {
  id: string;
  tool: string;
  input: unknown;
  payer: Payer;
  priceMicros: number;
  maxAttempts: number;
  now: number;
  payment?: Record<string, unknown> | null;
}

export interface CreateTaskOptions {
  /** Charge this key the task's price in the same transaction. */
  chargeKeyId?: string;
  /** Same scope+key within the window returns the first task; a different hash is a mismatch. */
  idempotency?: { scope: string; key: string; requestHash: string; windowMs: number };
  /** x402: reserve this payment nonce in the same transaction (one signature, one task). */
  nonce?: { network: string; asset: string; payer: string; nonce: string };
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
  leaseMs: number;
  now: number;
  /** Only these tools (a dedicated worker pool); undefined = all. */
  onlyTools?: readonly string[];
  /** Tools at their concurrency limit in this worker. */
  excludeTools?: readonly string[];
}

export interface FailOptions {
  error: string;
  kind: FailureKind;
  /** Give the charged credits back (failures that are not the input's fault). */
  refund: boolean;
}

export interface BatchRow {
  id: string;
  tool: string;
  payer: Payer;
  /** Inputs in the call. */
  total: number;
  /** Distinct inputs, one task each. */
  unique: number;
  /** Price of the whole batch (unique × tool price), charged at creation when paid with a key. */
  priceMicros: number;
  createdAt: number;
}

export interface NewBatch {
  id: string;
  tool: string;
  payer: Payer;
  now: number;
  /** One task per distinct input; each is charged its own price so failures refund it alone. */
  tasks: NewTask[];
  /** For every input position, the index into `tasks` of the task that answers it. */
  itemTasks: number[];
}

export type CreateBatchOutcome =
  | { kind: 'created'; batch: BatchRow }
  | { kind: 'insufficient_credits'; balanceMicros: number }
  | { kind: 'key_invalid' };

export type BatchCounts = Record<TaskStatus, number>;

export interface BatchItem {
  index: number;
  /** Null once retention deleted the task. */
  task: TaskRow | null;
}

export interface ApiKeyRow {
  id: string;
  prefix: string;
  label: string | null;
  balanceMicros: number;
  createdAt: number;
  revokedAt: number | null;
}

/** A caller's tasks, newest first; `before`/`beforeId` continue after the last row of the previous page. */
export interface TaskListQuery {
  payer: Payer;
  limit: number;
  status?: TaskStatus;
  tool?: string;
  /** Only tasks created at or after this time. */
  since?: number;
  before?: number;
  /** Breaks ties among tasks created in the same millisecond as `before`. */
  beforeId?: string;
}

/** A caller's tasks created in [from, to), grouped by tool or by UTC day. */
export interface UsageQuery {
  payer: Payer;
  from: number;
  to: number;
  group: 'tool' | 'day';
}

export interface UsageRow {
  /** The tool name, or the UTC day as YYYY-MM-DD. */
  bucket: string;
  tasks: number;
  failed: number;
  cancelled: number;
  chargedMicros: number;
  refundedMicros: number;
}

/** A self-serve key purchase or top-up paid with x402 (see docs/payments.md, "Buying an API key"). */
export interface KeyPurchaseRow {
  id: string;
  kind: 'create' | 'topup';
  /** Null until a 'create' purchase settles and its key exists. */
  keyId: string | null;
  /** Lower-case wallet address that paid. */
  wallet: string;
  micros: number;
  status: 'pending' | 'settled' | 'unpaid';
  payment: Record<string, unknown>;
  createdAt: number;
  settledAt: number | null;
}

export interface NewKeyPurchase {
  id: string;
  kind: 'create' | 'topup';
  /** The key to top up ('topup' only). */
  keyId: string | null;
  wallet: string;
  micros: number;
  payment: Record<string, unknown>;
  nonce: { network: string; asset: string; payer: string; nonce: string };
  now: number;
}

export interface StoreStats {
  byToolStatus: { tool: string; status: TaskStatus; count: number }[];
  queueDepth: number;
  running: number;
}

export interface TaskStore {
  readonly dialect: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;

  createTask(task: NewTask, opts?: CreateTaskOptions): Promise<CreateTaskOutcome>;
  getTask(id: string): Promise<TaskRow | null>;
  /** Moves up to `limit` due pending tasks to running under a lease, oldest first. */
  claimTasks(opts: ClaimOptions): Promise<TaskRow[]>;
  /** Extends the leases this owner still holds; says which are held and which were asked to cancel. */
  renewLeases(owner: string, ids: readonly string[], leaseMs: number, now: number): Promise<{ held: string[]; cancelRequested: string[] }>;
  completeTask(id: string, owner: string, result: unknown, now: number): Promise<TaskRow | null>;
  failTask(id: string, owner: string, opts: FailOptions, now: number): Promise<TaskRow | null>;
  /** Back to pending to run again at `runAfter` (transient failure); the lease is released. */
  retryTask(id: string, owner: string, error: string, runAfter: number, now: number): Promise<boolean>;
  /** Pending → cancelled (refunded) at once; running → flagged for its worker; terminal → unchanged. */
  requestCancel(id: string, now: number): Promise<TaskRow | null>;
  /** Running tasks whose lease expired (their process died) go back to pending, or fail once out of attempts. */
  recoverExpiredLeases(now: number): Promise<{ requeued: number; failed: number }>;
  deleteFinishedBefore(cutoff: number): Promise<number>;
  setPayment(id: string, payment: Record<string, unknown>): Promise<void>;
  listTasksByPayer(payer: Payer, limit: number, beforeCreatedAt?: number): Promise<TaskRow[]>;
  /** The filtered, paged list behind GET /v1/tasks. */
  listTasks(q: TaskListQuery): Promise<TaskRow[]>;
  /** Counts and money per tool or per day; only tasks still kept (see RETENTION) are counted. */
  usage(q: UsageQuery): Promise<UsageRow[]>;
  /** x402: tasks that finished before `finishedBefore` with their payment still `pending` (to settle or void). */
  listUnsettledPayments(finishedBefore: number, limit: number): Promise<TaskRow[]>;
  /**
   * SIWX: records a sign-in nonce as used; false when it was used before (a replay). Kept in payment_nonces
   * under network 'siwx' (the single-use table x402 nonces live in); entries created before `forgetBefore`
   * are deleted on the way, since their messages have expired.
   */
  useSignInNonce(nonce: string, now: number, forgetBefore: number): Promise<boolean>;
  stats(): Promise<StoreStats>;

  /** Creates the batch, its tasks and its item map in one transaction, charging `chargeKeyId` the total. */
  createBatch(batch: NewBatch, opts?: { chargeKeyId?: string }): Promise<CreateBatchOutcome>;
  getBatch(id: string): Promise<BatchRow | null>;
  /** Items (not tasks) by their task's status: duplicates count once per input position. */
  batchCounts(id: string): Promise<BatchCounts>;
  /** Items from position `from` on, in input order. */
  listBatchItems(id: string, from: number, limit: number): Promise<BatchItem[]>;
  /** Pending tasks of the batch → cancelled and refunded; running ones flagged. Returns those cancelled now. */
  cancelBatch(id: string, now: number): Promise<TaskRow[]>;

  createKey(key: { id: string; hash: string; prefix: string; label: string | null; balanceMicros: number; now: number }): Promise<ApiKeyRow>;
  findKeyByHash(hash: string): Promise<ApiKeyRow | null>;
  /** By id or by displayed prefix. */
  findKey(idOrPrefix: string): Promise<ApiKeyRow | null>;
  listKeys(): Promise<ApiKeyRow[]>;
  creditKey(id: string, micros: number, reason: string, now: number): Promise<ApiKeyRow | null>;
  revokeKey(id: string, now: number): Promise<ApiKeyRow | null>;

  /** Records a pending purchase and reserves its payment nonce in one transaction (one signature, one purchase). */
  reserveKeyPurchase(p: NewKeyPurchase): Promise<{ kind: 'reserved'; purchase: KeyPurchaseRow } | { kind: 'nonce_used'; usedBy: string }>;
  /**
   * Pending → settled, granting the credit once: a 'create' purchase inserts `newKey` with the amount as its
   * balance, a 'topup' credits its key. Null when the purchase is not pending (already settled or unpaid).
   */
  settleKeyPurchase(
    id: string,
    o: { payment: Record<string, unknown>; newKey?: { id: string; hash: string; prefix: string; label: string | null }; now: number },
  ): Promise<{ purchase: KeyPurchaseRow; key: ApiKeyRow } | null>;
  /** Pending → unpaid (the payment could not be settled); no credit is granted. */
  markKeyPurchaseUnpaid(id: string, payment: Record<string, unknown>): Promise<void>;
  /** A wallet's purchases, newest first. */
  listKeyPurchases(wallet: string, limit: number): Promise<KeyPurchaseRow[]>;

  // Optional wake-ups across processes (PostgreSQL LISTEN/NOTIFY). They only make things faster: workers
  // and waiters keep polling, so a missed notification costs latency, never a task. Each returns an
  // unsubscribe function. Adapters without cross-process signalling (SQLite) leave them out.
  /** `listener(tool)` runs when a task of `tool` may have become claimable (created, requeued). */
  onTaskAvailable?(listener: (tool: string) => void): () => void;
  /** `listener(taskId)` runs when a task reached a terminal state, in whichever process settled it. */
  onTaskSettled?(listener: (taskId: string) => void): () => void;
}
