// Group commit of task creations: the creations that arrive in the same turn of the event loop are
// written in one transaction, and each caller is answered only once that transaction has committed, so
// an answered task is durable exactly as before. BEGIN/COMMIT per request was 16% of a creation's CPU on
// PostgreSQL; under load many requests are parsed in the same turn and share one commit.
import type { CreateTaskOptions, CreateTaskOutcome, NewTask, TaskCreation } from '../store/port.js';

export type { TaskCreation };

/**
 * A store that writes several creations in one transaction. Each creation keeps its own outcome: one
 * refused (no credits, a reused idempotency key, a used payment nonce) leaves no trace and does not
 * affect the others; a failure of the transaction itself rejects, and then none of them was written.
 */
export interface BatchCreateStore {
  createTasks(items: readonly TaskCreation[]): Promise<CreateTaskOutcome[]>;
}

export function canCreateInBatches(store: object): store is BatchCreateStore {
  return typeof (store as Partial<BatchCreateStore>).createTasks === 'function';
}

interface Waiting {
  item: TaskCreation;
  resolve(outcome: CreateTaskOutcome): void;
  reject(err: unknown): void;
}

/** Most creations in one transaction: bounds how long its row locks are held. */
const MAX_BATCH = 128;

export class GroupCommit {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly store: BatchCreateStore,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  create(task: NewTask, opts: CreateTaskOptions = {}): Promise<CreateTaskOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item: { task, opts }, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After this turn's I/O callbacks: every request parsed in the same turn joins the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = this.waiting;
    this.waiting = [];
    for (let i = 0; i < all.length; i += this.maxBatch) void this.write(all.slice(i, i + this.maxBatch));
  }

  private async write(batch: Waiting[]): Promise<void> {
    try {
      const outcomes = await this.store.createTasks(batch.map((w) => w.item));
      if (outcomes.length !== batch.length) throw new Error(`createTasks answered ${outcomes.length} outcomes for ${batch.length} creations`);
      batch.forEach((w, i) => w.resolve(outcomes[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
