// Settlement after success. When a paid task completes, its EIP-3009 authorization is submitted
// (transferWithAuthorization from the settler account, or the facilitator's /settle); a task that
// failed or was cancelled is never settled (its payment becomes `void`). Failed attempts are retried
// with backoff until the authorization's validBefore, then the payment is recorded `unpaid`.
//
// Engine events make this immediate in the process that ran the task; a sweep over the store picks up
// what another process completed or a crash left pending. A `worker` process runs no settlement, so on
// PostgreSQL the API nodes settle what the workers complete: the store's cross-process "task settled"
// wake-up brings their sweep forward, and a sweep drains every pending payment page by page rather than
// one page per interval (which capped a cluster at 100 settlements per 15 s).
//
// One process settles at a time: the holder of the store's lease for this settler account
// (leader-lease.ts). Every API node sending from one account raced the others for the account's nonce
// and did their work twice (the soak settled 4,414 of 6,000 payments); the others now leave their own
// completions to the holder (the store's wake-up or its sweep finds them) and take over within the
// lease's TTL when it dies. Should two still overlap (a holder cut off from the store finishing a
// transfer), it stays harmless: the token accepts an authorization's nonce once, the loser finds the
// winner's transfer on chain, and a send that lost its account nonce is resent (chain.ts).
import type { Hash } from './viem.js';
import type { EngineEvents } from '../../engine/events.js';
import type { Logger } from '../../logger.js';
import type { TaskRow, TaskStore, UnsettledCursor, UnsettledTask } from '../../store/port.js';
import type { ChainAccess } from './chain.js';
import type { FacilitatorClient } from './facilitator.js';
import type { X402Metrics } from './metrics.js';
import { asPaymentRecord, requirementOf, type PaymentRecord } from './payment-record.js';
import type { X402Settings } from './settings.js';
import { LeaderLease, type LeaderLeaseOptions } from './leader-lease.js';

export interface SettlerOptions {
  /** First retry delay; doubles per attempt up to maxRetryMs. */
  retryBaseMs?: number;
  maxRetryMs?: number;
  /** How often the store is swept for payments left pending. */
  sweepIntervalMs?: number;
  /** The sweep leaves completions younger than this to the event path of the process that ran them. */
  sweepGraceMs?: number;
  /** The settlement lease's timing (leader-lease.ts). */
  lease?: LeaderLeaseOptions;
}

export interface SettlerDeps {
  store: TaskStore;
  events: EngineEvents;
  log: Logger;
  metrics: X402Metrics;
  settings: X402Settings;
  chain?: ChainAccess | undefined;
  facilitator?: FacilitatorClient | undefined;
  /** The settlement lease's name (settlerLeaseName): processes settling from one account share it. */
  leaseName?: string;
}

/** A settlement that cannot succeed by retrying (the authorization is gone). */
class SettlementImpossible extends Error {}

/** Payments one sweep reads at a time; it settles a page before reading the next. */
const SWEEP_PAGE = 100;
/** How long stop() waits for settlements under way. */
const STOP_GRACE_MS = 10_000;
/** Stop trying this close to validBefore: a transfer mined after it reverts. */
const DEADLINE_MARGIN_MS = 5_000;

export class Settler {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly retryBaseMs: number;
  private readonly maxRetryMs: number;
  private readonly sweepIntervalMs: number;
  private readonly sweepGraceMs: number;
  private sweepTimer: NodeJS.Timeout | undefined;
  /** The sweep under way, and whether a wake-up asked for another pass once it ends. */
  private sweeping: Promise<void> | undefined;
  private sweepAgain = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private lastWake = 0;
  private unsubscribeSettled: (() => void) | undefined;
  private stopped = false;
  private readonly wakeOnStop = new Set<() => void>();
  private readonly log: Logger;
  private readonly lease: LeaderLease;

  constructor(
    private readonly d: SettlerDeps,
    o: SettlerOptions = {},
  ) {
    this.retryBaseMs = o.retryBaseMs ?? 2_000;
    this.maxRetryMs = o.maxRetryMs ?? 60_000;
    this.sweepIntervalMs = o.sweepIntervalMs ?? 15_000;
    this.sweepGraceMs = o.sweepGraceMs ?? 5_000;
    this.log = d.log.child({ component: 'x402-settlement' });
    // Taking the lease (at start, or over from a dead holder) sweeps at once.
    this.lease = new LeaderLease(
      { store: d.store, name: d.leaseName ?? 'x402-settlement', job: 'settles x402 payments', log: this.log, onGained: () => void this.sweep() },
      o.lease,
    );
  }

  /** Whether this process is the one settling (holds the settlement lease). */
  get leading(): boolean {
    return this.lease.held;
  }

