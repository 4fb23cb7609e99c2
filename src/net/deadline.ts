// A cheap stand-in for an AbortController bounding one operation: a time limit plus an optional parent
// signal (the task's). Node's AbortSignal costs tens of microseconds for the first listener of each new
// signal, which is a measurable share of a loopback status check; this has the same shape for the parts
// src/net uses.

/** What src/net needs from a cancellation signal; AbortSignal satisfies it. */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class Deadline implements AbortLike {
  aborted = false;
  reason: unknown = undefined;
  private readonly listeners = new Set<() => void>();
  private readonly timer: NodeJS.Timeout;
  private readonly onParentAbort: (() => void) | undefined;

  constructor(
    timeoutMs: number,
    onTimeout: () => Error,
    private readonly parent?: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.abort(onTimeout()), timeoutMs);
    if (parent) {
      this.onParentAbort = () => this.abort(parent.reason);
      if (parent.aborted) this.onParentAbort();
      else parent.addEventListener('abort', this.onParentAbort, { once: true });
    }
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    clearTimeout(this.timer);
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }

  /** Stops the timer and lets go of the parent signal. */
  dispose(): void {
    clearTimeout(this.timer);
    if (this.parent && this.onParentAbort) this.parent.removeEventListener('abort', this.onParentAbort);
    this.listeners.clear();
  }
}
