// One process at a time for a job every process could run: x402 settlement from one settler account (on
// PostgreSQL every API node runs a Settler, and two of them sending from one account race for its nonce
// and do each other's work) and the reconciliation of key purchases a crash left pending (every node
// reading the same pending rows and the chain for them). The store's leader lease named after the job
// decides who does it. The holder renews it every renewMs, well inside ttlMs; the others ask as often and
// take it over once a dead holder's lease expires. A process alone (SQLite, one `serve`) takes the free
// lease on its first ask, before its first run.
//
// The lease's expiry lives on the store's clock (PostgreSQL's server), so nodes whose clocks disagree
// still agree on who holds it. This process counts its own hold on its monotonic clock from the instant
// it asked, which ends no later than the store's expiry whatever the wall clocks say.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../logger.js';
import type { LeaseStore } from '../../store/port.js';
import type { X402Settings } from './settings.js';

export interface LeaderLeaseOptions {
  /** How long a holder that stopped renewing (it died) keeps the lease. */
  ttlMs?: number;
  /** How often the holder renews and the others ask. */
  renewMs?: number;
}

export interface LeaderLeaseDeps {
  store: LeaseStore;
  name: string;
  /** What the holder does, for the logs ("settles x402 payments"). */
  job: string;
  log: Logger;
  /** Called when this process becomes the holder (at start, or taking over from a dead holder). */
  onGained: () => void;
}

/** The settlement lease's name: the settler account (or facilitator and payee) and network, never a secret. */
export function settlerLeaseName(settings: Pick<X402Settings, 'network' | 'payTo'>, settlerAddress?: string, facilitatorUrl?: string): string {
  if (settlerAddress) return `x402-settlement:${settings.network}:${settlerAddress.toLowerCase()}`;
  const where = facilitatorUrl ? new URL(facilitatorUrl).host : 'none';
  return `x402-settlement:${settings.network}:facilitator:${where}:${settings.payTo.toLowerCase()}`;
}

/** The key-purchase reconciliation lease's name: one per store (the pending purchases are the store's). */
export const PURCHASE_RECONCILER_LEASE = 'x402-key-purchases';

export class LeaderLease {
  readonly holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly ttlMs: number;
  private readonly renewMs: number;
  /** performance.now() when the lease ends unless renewed (from the instant it was asked, so early). */
  private heldUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private asking: Promise<void> | undefined;
  private stopped = false;
  private failing = false;
  /** Resolves once the first ask has been answered (or failed). */
  readonly ready: Promise<void>;
  private markReady: () => void = () => undefined;

  constructor(
    private readonly d: LeaderLeaseDeps,
    o: LeaderLeaseOptions = {},
  ) {
    this.ttlMs = o.ttlMs ?? 30_000;
    this.renewMs = o.renewMs ?? Math.floor(this.ttlMs / 3);
    this.ready = new Promise((r) => (this.markReady = r));
  }

  /** Whether this process does the job now. */
  get held(): boolean {
    return !this.stopped && performance.now() < this.heldUntil;
  }

  start(): void {
    void this.ask().finally(this.markReady);
    this.timer = setInterval(() => void this.ask(), this.renewMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.asking;
    if (this.heldUntil === 0) return;
    this.heldUntil = 0;
    // Another process takes over at once rather than after the TTL.
    await this.d.store
      .releaseLease(this.d.name, this.holder)
      .catch((err: unknown) => this.d.log.warn('could not release a leader lease', { lease: this.d.name, err }));
  }

  private ask(): Promise<void> {
    this.asking ??= this.askOnce().finally(() => (this.asking = undefined));
    return this.asking;
  }

  private async askOnce(): Promise<void> {
    if (this.stopped) return;
    const asked = performance.now();
    const was = this.held;
    let got: boolean;
    try {
      got = await this.d.store.holdLease(this.d.name, this.holder, this.ttlMs);
    } catch (err) {
      // The lease runs out by itself (held turns false) if the store stays unreachable.
      if (!this.failing) this.d.log.warn('could not renew a leader lease', { lease: this.d.name, err });
      this.failing = true;
      return;
    }
    this.failing = false;
    if (this.stopped) {
      if (got) await this.d.store.releaseLease(this.d.name, this.holder).catch(() => undefined);
      return;
    }
    this.heldUntil = got ? asked + this.ttlMs : 0;
    if (got && !was) {
      this.d.log.info(`this process ${this.d.job}`, { lease: this.d.name, holder: this.holder });
      this.d.onGained();
    } else if (!got && was) {
      this.d.log.warn(`another process took over: this one no longer ${this.d.job}`, { lease: this.d.name });
    }
  }
}
