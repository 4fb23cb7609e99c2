// A value that serves for a while after it was taken, then is taken afresh: the settler's fee estimate and
// its account nonce (chain.ts) are each held this way, one RPC per window instead of one per transfer.
import { performance } from 'node:perf_hooks';

export class TimedValue<T> {
  private held: { at: number; value: T } | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The value while it is younger than the window, else undefined. */
  get(): T | undefined {
    return this.held && this.now() - this.held.at < this.ttlMs ? this.held.value : undefined;
  }

  /** Holds `value`, its window starting at `at` (default now: when it was asked for, not when the answer came). */
  set(value: T, at = this.now()): T {
    this.held = { at, value };
    return value;
  }

  /** The held value while it serves, else `take()`'s, held from now. */
  getOrSet(take: () => T): T {
    const at = this.now();
    return this.held && at - this.held.at < this.ttlMs ? this.held.value : this.set(take(), at);
  }

  /** Replaces a held value without renewing its window (a nonce counted on locally); nothing when none is held. */
  update(value: T): void {
    if (this.held) this.held = { at: this.held.at, value };
  }

  drop(): void {
    this.held = undefined;
  }
}
