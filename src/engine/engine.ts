// The task engine: the one backend every front door (REST, MCP, A2A, CLI) calls. It validates input,
// charges in the same transaction that creates the task, runs workers (optionally), and answers
// "what is this task now" and "wait until it settles". It knows nothing about HTTP or MCP.
import { requestHash } from '../idempotency.js';
import { EventEmitter } from 'node:events';
import type { Config } from '../config.js';
import { PaymentRequired, Unauthorized, Unprocessable } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { ServiceScope } from '../registry/services.js';
import type { ListedTask, Payer, TaskRow, TaskStore, TaskWebhook } from '../store/port.js';
import { EngineEvents } from './events.js';
import { GroupCommit } from './group-commit.js';
import { assertInputDepth } from './input-depth.js';
import { Maintenance } from './maintenance.js';
import { SessionLease } from './session-lease.js';
import { isTerminal } from './task-view.js';
import { WorkerPool } from './worker-pool.js';
import { microsToUsd } from '../registry/registry.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface SubmitOptions {
  payer: Payer;
  /** Charge the tool's price to this API key (in the creating transaction). */
  chargeKeyId?: string;
  /** Idempotency-Key header value; scoped to the payer. */
  idempotencyKey?: string;
  /** x402: nonce to reserve atomically, and the payment record to keep on the task. */
  nonce?: { network: string; asset: string; payer: string; nonce: string };
  payment?: Record<string, unknown>;
  /** Skip the price (local stdio use). */
  free?: boolean;
  /** POST the task's terminal event here (checked by the front door; see src/webhooks/options.ts). */
  webhook?: TaskWebhook | null;
}

export interface SubmitResult {
  task: TaskRow;
  /** True when an Idempotency-Key matched an earlier identical request. */
  replayed: boolean;
}

export interface EngineOptions {
  store: TaskStore;
  registry: ToolRegistry;
  scope: ServiceScope;
  config: Config;
  log: Logger;
  /** Run workers in this process (default: config.engine.workers). */
  workers?: boolean;
  /** Dedicated worker pool for these tools. */
  workerTools?: readonly string[];
  /**
   * A session (stdio MCP, an embedded command): the tasks it creates run in its own workers while it lives
   * (session-lease.ts). Needs workers; without this any worker runs any task (serve, worker).
   */
  ownTasks?: boolean;
}

export class Engine {
  readonly events = new EngineEvents();
  readonly store: TaskStore;
  readonly registry: ToolRegistry;
  readonly scope: ServiceScope;
  readonly config: Config;
  private readonly log: Logger;
  private readonly pool: WorkerPool | undefined;
  private readonly maintenance: Maintenance;
  private readonly sessionLease: SessionLease | undefined;
  /** Task ids settled in any process (store.onTaskSettled), as events named by id for waitFor. */
  private readonly settledAnywhere = new EventEmitter().setMaxListeners(0);
  private unsubscribeSettled: (() => void) | undefined;
  /** Creations of the same event-loop turn in one transaction (group-commit.ts). */
  private readonly creations: GroupCommit;

  constructor(o: EngineOptions) {
    this.store = o.store;
    this.creations = new GroupCommit(o.store);
    this.registry = o.registry;
    this.scope = o.scope;
    this.config = o.config;
    this.log = o.log.child({ component: 'engine' });
    if (o.workers ?? o.config.engine.workers) {
      this.pool = new WorkerPool({
        store: o.store,
        registry: o.registry,
        scope: o.scope,
        config: o.config,
        log: this.log,
        events: this.events,
        ...(o.workerTools ? { onlyTools: o.workerTools } : {}),
      });
    }
    this.maintenance = new Maintenance(o.store, o.config, this.log, () => this.pool?.wake());
    if (o.ownTasks && this.pool) this.sessionLease = new SessionLease(this.pool.owner, o.store, o.config.engine.leaseMs, this.log);
  }

  /** The session whose workers alone run the tasks this engine creates, while it lives (EngineOptions.ownTasks). */
  get session(): string | undefined {
    return this.sessionLease?.id;
  }

  /** Settles once the session's lease is open (right away without one); createRuntime waits for it. */
  async sessionReady(): Promise<void> {
    await this.sessionLease?.ready();
  }

  get hasWorkers(): boolean {
    return this.pool !== undefined;
  }

  get workerOwner(): string | undefined {
    return this.pool?.owner;
  }

  start(): void {
    this.sessionLease?.start();
    this.maintenance.start();
    this.pool?.start();
  }

