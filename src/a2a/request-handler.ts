// The A2A request handler over the task engine. SendMessage with {tool, input} creates an engine task
// charged to the caller's API key exactly like REST, and (unless the client asked to return immediately)
// waits for it; GetTask, ListTasks and CancelTask read and cancel the same tasks, the caller's own only.
// Streaming, resubscription and push notifications are not offered (the card says so).
import type {
  AgentCard,
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  Task,
} from '@a2a-js/sdk';
import {
  A2AError,
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext, User } from '@a2a-js/sdk/server';
import type { Engine } from '../engine/engine.js';
import { isTerminal } from '../engine/task-view.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { TaskRow } from '../store/port.js';
import { keyCaller, ownsTask, submitOptions, type Caller } from '../web/caller.js';
import { webhookBesideCall } from '../webhooks/beside-call.js';
import { MessageNotUnderstood, toolCallOf } from './message-input.js';
import { toA2ATask } from './task-mapping.js';

/** A blocking SendMessage waits at most this long, then returns the task as it is (poll with GetTask). */
const BLOCKING_WAIT_MS = 90_000;
const CANCEL_SETTLE_MS = 5_000;
const MAX_PAGE = 100;

/** The caller behind an A2A request: authenticated by its API key before the SDK sees the request. */
export class ApiKeyUser implements User {
  constructor(readonly keyId: string) {}
  get isAuthenticated(): boolean {
    return true;
  }
  get userName(): string {
    return this.keyId;
  }
}

export class EngineA2AHandler implements A2ARequestHandler {
  constructor(
    private readonly engine: Engine,
    private readonly registry: ToolRegistry,
    private readonly card: AgentCard,
    private readonly log: Logger,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError('This agent has no extended card; the public card lists every skill.');
  }

  async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    const caller = callerOf(context);
    let call;
    try {
      call = toolCallOf(params.message, this.registry);
    } catch (err) {
      if (err instanceof MessageNotUnderstood) throw new RequestMalformedError(err.message);
      throw err;
    }
    let task: TaskRow;
    try {
      // Webhook options ride in the request's metadata (or its message's), never in the tool's input.
      const input = await this.engine.validate(call.tool, call.input, { chargeKeyId: submitOptions(caller).chargeKeyId });
      const webhook = await webhookBesideCall([params.metadata, params.message?.metadata], call.tool, caller.chargeKeyId, this.engine);
      task = (await this.engine.submitValidated(call.tool, input, { ...submitOptions(caller), ...(webhook ? { webhook } : {}) })).task;
    } catch (err) {
      throw toA2AError(err, this.log);
    }
    if (!params.configuration?.returnImmediately) task = (await this.engine.waitFor(task.id, BLOCKING_WAIT_MS)) ?? task;
    return toA2ATask(task, this.engine.registry);
  }

  sendMessageStream(): AsyncGenerator<StreamResponse, void, undefined> {
    return refuse(new UnsupportedOperationError('Streaming is not supported: use SendMessage, then GetTask.'));
  }

  resubscribe(): AsyncGenerator<StreamResponse, void, undefined> {
    return refuse(new UnsupportedOperationError('Streaming is not supported: poll with GetTask.'));
  }

  async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    return toA2ATask(await this.owned(params.id, callerOf(context)), this.engine.registry);
  }

  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await this.owned(params.id, callerOf(context));
    if (isTerminal(task.status)) throw new TaskNotCancelableError(`Task ${task.id} has already finished (${task.status}).`);
    let after = (await this.engine.cancel(task.id)) ?? task;
    // A running task stops when its worker sees the request; wait briefly so the answer usually says so.
    if (!isTerminal(after.status)) after = (await this.engine.waitFor(task.id, CANCEL_SETTLE_MS)) ?? after;
    return toA2ATask(after, this.engine.registry);
  }

  async listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const caller = callerOf(context);
    const pageSize = Math.min(MAX_PAGE, Math.max(1, params.pageSize ?? 50));
    let before: number | undefined;
    if (params.pageToken) {
      before = Number(params.pageToken);
      if (!Number.isSafeInteger(before) || before <= 0) throw new RequestMalformedError('Invalid pageToken.');
    }
    const rows = await this.engine.listByPayer(caller.payer, pageSize, before);
    const last = rows.at(-1);
    // Pages of the caller's tasks, newest first. The store keeps no per-caller totals, so totalSize is
    // this page's size, and the contextId/status filters are not applied (documented in docs/mcp.md).
    return {
      tasks: rows.map((t) => toA2ATask(t, this.engine.registry)),
      nextPageToken: rows.length === pageSize && last ? String(last.createdAt) : '',
      pageSize,
      totalSize: rows.length,
    };
  }

  async createTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError('Push notifications are not supported: poll with GetTask.');
  }

  async getTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError('Push notifications are not supported.');
  }

  async listTaskPushNotificationConfigs(): Promise<never> {
    throw new PushNotificationNotSupportedError('Push notifications are not supported.');
  }

  async deleteTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError('Push notifications are not supported.');
  }

  /** The caller's task; another caller's task is reported as not found. */
  private async owned(id: string, caller: Caller): Promise<TaskRow> {
    const task = await this.engine.get(id);
    if (!task || !ownsTask(caller, task)) throw new TaskNotFoundError(`No task ${id} of yours (finished tasks are kept for a limited time).`);
    return task;
  }
}

function callerOf(context: ServerCallContext): Caller {
  const user = context.user;
  // The router authenticates every request first; reaching here without a key is a wiring fault.
  if (!(user instanceof ApiKeyUser)) throw new A2AError('The request was not authenticated.');
  return keyCaller(user.keyId);
}

/** Our refusals keep their sentence; a request the caller must change is RequestMalformed (-32602). */
function toA2AError(err: unknown, log: Logger): Error {
  if (!(err instanceof AppError)) {
    // A real fault: logged in full, answered without its details.
    log.error('a2a request failed', { err });
    return new A2AError('Internal server error; it was logged. Retry later.');
  }
  const metadata = { code: err.code, status: String(err.status), ...(err.field !== undefined ? { field: err.field } : {}) };
  const message = err.message;
  return err.status < 500 ? new RequestMalformedError({ message, metadata }) : new A2AError({ message, metadata });
}

function refuse(err: Error): AsyncGenerator<StreamResponse, void, undefined> {
  return {
    next: () => Promise.reject(err),
    return: () => Promise.resolve({ done: true, value: undefined }),
    throw: (e: unknown) => Promise.reject(e),
    [Symbol.asyncIterator]() {
      return this;
    },
  } as AsyncGenerator<StreamResponse, void, undefined>;
}
