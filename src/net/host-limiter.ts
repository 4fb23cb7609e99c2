// Bounded concurrency per target: at most `limit` jobs at once against one domain or host, the rest
// waiting in arrival order. A batch of 10,000 links on one site (or names in one zone) then reaches that
// site a few requests at a time, however many worker slots are free; other targets are not held up.
import { defineService } from '../registry/services.js';

interface Slot {
  running: number;
  waiting: (() => void)[];
}

export class HostLimiter {
  private readonly slots = new Map<string, Slot>();

  constructor(readonly limit: number) {}

  /** Runs `job` once `key` has a free place; waiting ends early (rejecting) when `signal` aborts. */
  async run<T>(key: string, job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = { running: 0, waiting: [] }));
    if (slot.running >= this.limit) await this.wait(slot, signal);
    slot.running++;
    try {
      return await job();
    } finally {
      slot.running--;
      const next = slot.waiting.shift();
      if (next) next();
      else if (slot.running === 0) this.slots.delete(key);
    }
  }

  /** Jobs running against `key` now. */
  active(key: string): number {
    return this.slots.get(key)?.running ?? 0;
  }

  private wait(slot: Slot, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = slot.waiting.indexOf(go);
        if (i >= 0) slot.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.waiting.push(go);
    });
  }
}

/** One limiter per process and tool family, sized by HOST_CONCURRENCY. */
export const hostLimiterService = defineService({
  name: 'host-limiter',
  create: ({ config }) => new HostLimiter(config.net.hostConcurrency),
});
