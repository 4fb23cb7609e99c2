// Claims due tasks under a lease, runs them with per-tool concurrency limits, heartbeats the leases and
// settles each task only while holding its lease. A process that dies simply stops heartbeating; the
// sweeper (maintenance.ts) hands its tasks to someone else.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { StoreUnavailable } from '../errors.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { ServiceScope } from '../registry/services.js';
import type { TaskRow, TaskStore } from '../store/port.js';
import { CompleteBatch } from './complete-batch.js';
import type { EngineEvents } from './events.js';
import { AbortReason, runAttempt } from './run-attempt.js';
import { WakeLoop } from './wake-loop.js';

interface RunningTask {
  task: TaskRow;
  controller: AbortController;
  done: Promise<void>;
}

export interface WorkerPoolOptions {
  store: TaskStore;
  registry: ToolRegistry;
  scope: ServiceScope;
  config: Config;
  log: Logger;
  events: EngineEvents;
  /** Only run these tools (a dedicated pool); default all. */
  onlyTools?: readonly string[];
  concurrency?: number;
}

// While the queue is backlogged a worker claims only once this share of its slots is free (or
// COALESCE_MS after the first slot freed): claiming each slot as it frees up cost a store round trip per
// ~4 tasks instead of per ~16. Nothing is claimed ahead of a free slot, so no lease is held on a task
// that is not running (and heartbeats cover every lease this worker holds).
const BATCH_SHARE = 0.5;
const COALESCE_MS = 10;

export class WorkerPool {
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** Tasks whose tool is running here: they hold this worker's slots and their leases are renewed. */
  private readonly running = new Map<string, RunningTask>();
  /** Tasks launched and not yet settled: running, or their settle still being written. */
  private readonly inFlight = new Set<RunningTask>();
  private readonly concurrency: number;
  private readonly loop: WakeLoop;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private coalesceTimer: NodeJS.Timeout | undefined;
  /** The last claim came back full: more tasks are probably due. */
  private backlogged = false;
  /** When a slot first freed up while waiting for a batch's worth of them (0: not waiting). */
  private waitingSince = 0;
  private readonly onWake = () => this.wake();
  private unsubscribeAvailable: (() => void) | undefined;
  private readonly onCancel = (id: string) => this.abortLocal(id, new AbortReason('cancelled', 'Cancelled by the caller.'));
  /** Settles the completions of one event-loop turn in one store write. */
  private readonly completions: CompleteBatch;
  /** Aborted when shutdown's grace is over: settles stop waiting for an unavailable store. */
  private readonly giveUpSettling = new AbortController();

  constructor(private readonly o: WorkerPoolOptions) {
    this.concurrency = o.concurrency ?? o.config.engine.concurrency;
    this.completions = new CompleteBatch(o.store, this.owner);
    this.loop = new WakeLoop({
      pass: () => this.tick(),
      pollIntervalMs: o.config.engine.pollIntervalMs,
      // An outage is logged once by the store (open-store.ts), not on every poll.
      onError: (err) => {
        if (!(err instanceof StoreUnavailable)) o.log.error('claiming tasks failed', { err });
      },
    });
  }

  private get stopped(): boolean {
    return this.loop.isStopped;
  }

  get activeCount(): number {
    return this.running.size;
  }