  start(): void {
    this.d.events.on('settled', this.onTaskSettled);
    // Another process finished a task: it may be a paid one that process does not settle (a `worker`).
    this.unsubscribeSettled = this.d.store.onTaskSettled?.(this.onSettledElsewhere);
    this.lease.start();
    this.sweepTimer = setInterval(() => void this.sweep(), this.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.d.events.off('settled', this.onTaskSettled);
    this.unsubscribeSettled?.();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    clearTimeout(this.wakeTimer);
    for (const wake of this.wakeOnStop) wake();
    // A transfer already submitted is waited for a little; if it takes longer, the next start's sweep
    // finds it on chain (its hash is recorded) and finishes the record.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight.values()]), new Promise((r) => (timer = setTimeout(r, STOP_GRACE_MS)))]);
    clearTimeout(timer);
    await this.lease.stop();
  }

  /** Resolves when nothing is being settled in this process (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** A task finished here: settled now by the lease holder; anyone else leaves it to the holder's sweep. */
  private readonly onTaskSettled = (task: TaskRow): void => {
    if (this.lease.held) void this.take(task);
    // Before the first answer about the lease (a task finishing as the process starts).
    else
      void this.lease.ready.then(() => {
        if (this.lease.held) void this.take(task);
      });
  };

  /**
   * One sweep a grace period after the first wake-up of a burst (the sweep leaves completions younger than
   * the grace to the process that ran them, so sooner would find nothing new), and another after it while
   * wake-ups keep coming: the sweep does not cover tasks that finished within the grace before it started.
   */
  private readonly onSettledElsewhere = (): void => {
    this.lastWake = Date.now();
    this.armWake();
  };

  private armWake(): void {
    if (this.stopped || this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      const covered = Date.now() - this.sweepGraceMs;
      void this.sweep();
      if (this.lastWake >= covered) this.armWake();
    }, this.sweepGraceMs + 100);
    this.wakeTimer.unref();
  }

