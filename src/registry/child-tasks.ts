// Child tasks: a tool whose task fans out into tasks of its own (site.crawl: one task per page). The
// children are the items of a batch named after the parent task, so leases, retries, fair share, refunds,
// cancellation and paged results are the batch machinery's, unchanged. The runtime provides the service
// (it needs the engine, which tools may not import); a tool reaches it through ctx.use.
import { defineService } from './services.js';

export type ChildStatus = 'pending' | 'running' | 'complete' | 'failed' | 'cancelled' | 'expired';

export interface NewChild {
  input: unknown;
  /** Charged to the parent's payer when the child is created, refunded if it fails through no fault of its input. */
  priceMicros: number;
}

export interface ChildItem {
  /** Position in the batch: the order children were created in. */
  index: number;
  taskId: string | null;
  status: ChildStatus;
  input: unknown;
  result: unknown;
  error: string | null;
}

export type AppendOutcome =
  | { kind: 'created'; firstIndex: number; taskIds: string[] }
  | { kind: 'insufficient_credits'; balanceMicros: number }
  | { kind: 'key_invalid' }
  /** The parent was paid with x402 and its tool declares no childrenBudget: one fixed payment cannot pay for children. */
  | { kind: 'needs_key' };

export interface ChildTasks {
  /** Creates children of `parentTaskId` (tasks of `tool`) at the end of its batch, charged in one transaction. */
  append(parentTaskId: string, tool: string, children: readonly NewChild[]): Promise<AppendOutcome>;
  /** Children from position `from` on, in creation order. */
  items(parentTaskId: string, from: number, limit: number): Promise<ChildItem[]>;
  /** The children's current state, by task id (absent once retention deleted them). */
  states(taskIds: readonly string[]): Promise<Map<string, ChildItem>>;
  /** Resolves once one of `taskIds` may have settled, or after `timeoutMs`. */
  waitForAny(taskIds: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<void>;
  /** Cancels (and refunds) the children not yet running; running ones are asked to stop. */
  cancel(parentTaskId: string): Promise<number>;
  /** A link to the children's results as JSONL, signed so it works without the key. */
  resultsUrl(parentTaskId: string): Promise<string>;
}

/** The batch holding a parent's children. */
export function childBatchId(parentTaskId: string): string {
  return `batch_of_${parentTaskId}`;
}

export const childTasksService = defineService<ChildTasks>({
  name: 'child-tasks',
  create() {
    throw new Error('child tasks need the engine: this process was built without a runtime (createRuntime provides them)');
  },
});