  start(): void {
    if (!this.stopped) return;
    this.o.events.on('submitted', this.onWake);
    this.o.events.on('cancel-requested', this.onCancel);
    // Tasks submitted or requeued by other processes (PostgreSQL NOTIFY); polling below stays the guarantee.
    this.unsubscribeAvailable = this.o.store.onTaskAvailable?.((tool) => {
      // An empty tool means "look anyway" (the listener reconnected and may have missed some).
      if (!tool || !this.o.onlyTools || this.o.onlyTools.includes(tool)) this.wake();
    });
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), Math.max(250, Math.floor(this.o.config.engine.leaseMs / 3)));
    this.heartbeatTimer.unref();
    this.loop.start();
  }

  /** Stops claiming; waits up to `graceMs` for running tasks, then gives the rest back to the queue. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopped) return;
    this.o.events.off('submitted', this.onWake);
    this.o.events.off('cancel-requested', this.onCancel);
    this.unsubscribeAvailable?.();
    this.unsubscribeAvailable = undefined;
    clearTimeout(this.coalesceTimer);
    // After the claim in progress: every task it launched is then among those waited for below.
    await this.loop.stop();
    const all = Promise.all([...this.inFlight].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    for (const r of this.running.values()) r.controller.abort(new AbortReason('shutdown', 'The worker is shutting down.'));
    // Settles waiting for an unavailable store stop here: their leases expire and the sweeper decides.
    this.giveUpSettling.abort();
    await all;
    clearInterval(this.heartbeatTimer);
  }

  wake(): void {
    this.loop.wake();
  }

  /**
   * Tools at their concurrency limit here, and the room left to each other limited tool that has less
   * room than `free` (the claim takes at most that many of it; the others cannot overshoot).
   */
  private toolRoom(tools: readonly string[], free: number): { full: string[]; toolLimits: Record<string, number> } {
    // Tasks still being settled count too: until their settle commits they are running in the store,
    // and a tool's limit holds there as well.
    const counts = new Map<string, number>();
    for (const r of this.inFlight) counts.set(r.task.tool, (counts.get(r.task.tool) ?? 0) + 1);
    const full: string[] = [];
    const toolLimits: Record<string, number> = {};
    for (const tool of tools) {
      const limit = this.o.registry.has(tool) ? this.o.registry.get(tool).concurrency : undefined;
      if (limit === undefined) continue;
      const room = limit - (counts.get(tool) ?? 0);
      if (room <= 0) full.push(tool);
      else if (room < free) toolLimits[tool] = room;
    }
    return { full, toolLimits };
  }

  private async tick(): Promise<void> {
    const onlyTools = this.o.onlyTools ?? this.o.registry.names;
    while (!this.stopped && this.freeSlots() > 0) {
      const free = this.freeSlots();
      if (this.backlogged && free < Math.ceil(this.concurrency * BATCH_SHARE) && !this.waitedEnough()) return;
      this.waitingSince = 0;
      const { full: excludeTools, toolLimits } = this.toolRoom(onlyTools, free);
      // Every free slot in one claim (a store round trip per task would cap a worker at ~100 tasks/s on
      // a networked database); the store keeps each limited tool within its room.
      const claimed = await this.o.store.claimTasks({
        owner: this.owner,
        limit: free,
        leaseMs: this.o.config.engine.leaseMs,
        now: Date.now(),
        onlyTools,
        excludeTools,
        toolLimits,
      });
      this.backlogged = claimed.length === free;
      if (claimed.length === 0) return;
      for (const task of claimed) this.launch(task);
    }
  }

  /**
   * Slots whose tool is not running. Settles still being written count against a second set of as many
   * slots, so a store slow to settle holds claims back instead of letting unsettled tasks pile up.
   */
  private freeSlots(): number {
    return Math.min(this.concurrency - this.running.size, 2 * this.concurrency - this.inFlight.size);
  }

  /** Starts (or checks) the short wait for more free slots; true once it is over. */
  private waitedEnough(): boolean {
    const now = Date.now();
    if (this.waitingSince === 0) this.waitingSince = now;
    const left = this.waitingSince + COALESCE_MS - now;
    if (left <= 0) return true;
    // Re-armed on every check, so a timer firing a little early cannot leave the slots idle until the poll.
    clearTimeout(this.coalesceTimer);
    this.coalesceTimer = setTimeout(() => this.wake(), left);
    this.coalesceTimer.unref();
    return false;
  }

  private launch(task: TaskRow): void {
    const controller = new AbortController();
    const entry: RunningTask = { task, controller, done: Promise.resolve() };
    this.running.set(task.id, entry);
    // The slot frees as soon as the tool has finished: the next claim then goes out while this task's
    // settle is still being written, instead of after it (a drain's claims and settles overlap).
    const freeSlot = () => {
      if (this.running.get(task.id) !== entry) return;
      this.running.delete(task.id);
      this.wake();
    };
    entry.done = this.execute(task, controller, freeSlot)
      .catch((err: unknown) => {
        if (!(err instanceof StoreUnavailable)) this.o.log.error('settling a task failed', { task: task.id, err });
      })
      .finally(() => {
        this.inFlight.delete(entry);
        freeSlot();
        // Settled: room for a claim again, also when the slot itself was freed before the settle.
        this.wake();
      });
    this.inFlight.add(entry);
  }

  private async execute(task: TaskRow, controller: AbortController, freeSlot: () => void): Promise<void> {
    const { store, events, registry } = this.o;
    const started = Date.now();
    events.emit('started', task);
    if (!registry.has(task.tool)) {
      const failed = await store.failTask(
        task.id,
        this.owner,
        { error: `Tool ${task.tool} is not available on this server.`, kind: 'permanent', refund: true },
        Date.now(),
      );
      if (failed) events.emit('settled', failed, null);
      return;
    }
    if (task.cancelRequested) controller.abort(new AbortReason('cancelled', 'Cancelled by the caller.'));
    const outcome = await runAttempt(registry.get(task.tool), task, controller, {
      config: this.o.config,
      log: this.o.log,
      scope: this.o.scope,
      onProgress: (done, total, message) =>
        events.emit('progress', { taskId: task.id, done, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) }),
    });
    freeSlot();
    const now = Date.now();
    switch (outcome.kind) {
      case 'complete': {
        const settled = await this.untilStored(() => this.completions.complete(task, outcome.result, now));
        if (settled) events.emit('settled', settled, now - started);
        return;
      }
      case 'fail': {
        const settled = await this.untilStored(() =>
          store.failTask(
            task.id,
            this.owner,
            { error: outcome.error, kind: outcome.failure, refund: outcome.refund, ...(outcome.code !== undefined ? { code: outcome.code } : {}) },
            now,
          ),
        );
        if (settled) events.emit('settled', settled, now - started);
        return;
      }
      case 'retry': {
        if (await this.untilStored(() => store.retryTask(task.id, this.owner, outcome.error, now + outcome.delayMs, now))) {
          events.emit('retrying', task, outcome.error);
          setTimeout(() => this.wake(), outcome.delayMs + 5).unref();
        }
        return;
      }
      case 'abandon': {
        if (registry.get(task.tool).sideEffects) {
          // It may already have acted (notified someone): never run it a second time; fail and refund.
          const settled = await this.untilStored(() =>
            store.failTask(
              task.id,
              this.owner,
              { error: 'The worker stopped while this task ran; it is not retried because it has side effects.', kind: 'crashed', refund: true },
              now,
            ),
          );
          if (settled) events.emit('settled', settled, now - started);
          return;
        }
        // Shutting down: give the task back at once so another worker (or our restart) runs it.
        await this.untilStored(() => store.retryTask(task.id, this.owner, 'Interrupted by a worker shutdown.', now, now));
        return;
      }
    }
  }

  private abortLocal(id: string, reason: AbortReason): void {
    this.running.get(id)?.controller.abort(reason);
  }

  /**
   * Writes a task's outcome, trying again while the store is unavailable: the work is done, and losing
   * its outcome would run the task again (or, with side effects, fail it). The lease stays renewed
   * meanwhile (heartbeat), so once the store answers, the outcome is written under the same lease.
   */
  private async untilStored<T>(write: () => Promise<T>): Promise<T> {
    for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
      try {
        return await write();
      } catch (err) {
        if (!(err instanceof StoreUnavailable) || this.giveUpSettling.signal.aborted) throw err;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, delay);
        const signal = this.giveUpSettling.signal;
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done);
      });
    }
  }

  private async heartbeat(): Promise<void> {
    if (this.inFlight.size === 0) return;
    try {
      // Every unsettled task, including those whose outcome is waiting for the store (untilStored).
      const ids = [...this.inFlight].map((r) => r.task.id);
      const { held, cancelRequested } = await this.o.store.renewLeases(this.owner, ids, this.o.config.engine.leaseMs);
      const heldSet = new Set(held);
      for (const id of ids) {
        if (!heldSet.has(id)) this.abortLocal(id, new AbortReason('lease-lost', 'The lease on this task was lost.'));
      }
      for (const id of cancelRequested) this.abortLocal(id, new AbortReason('cancelled', 'Cancelled by the caller.'));
    } catch (err) {
      if (!(err instanceof StoreUnavailable)) this.o.log.warn('lease heartbeat failed', { err });
    }
  }
}
