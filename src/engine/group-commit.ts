// Group commit of task creations: the creations that arrive in the same turn of the event loop are
// written in one transaction, and each caller is answered only once that transaction has committed, so
// an answered task is durable exactly as before. BEGIN/COMMIT per request was 16% of a creation's CPU on
// PostgreSQL; under load many requests are parsed in the same turn and share one commit.
import type { CreateTaskOptions, CreateTaskOutcome, NewTask, TaskCreation } from '../store/port.js';
import { TurnBatch } from './turn-batch.js';

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

/** Most creations in one transaction: bounds how long its row locks are held. */
const MAX_BATCH = 128;

export class GroupCommit {
  private readonly batch: TurnBatch<TaskCreation, CreateTaskOutcome>;

  constructor(store: BatchCreateStore, maxBatch = MAX_BATCH) {
    this.batch = new TurnBatch((items) => store.createTasks(items), maxBatch);
  }

  create(task: NewTask, opts: CreateTaskOptions = {}): Promise<CreateTaskOutcome> {
    return this.batch.add({ task, opts });
  }
}