  async stop(graceMs?: number): Promise<void> {
    this.maintenance.stop();
    this.unsubscribeSettled?.();
    this.unsubscribeSettled = undefined;
    await this.pool?.stop(graceMs);
    // After the pool gave its running tasks back: those and the pending ones go to other workers now.
    await this.sessionLease?.stop();
  }

  /**
   * Validates input (400), then runs the tool's precheck (e.g. 403 blocked target). A precheck answers
   * something about the world (whether a name resolves to a private address), so it runs only for a caller
   * who could pay: with `chargeKeyId`, a revoked key (401) or one without the price in credit (402) is
   * refused first; `precheck: false` leaves it to the caller (REST runs it once an x402 payment is verified).
   */
  async validate(toolName: string, rawInput: unknown, o: { chargeKeyId?: string | undefined; precheck?: boolean } = {}): Promise<unknown> {
    this.registry.get(toolName);
    // Before the schema (or anything else) walks it recursively.
    assertInputDepth(rawInput);
    const input = this.registry.parseInput(toolName, rawInput);
    if (o.precheck === false) return input;
    if (o.chargeKeyId !== undefined) await this.assertKeyCanPay(o.chargeKeyId, toolName, input);
    await this.precheck(toolName, input);
    return input;
  }

  /** The tool's precheck on validated input (see validate). */
  async precheck(toolName: string, input: unknown): Promise<void> {
    const tool = this.registry.get(toolName);
    if (tool.precheck) await tool.precheck({ config: this.config, use: (d) => this.scope.use(d) }, input as never);
  }

  /** 401 for a revoked key, 402 for one whose credit is below the tool's price (what creation would answer). */
  async assertKeyCanPay(keyId: string, toolName: string, input?: unknown): Promise<void> {
    if (!this.registry.get(toolName).precheck) return;
    const key = await this.store.findKey(keyId);
    if (!key || key.revokedAt !== null) throw new Unauthorized('This API key was revoked.', 'API_KEY_REVOKED');
    const price = this.registry.priceMicros(toolName, input);
    if (key.balanceMicros < price) {
      throw new PaymentRequired(
        `Not enough credits: ${toolName} costs ${microsToUsd(price)} USD and the key has ${microsToUsd(key.balanceMicros)} USD left. Add credits or pay with x402.`,
        'INSUFFICIENT_CREDITS',
        { price_usd: microsToUsd(price), balance_usd: microsToUsd(key.balanceMicros) },
      );
    }
  }

  async submit(toolName: string, rawInput: unknown, opts: SubmitOptions): Promise<SubmitResult> {
    return this.submitValidated(toolName, await this.validate(toolName, rawInput, opts.free ? {} : { chargeKeyId: opts.chargeKeyId }), opts);
  }

  /**
   * Creates a task from input already checked by validate() (front doors validate before asking to pay).
   * Idempotency hashes this validated input, never the raw body: its depth is bounded, and fields the
   * tool ignores (or defaults it fills in) do not make a retry a different request.
   */
  async submitValidated(toolName: string, input: unknown, opts: SubmitOptions): Promise<SubmitResult> {
    const tool = this.registry.get(toolName);
    if (tool.admit) await tool.admit({ config: this.config, use: (d) => this.scope.use(d) }, input as never);
    const now = Date.now();
    // Paid once (x402): the price includes what the task's children may cost, since the payment cannot grow.
    const price = opts.free ? 0 : opts.payment ? this.registry.upfrontPriceMicros(toolName, input) : this.registry.priceMicros(toolName, input);
    const outcome = await this.creations.create(
      {
        id: newId('task'),
        tool: toolName,
        input,
        payer: opts.payer,
        priceMicros: price,
        // A tool with side effects runs at most once: after a crash its task fails (refunded) instead of rerunning.
        maxAttempts: tool.sideEffects ? 1 : this.config.engine.maxAttempts,
        now,
        payment: opts.payment ?? null,
        webhook: opts.webhook ?? null,
        session: this.session ?? null,
      },
      {
        ...(opts.chargeKeyId ? { chargeKeyId: opts.chargeKeyId } : {}),
        ...(opts.idempotencyKey
          ? {
              idempotency: {
                scope: `${opts.payer.kind}:${opts.payer.id ?? ''}`,
                key: opts.idempotencyKey,
                requestHash: requestHash(toolName, input),
                windowMs: IDEMPOTENCY_WINDOW_MS,
              },
            }
          : {}),
        ...(opts.nonce ? { nonce: opts.nonce } : {}),
      },
    );
    switch (outcome.kind) {
      case 'created':
        this.events.emit('submitted', outcome.task);
        return { task: outcome.task, replayed: false };
      case 'replayed':
        return { task: outcome.task, replayed: true };
      case 'idempotency_mismatch':
        throw new Unprocessable(
          `Idempotency-Key was already used within 24 hours for a different request (task ${outcome.taskId}); use a new key.`,
          'IDEMPOTENCY_KEY_REUSED',
        );
      case 'insufficient_credits':
        throw new PaymentRequired(
          `Not enough credits: ${toolName} costs ${microsToUsd(price)} USD and the key has ${microsToUsd(outcome.balanceMicros)} USD left. Add credits or pay with x402.`,
          'INSUFFICIENT_CREDITS',
          { price_usd: microsToUsd(price), balance_usd: microsToUsd(outcome.balanceMicros) },
        );
      case 'key_invalid':
        // Keys are never deleted: the row was found when the request came in, so it was revoked since.
        throw new Unauthorized('This API key was revoked.', 'API_KEY_REVOKED');
      case 'nonce_used':
        throw new PaymentRequired('This payment authorization was already used for another task; sign a new one.', 'PAYMENT_REPLAYED', {
          task_id: outcome.taskId,
        });
    }
  }

