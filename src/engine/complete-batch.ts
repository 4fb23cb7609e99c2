// Completions in batches: the tasks of one worker that finish in the same turn of the event loop (a
// claim's batch of quick tasks finishes together) are settled in one store write, and each task's
// settle resolves only once that write has committed, so a settled task is durable exactly as before.
// Each task is still settled only while this worker holds its lease; one whose lease was lost answers
// null, as a single completion would.
import type { Completion, TaskRow, TaskStore } from '../store/port.js';
import { TurnBatch } from './turn-batch.js';

/** Most completions in one write: bounds the statement and how long its row locks are held. */
const MAX_BATCH = 64;

export class CompleteBatch {
  private readonly batch: TurnBatch<Completion, TaskRow | null>;

  constructor(store: Pick<TaskStore, 'completeTasks'>, owner: string, maxBatch = MAX_BATCH) {
    this.batch = new TurnBatch((items) => store.completeTasks(owner, items), maxBatch);
  }

  complete(task: Pick<TaskRow, 'id' | 'input'>, result: unknown, now: number): Promise<TaskRow | null> {
    return this.batch.add({ id: task.id, input: task.input, result, now });
  }
}
