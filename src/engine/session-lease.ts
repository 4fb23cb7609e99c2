// The lease of a session that runs its own tasks (`agent-utility mcp`, the embedded `call`, `batch` and
// `crawl`). Several such processes may share one data directory, and a task's progress events and its
// artifact link live in the process that runs it, so each session's tasks carry its name and only its
// workers claim them while this lease is renewed. When the process dies the lease expires and any worker
// takes its tasks over; a clean stop ends the lease at once. Ownership only routes work: correctness
// never depends on it (a lapsed lease lets another session run a task, as every task ran before).
import type { Logger } from '../logger.js';
import { StoreUnavailable } from '../errors.js';
import type { TaskStore } from '../store/port.js';

export class SessionLease {
  private timer: NodeJS.Timeout | undefined;
  private opened: Promise<void> | undefined;

  constructor(
    /** The session's name: its worker pool's lease owner, which the claim compares with. */
    readonly id: string,
    private readonly store: TaskStore,
    private readonly leaseMs: number,
    private readonly log: Logger,
  ) {}

  /** Opens the lease and renews it every third of its length. */
  start(): void {
    if (this.opened) return;
    this.opened = this.renew();
    this.timer = setInterval(() => void this.renew(), Math.max(250, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** Settles once the first renewal was written (or failed): tasks created after it stay with this session. */
  async ready(): Promise<void> {
    await this.opened;
  }

  async stop(): Promise<void> {
    if (!this.opened) return;
    clearInterval(this.timer);
    await this.opened;
    this.opened = undefined;
    try {
      await this.store.endSession(this.id);
    } catch (err) {
      // Unended, it expires by itself within leaseMs: the tasks left behind wait that long, no longer.
      if (!(err instanceof StoreUnavailable)) this.log.warn('ending the session lease failed', { err });
    }
  }

  private async renew(): Promise<void> {
    try {
      // The store dates the lease on its own clock: sessions on machines whose clocks disagree still agree.
      await this.store.renewSession(this.id, this.leaseMs);
    } catch (err) {
      if (!(err instanceof StoreUnavailable)) this.log.warn('renewing the session lease failed', { err });
    }
  }
}