  async get(taskId: string): Promise<TaskRow | null> {
    return this.store.getTask(taskId);
  }

  /** Cancels a pending task at once (refunded) or asks its worker to stop a running one. */
  async cancel(taskId: string): Promise<TaskRow | null> {
    const task = await this.store.requestCancel(taskId, Date.now());
    if (!task) return null;
    if (task.status === 'cancelled') this.events.emit('settled', task, null);
    if (task.status === 'running') this.events.emit('cancel-requested', taskId);
    return task;
  }

  /**
   * Resolves with the task as soon as it is terminal, or as it is when `timeoutMs` passes. Events make it
   * fast in-process; polling the store keeps it correct when another process runs the task.
   */
  async waitFor(taskId: string, timeoutMs: number, signal?: AbortSignal): Promise<TaskRow | null> {
    const first = await this.store.getTask(taskId);
    if (!first || isTerminal(first.status) || timeoutMs <= 0) return first;
    return new Promise<TaskRow | null>((resolve) => {
      let finished = false;
      const finish = (t: TaskRow | null) => {
        if (finished) return;
        finished = true;
        clearTimeout(deadline);
        clearInterval(poller);
        this.events.off('settled', onSettled);
        this.settledAnywhere.off(taskId, onSettledAnywhere);
        signal?.removeEventListener('abort', onAbort);
        resolve(t);
      };
      const onSettled = (t: TaskRow) => {
        if (t.id === taskId) finish(t);
      };
      // Settled by a worker in another process: re-read it now instead of at the next poll.
      const onSettledAnywhere = () => void check();
      const check = async () => {
        const t = await this.store.getTask(taskId).catch(() => null);
        if (t && isTerminal(t.status)) finish(t);
      };
      const onAbort = () => void this.store.getTask(taskId).then(finish, () => finish(first));
      this.events.on('settled', onSettled);
      this.listenForSettlements();
      this.settledAnywhere.on(taskId, onSettledAnywhere);
      signal?.addEventListener('abort', onAbort, { once: true });
      const deadline = setTimeout(() => void this.store.getTask(taskId).then(finish, () => finish(first)), timeoutMs);
      const poller = setInterval(() => void check(), this.config.engine.pollIntervalMs);
      // The task may have settled between the first read and subscribing.
      void check();
    });
  }

  /** One store subscription per engine, opened by the first waiter, fanned out by task id. */
  private listenForSettlements(): void {
    if (this.unsubscribeSettled || !this.store.onTaskSettled) return;
    this.unsubscribeSettled = this.store.onTaskSettled((id) => this.settledAnywhere.emit(id));
  }

  /** A payer's tasks, newest first; results only within `resultBudgetBytes` (see TaskListQuery). */
  async listByPayer(payer: Payer, limit: number, beforeCreatedAt?: number, resultBudgetBytes?: number): Promise<ListedTask[]> {
    return this.store.listTasks({ payer, limit, before: beforeCreatedAt, ...(resultBudgetBytes !== undefined ? { resultBudgetBytes } : {}) });
  }
}
