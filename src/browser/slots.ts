// A counting semaphore with a FIFO queue whose waiters can give up (task cancelled while queued).
export class Slots {
  private inUse = 0;
  private readonly waiters: { grant: () => void; fail: (err: unknown) => void }[] = [];

  constructor(private readonly size: number) {}

  get active(): number {
    return this.inUse;
  }

  get queued(): number {
    return this.waiters.length;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.inUse < this.size) {
      this.inUse++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        fail: reject,
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    // The slot passes straight to the next waiter, so the count does not change.
    if (next) next.grant();
    else this.inUse--;
  }

  /** Fails every waiter (pool closing). */
  rejectAll(err: unknown): void {
    for (const w of this.waiters.splice(0)) w.fail(err);
  }
}
