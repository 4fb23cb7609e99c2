// Completions in batches: the tasks of one worker that finish in the same turn of the event loop (a
// claim's batch of quick tasks finishes together) are settled in one store write, and each task's
// settle resolves only once that write has committed, so a settled task is durable exactly as before.
// Each task is still settled only while this worker holds its lease; one whose lease was lost answers
// null, as a single completion would.
import type { Completion, TaskRow, TaskStore } from '../store/port.js';

interface Waiting {
  item: Completion;
  resolve(task: TaskRow | null): void;
  reject(err: unknown): void;
}

/** Most completions in one write: bounds the statement and how long its row locks are held. */
const MAX_BATCH = 64;

export class CompleteBatch {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly store: Pick<TaskStore, 'completeTasks'>,
    private readonly owner: string,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  complete(task: Pick<TaskRow, 'id' | 'input'>, result: unknown, now: number): Promise<TaskRow | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item: { id: task.id, input: task.input, result, now }, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After this turn's callbacks: every task finishing in the same turn joins the batch.
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
      const settled = await this.store.completeTasks(
        this.owner,
        batch.map((w) => w.item),
      );
      if (settled.length !== batch.length) throw new Error(`completeTasks answered ${settled.length} tasks for ${batch.length} completions`);
      batch.forEach((w, i) => w.resolve(settled[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
