// Batches: one call, many inputs. Each distinct input is an ordinary task (leases, retries and refunds
// apply unchanged); the item map answers every input position with its task, in input order.
import type { NewTask, Payer, TaskRow, TaskStatus, TaskWebhook } from './task-row.js';

export interface BatchRow {
  id: string;
  tool: string;
  payer: Payer;
  /** Inputs in the call. */
  total: number;
  /** Distinct inputs, one task each. */
  unique: number;
  /** Price of the whole batch (unique × tool price), charged at creation when paid with a key. */
  priceMicros: number;
  createdAt: number;
}

export interface NewBatch {
  id: string;
  tool: string;
  payer: Payer;
  now: number;
  /** One task per distinct input; each is charged its own price so failures refund it alone. */
  tasks: NewTask[];
  /** For every input position, the index into `tasks` of the task that answers it. */
  itemTasks: number[];
  /** Position of the first item (0 for a new batch; the batch's total when appending). */
  firstIndex?: number;
  /** Where to POST batch.completed once every task has finished (docs/webhooks.md). */
  webhook?: TaskWebhook | null;
  /** The session that alone runs the batch's tasks while it lives (NewTask.session). */
  session?: string | null;
}

export type AppendBatchOutcome =
  { kind: 'created'; batch: BatchRow; firstIndex: number } | { kind: 'insufficient_credits'; balanceMicros: number } | { kind: 'key_invalid' };

export type CreateBatchOutcome = { kind: 'created'; batch: BatchRow } | { kind: 'insufficient_credits'; balanceMicros: number } | { kind: 'key_invalid' };

export type BatchCounts = Record<TaskStatus, number>;

export interface BatchItem {
  index: number;
  /** Null once retention deleted the task. */
  task: TaskRow | null;
}

/** An item as a results page plans it: its task's status, error and the size of its result, not the result. */
export interface BatchItemRef {
  index: number;
  /** Null once retention deleted the task. */
  taskId: string | null;
  status: TaskStatus | null;
  error: string | null;
  /** Bytes of the stored result's JSON (null when there is none). */
  resultBytes: number | null;
}

export interface BatchStore {
  /** Creates the batch, its tasks and its item map in one transaction, charging `chargeKeyId` the total. */
  createBatch(batch: NewBatch, opts?: { chargeKeyId?: string }): Promise<CreateBatchOutcome>;
  /**
   * Adds tasks (one item each) at the end of a batch, creating the batch if it does not exist yet, charging
   * `chargeKeyId` their total in the same transaction: a batch that grows as it runs (a crawl's pages).
   */
  appendBatch(batch: NewBatch, opts?: { chargeKeyId?: string }): Promise<AppendBatchOutcome>;
  getBatch(id: string): Promise<BatchRow | null>;
  /** Items (not tasks) by their task's status: duplicates count once per input position. */
  batchCounts(id: string): Promise<BatchCounts>;
  /** Items from position `from` on, in input order. */
  listBatchItems(id: string, from: number, limit: number): Promise<BatchItem[]>;
  /** The same items without their tasks' results (sizes only), so a reader can budget before it reads them. */
  listBatchItemRefs(id: string, from: number, limit: number): Promise<BatchItemRef[]>;
  /** One task's result alone (null when it has none or is gone). */
  getTaskResult(taskId: string): Promise<unknown>;
  /** Pending tasks of the batch → cancelled and refunded; running ones flagged. Returns those cancelled now. */
  cancelBatch(id: string, now: number): Promise<TaskRow[]>;
}
