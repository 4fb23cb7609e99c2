// The MCP tasks API on our own task store. An MCP task *is* an engine task (same id, same row): it survives
// restarts, is visible to REST as well, and tasks/cancel reaches the worker through the engine. Tasks are
// bound to the caller's identity (the payer), never to the MCP session, so a stateless HTTP client can
// create a task in one request and read it in the next, and nobody sees another caller's tasks.
import type { CreateTaskOptions, TaskStore as McpTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { ErrorCode, type CallToolResult, type Request, type RequestId, type Result, type Task } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import type { Engine } from '../engine/engine.js';
import { isTerminal } from '../engine/task-view.js';
import type { TaskRow, TaskStatus } from '../store/port.js';
import type { Logger } from '../logger.js';
import { ownsTask, type Caller } from '../web/caller.js';
import { rpcError, toMcpError } from './errors.js';

const STATUS: Record<TaskStatus, Task['status']> = {
  pending: 'working',
  running: 'working',
  complete: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

const LIST_PAGE = 50;
/** How long tasks/cancel waits for the worker to stop, so the answer usually shows "cancelled". */
const CANCEL_SETTLE_MS = 5_000;

/** Poll interval suggested to clients: the engine's, but never above 500 ms. */
export function mcpPollInterval(config: Config): number {
  return Math.min(500, config.engine.pollIntervalMs);
}

export function toMcpTask(row: TaskRow, config: Config): Task {
  const status = STATUS[row.status];
  const updated = row.finishedAt ?? row.startedAt ?? row.createdAt;
  const message =
    row.status === 'pending'
      ? `Queued (${row.tool}).`
      : row.status === 'running'
        ? `Running ${row.tool}, attempt ${row.attempts}${row.cancelRequested ? ', cancellation requested' : ''}.`
        : (row.error ?? undefined);
  return {
    taskId: row.id,
    status,
    ttl: config.engine.retentionMs,
    createdAt: new Date(row.createdAt).toISOString(),
    lastUpdatedAt: new Date(updated).toISOString(),
    ...(isTerminal(row.status) ? {} : { pollInterval: mcpPollInterval(config) }),
    ...(message ? { statusMessage: message } : {}),
  };
}

export interface EngineTaskStoreDeps {
  engine: Engine;
  config: Config;
  caller: Caller;
  /** Validates, charges and creates the engine task for a tools/call request (throws McpError). */
  createForCall(request: Request): Promise<TaskRow>;
  /** The CallToolResult of a settled task. */
  resultOf(task: TaskRow): Promise<CallToolResult>;
  log: Logger;
}

export class EngineTaskStore implements McpTaskStore {
  constructor(private readonly d: EngineTaskStoreDeps) {}

  async createTask(_params: CreateTaskOptions, _requestId: RequestId, request: Request): Promise<Task> {
    return this.safely(async () => toMcpTask(await this.d.createForCall(request), this.d.config));
  }

  async getTask(taskId: string): Promise<Task | null> {
    return this.safely(async () => {
      const row = await this.owned(taskId);
      return row ? toMcpTask(row, this.d.config) : null;
    });
  }

  async storeTaskResult(): Promise<void> {
    // Workers settle tasks in the engine; no MCP handler ever produces a result itself.
    throw rpcError(ErrorCode.InvalidRequest, 'Task results are stored by the task engine, not through MCP.');
  }

  async getTaskResult(taskId: string): Promise<Result> {
    return this.safely(async () => {
      const row = await this.owned(taskId);
      if (!row) throw rpcError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
      if (!isTerminal(row.status)) throw rpcError(ErrorCode.InvalidRequest, `Task ${taskId} has not finished yet.`);
      return this.d.resultOf(row);
    });
  }

  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    if (status !== 'cancelled') {
      throw rpcError(ErrorCode.InvalidRequest, `Only cancellation can change a task from outside (asked: ${status}).`);
    }
    await this.safely(async () => {
      const row = await this.owned(taskId);
      if (!row) throw rpcError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
      const after = await this.d.engine.cancel(taskId);
      if (after && !isTerminal(after.status)) await this.d.engine.waitFor(taskId, CANCEL_SETTLE_MS);
    });
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    let before: number | undefined;
    if (cursor !== undefined) {
      before = Number(cursor);
      if (!Number.isSafeInteger(before) || before <= 0) throw rpcError(ErrorCode.InvalidParams, 'Invalid cursor.');
    }
    const rows = await this.safely(() => this.d.engine.listByPayer(this.d.caller.payer, LIST_PAGE, before));
    const last = rows.at(-1);
    return {
      tasks: rows.map((r) => toMcpTask(r, this.d.config)),
      ...(rows.length === LIST_PAGE && last ? { nextCursor: String(last.createdAt) } : {}),
    };
  }

  /** Store faults are logged and answered generically (the SDK would echo their message). */
  private async safely<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw toMcpError(err, this.d.log);
    }
  }

  /** The task if it belongs to this caller; another caller's task is reported as not found. */
  private async owned(taskId: string): Promise<TaskRow | null> {
    const row = await this.d.engine.get(taskId);
    return row && ownsTask(this.d.caller, row) ? row : null;
  }
}

/**
 * A task store whose target is set after the server is built: stdio answers `initialize` before the engine
 * has booted. Nothing reaches it earlier (GatedTransport holds every tasks/* request until then).
 */
export class LateTaskStore implements McpTaskStore {
  target: McpTaskStore | undefined;

  private get ready(): McpTaskStore {
    if (!this.target) throw rpcError(ErrorCode.InternalError, 'The task engine is still starting; retry in a moment.');
    return this.target;
  }

  createTask(...args: Parameters<McpTaskStore['createTask']>): Promise<Task> {
    return this.ready.createTask(...args);
  }

  getTask(...args: Parameters<McpTaskStore['getTask']>): Promise<Task | null> {
    return this.ready.getTask(...args);
  }

  storeTaskResult(...args: Parameters<McpTaskStore['storeTaskResult']>): Promise<void> {
    return this.ready.storeTaskResult(...args);
  }

  getTaskResult(...args: Parameters<McpTaskStore['getTaskResult']>): Promise<Result> {
    return this.ready.getTaskResult(...args);
  }

  updateTaskStatus(...args: Parameters<McpTaskStore['updateTaskStatus']>): Promise<void> {
    return this.ready.updateTaskStatus(...args);
  }

  listTasks(...args: Parameters<McpTaskStore['listTasks']>): Promise<{ tasks: Task[]; nextCursor?: string }> {
    return this.ready.listTasks(...args);
  }
}