  /** Runs one sweep at a time; a sweep asked for while one runs runs once after it. */
  private sweep(): Promise<void> {
    if (!this.lease.held) return Promise.resolve();
    if (this.sweeping) {
      this.sweepAgain = true;
      return this.sweeping;
    }
    this.sweeping = (async () => {
      do {
        this.sweepAgain = false;
        await this.drain();
      } while (this.sweepAgain && !this.stopped);
    })().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  /**
   * Every payment left pending, a page at a time: a page is settled (or given one sweep interval, for payments
   * retrying with backoff) before the next is read, which bounds the settlements in flight.
   */
  private async drain(): Promise<void> {
    const finishedBefore = Date.now() - this.sweepGraceMs;
    let after: UnsettledCursor | undefined;
    while (!this.stopped && this.lease.held) {
      let page: UnsettledTask[];
      try {
        page = await this.d.store.listUnsettledPayments(finishedBefore, SWEEP_PAGE, after);
      } catch (err) {
        this.log.warn('sweep for pending x402 settlements failed', { err });
        return;
      }
      const runs = page.map((t) => this.take(t)).filter((r) => r !== undefined);
      const last = page[page.length - 1];
      if (page.length < SWEEP_PAGE || !last?.finishedAt) return;
      after = { finishedAt: last.finishedAt, id: last.id };
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(runs),
        new Promise((r) => {
          timer = setTimeout(r, this.sweepIntervalMs);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
    }
  }

  /** Starts settling (or voiding) the task's payment unless it is under way here; returns that run. */
  private take(task: UnsettledTask): Promise<void> | undefined {
    if (this.stopped || !this.lease.held || task.payer.kind !== 'x402') return undefined;
    const running = this.inFlight.get(task.id);
    if (running) return running;
    const record = asPaymentRecord(task.payment);
    if (!record || record.status !== 'pending') return undefined;
    const run = (task.status === 'complete' ? this.settle(task.id, record) : this.voidPayment(task, record))
      .catch((err: unknown) => this.log.error('x402 settlement crashed; the sweep will retry it', { taskId: task.id, err }))
      .finally(() => this.inFlight.delete(task.id));
    this.inFlight.set(task.id, run);
    return run;
  }

  private async voidPayment(task: UnsettledTask, record: PaymentRecord): Promise<void> {
    const reason = `The task ${task.status === 'cancelled' ? 'was cancelled' : 'failed'}, so the payment was not collected; the authorization was never submitted and lapses at ${record.valid_before}.`;
    await this.finish(task.id, { ...record, status: 'void', reason }, 'void');
  }

  private async settle(taskId: string, initial: PaymentRecord): Promise<void> {
    let record = initial;
    const deadline = Date.parse(record.valid_before) - DEADLINE_MARGIN_MS;
    // Retries go on only while this process holds the lease: a process that took it over settles from then on.
    for (let attempt = (record.settle_attempts ?? 0) + 1; !this.stopped && this.lease.held; attempt++) {
      if (Date.now() >= deadline) {
        const why = record.last_error ? `last error: ${record.last_error}` : 'the task finished too late';
        await this.finish(taskId, { ...record, status: 'unpaid', reason: `Settlement did not succeed before the authorization expired (${why}).` }, 'unpaid');
        return;
      }
      try {
        const transaction = await this.attempt(taskId, record, (tx) => {
          record = { ...record, transaction: tx };
          return this.d.store.updatePendingPayment(taskId, record as unknown as Record<string, unknown>).then(() => undefined);
        });
        await this.finish(taskId, { ...record, status: 'settled', transaction, settled_at: new Date().toISOString(), settle_attempts: attempt }, 'settled');
        return;
      } catch (err) {
        const message = errorSummary(err);
        record = { ...record, settle_attempts: attempt, last_error: message };
        if (err instanceof SettlementImpossible) {
          await this.finish(taskId, { ...record, status: 'unpaid', reason: message }, 'unpaid');
          return;
        }
        // Ended meanwhile (another run or process settled it): nothing left to retry.
        if (!(await this.d.store.updatePendingPayment(taskId, record as unknown as Record<string, unknown>))) return;
        this.d.metrics.settlementRetried();
        const delay = Math.min(this.maxRetryMs, this.retryBaseMs * 2 ** (attempt - 1), Math.max(0, deadline - Date.now()));
        this.log.warn('x402 settlement failed; retrying', { taskId, attempt, error: message, retryInMs: delay });
        await this.pause(delay);
      }
    }
  }

  /** One try; `submitted` records the transaction hash before waiting for it to be mined. */
  private async attempt(taskId: string, r: PaymentRecord, submitted: (tx: Hash) => Promise<void>): Promise<string> {
    const { chain, facilitator, settings } = this.d;
    if (settings.mode === 'facilitator' && facilitator) {
      const answer = await facilitator.settle({
        x402Version: r.x402_version,
        authorization: r.authorization,
        signature: r.signature,
        requirements: requirementOf(r, settings),
        resource: { url: r.resource_url, description: '', mimeType: 'application/json' },
      });
      if (answer.success && answer.transaction) return answer.transaction;
      // A lost answer to an earlier /settle looks like a used nonce: look for our transfer.
      if (answer.errorReason === 'invalid_exact_evm_nonce_already_used' && chain) {
        const tx = await chain.findTransfer(settings.token.address, r.authorization);
        if (tx) return tx;
      }
      throw new Error(`facilitator settle refused: ${answer.errorReason ?? 'no reason given'}${answer.errorMessage ? ` (${answer.errorMessage})` : ''}`);
    }
    if (!chain) throw new Error('no way to settle: neither X402_RPC_URL with X402_SETTLER_KEY nor X402_FACILITATOR_URL');
    const token = settings.token.address;
    if (r.transaction) {
      const prior = await chain.receiptOf(r.transaction as Hash);
      if (prior?.succeeded) return r.transaction;
    }
    // No read of the authorization's state first: the transfer's gas estimate runs it, and a used nonce
    // makes it revert before anything is sent (one eth_call less per settlement). Only then is the chain asked why.
    this.log.debug('submitting transferWithAuthorization', { taskId });
    let hash: Hash;
    try {
      hash = await chain.submitTransfer(token, r.authorization, r.signature);
    } catch (err) {
      // The nonce was used: by this service's own transfer (another run or process settled it, or an
      // earlier attempt whose answer was lost), which is the settlement; or by the payer, who cancelled it.
      if ((await chain.payerState(token, r.authorization.from, r.authorization.nonce)).nonceUsed) {
        const tx = await chain.findTransfer(token, r.authorization);
        if (tx) return tx;
        throw new SettlementImpossible('The authorization was used on chain without a transfer to this service (the payer cancelled it).');
      }
      throw err;
    }
    await submitted(hash);
    const receipt = await chain.waitForReceipt(hash);
    if (!receipt.succeeded) throw new Error(`the transfer transaction ${hash} reverted`);
    return hash;
  }

  private async finish(taskId: string, record: PaymentRecord, outcome: 'settled' | 'unpaid' | 'void'): Promise<void> {
    const { last_error: _lastError, ...kept } = record;
    const final = outcome === 'unpaid' ? record : kept;
    // Only the run that ends the pending payment records and counts its outcome: another run over the same
    // payment (a sweep page read before this task's settlement ended, a holder that lost the lease) finds
    // the transfer on chain and ends here too, and counted it a second time (121 settled for 120 tasks).
    if (!(await this.d.store.updatePendingPayment(taskId, final as unknown as Record<string, unknown>))) {
      this.log.debug('x402 payment already ended; this run records nothing', { taskId, outcome });
      return;
    }
    this.d.metrics.settlementEnded(outcome, BigInt(record.amount));
    const fields = { taskId, payer: record.payer, amount: record.amount, transaction: record.transaction, reason: record.reason };
    if (outcome === 'unpaid') this.log.warn('x402 payment recorded unpaid', fields);
    else this.log.info(`x402 payment ${outcome}`, fields);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeOnStop.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeOnStop.add(done);
    });
  }
}

/** First lines of an error (viem puts the revert reason on the line after its summary). */
function errorSummary(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const text = (err as { shortMessage?: string }).shortMessage ?? err.message;
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(' ')
    .slice(0, 300);
}
