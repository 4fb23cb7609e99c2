// The public shape of a task (the documented Task object plus a few additive fields), shared by every
// front door so REST, MCP and A2A show the same thing.
import type { TaskRow, TaskStatus } from '../store/port.js';
import { boundedResult, type ResultBound } from './result-view.js';

export interface TaskView {
  task_id: string;
  status: TaskStatus;
  tool: string;
  result: unknown;
  error: string | null;
  /** A stable code naming why a failed task failed (e.g. BLOCKED_BY_SITE), when there is one. */
  error_code?: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  attempts: number;
  /** Present (true) while a running task has been asked to stop and its worker has not settled it yet. */
  cancel_requested?: true;
  price_usd?: string;
  payment?: Record<string, unknown>;
  /** In a listing: the result is left out to keep the page small; GET /v1/tasks/{id} has it. */
  result_omitted?: true;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The task as every door shows it; with `bound`, a bounded tool's result is one window of it (a listing row has no input: the door's default window). */
export function toTaskView(t: Omit<TaskRow, 'input'> & { input?: unknown; resultOmitted?: true }, bound?: ResultBound): TaskView {
  return {
    task_id: t.id,
    status: t.status,
    tool: t.tool,
    result: t.status !== 'complete' ? null : bound ? boundedResult(t, bound) : t.result,
    error: t.status === 'failed' || t.status === 'cancelled' ? t.error : null,
    ...(t.status === 'failed' && t.errorCode ? { error_code: t.errorCode } : {}),
    created_at: iso(t.createdAt)!,
    started_at: iso(t.startedAt),
    finished_at: iso(t.finishedAt),
    attempts: t.attempts,
    ...(t.status === 'running' && t.cancelRequested ? { cancel_requested: true as const } : {}),
    ...(t.payment ? { payment: t.payment } : {}),
    ...(t.resultOmitted ? { result_omitted: true as const } : {}),
  };
}

export function isTerminal(status: TaskStatus): boolean {
  return status === 'complete' || status === 'failed' || status === 'cancelled';
}
