// Background upkeep that any process may run (it is safe to run in many at once): hands tasks whose
// lease expired (their process died) back to the queue, and deletes finished tasks past retention.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { StoreUnavailable } from '../errors.js';
import type { TaskStore } from '../store/port.js';

export class Maintenance {
  private sweepTimer: NodeJS.Timeout | undefined;
  private retentionTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: TaskStore,
    private readonly config: Config,
    private readonly log: Logger,
    private readonly onRequeued: () => void,
  ) {}

  start(): void {
    const sweepEvery = Math.max(200, Math.floor(this.config.engine.leaseMs / 2));
    this.sweepTimer = setInterval(() => void this.sweepLeases(), sweepEvery);
    this.retentionTimer = setInterval(() => void this.applyRetention(), 60 * 60 * 1000);
    this.sweepTimer.unref();
    this.retentionTimer.unref();
    void this.sweepLeases();
    void this.applyRetention();
  }

  stop(): void {
    clearInterval(this.sweepTimer);
    clearInterval(this.retentionTimer);
  }

  async sweepLeases(now = Date.now()): Promise<{ requeued: number; failed: number }> {
    try {
      const r = await this.store.recoverExpiredLeases(now);
      if (r.requeued > 0 || r.failed > 0) {
        this.log.warn('recovered tasks whose worker stopped', r);
        this.onRequeued();
      }
      return r;
    } catch (err) {
      if (!(err instanceof StoreUnavailable)) this.log.error('lease sweep failed', { err });
      return { requeued: 0, failed: 0 };
    }
  }

  async applyRetention(now = Date.now()): Promise<number> {
    try {
      const n = await this.store.deleteFinishedBefore(now - this.config.engine.retentionMs);
      if (n > 0) this.log.info('deleted finished tasks past retention', { count: n });
      return n;
    } catch (err) {
      if (!(err instanceof StoreUnavailable)) this.log.error('retention sweep failed', { err });
      return 0;
    }
  }
}
