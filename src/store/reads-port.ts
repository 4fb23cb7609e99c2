// Reads over a caller's tasks (GET /v1/tasks, GET /v1/usage) and the operator's counts.
import type { Payer, TaskRow, TaskStatus } from './task-row.js';

/** A caller's tasks, newest first; `before`/`beforeId` continue after the last row of the previous page. */
export interface TaskListQuery {
  payer: Payer;
  limit: number;
  status?: TaskStatus;
  tool?: string;
  /** Only tasks created at or after this time. */
  since?: number;
  before?: number;
  /** Breaks ties among tasks created in the same millisecond as `before`. */
  beforeId?: string;
  /**
   * How many bytes of results the page may carry (default LIST_RESULT_BUDGET_BYTES): results are read
   * newest first while their sizes add up to at most this; the others come back as null with
   * `resultOmitted`. 0 reads none. A listing's memory is bounded by this, whatever the tasks hold.
   */
  resultBudgetBytes?: number;
}

/** The default result budget of one listing page. */
export const LIST_RESULT_BUDGET_BYTES = 1024 * 1024;

/** A listed task: the input is never read (listings do not show it), and a result past the budget is left out. */
export type ListedTask = Omit<TaskRow, 'input'> & { input: null; resultOmitted?: true };

/** A caller's tasks created in [from, to), grouped by tool or by UTC day. */
export interface UsageQuery {
  payer: Payer;
  from: number;
  to: number;
  group: 'tool' | 'day';
}

export interface UsageRow {
  /** The tool name, or the UTC day as YYYY-MM-DD. */
  bucket: string;
  tasks: number;
  failed: number;
  cancelled: number;
  chargedMicros: number;
  refundedMicros: number;
}

/** Tasks waiting for a worker (pending) and running. */
export interface QueueCounts {
  queueDepth: number;
  running: number;
}

/** How many tasks of one tool wait for a worker or run. */
export interface ActiveByTool {
  tool: string;
  status: 'pending' | 'running';
  count: number;
}

export interface StoreStats extends QueueCounts {
  byToolStatus: { tool: string; status: TaskStatus; count: number }[];
}

export interface TaskReads {
  /** The filtered, paged list behind GET /v1/tasks. */
  listTasks(q: TaskListQuery): Promise<ListedTask[]>;
  /** Counts and money per tool or per day; only tasks still kept (see RETENTION) are counted. */
  usage(q: UsageQuery): Promise<UsageRow[]>;
  /** Every task counted by tool and status: reads the whole table (operators' pages and /metrics). */
  stats(): Promise<StoreStats>;
  /** The queue alone, from the pending and running indexes: cheap whatever the store holds (/healthz). */
  queueCounts(): Promise<QueueCounts>;
  /** Pending and running tasks by tool, from the same indexes (/metrics). */
  activeByTool(): Promise<ActiveByTool[]>;
}
