// The loop under every queue drainer here (the task worker pool, the lead service's notification outbox):
// one pass at a time; a wake() during a pass runs another right after it; otherwise the next pass runs
// after the delay the owner asks for. Correctness lives in the store (durable rows claimed under leases);
// waking only makes work prompt, and the timed pass keeps it certain when a wake-up is missed.
export interface WakeLoopOptions {
  /** One pass: claim what is due and start (or do) it. */
  pass: () => Promise<void>;
  /** Longest sleep after a pass when nothing wakes the loop (ms). */
  pollIntervalMs: number;
  /** When known, how soon the next item falls due (ms), to sleep less than the poll interval. */
  dueInMs?: () => Promise<number | undefined>;
  /** A pass or the due-time lookup failed; the loop goes on. */
  onError: (err: unknown, during: 'pass' | 'schedule') => void;
}

export class WakeLoop {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(private readonly o: WakeLoopOptions) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.o
      .pass()
      .catch((err: unknown) => this.o.onError(err, 'pass'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          void this.schedule();
        }
      });
  }

  /** No pass starts after this; resolves once the pass in progress (if any) has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async schedule(): Promise<void> {
    let delay = this.o.pollIntervalMs;
    try {
      const due = this.o.dueInMs ? await this.o.dueInMs() : undefined;
      if (due !== undefined) delay = Math.max(0, Math.min(delay, due));
    } catch (err) {
      this.o.onError(err, 'schedule');
    }
    // A wake() or stop() while the delay was looked up has already decided what happens next.
    if (this.stopped || this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), delay);
    this.timer.unref();
  }
}
