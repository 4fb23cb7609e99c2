// A plain tools/call, the same for both protocol eras: validate, submit the engine task, relay its progress
// and task events, wait until it settles and answer with its result. Only how notifications travel and
// how the caller's log level is known differ between the v1 (2025-11-25) and v2 (2026-07-28) servers, so
// those come in as functions.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../engine/engine.js';
import { isTerminal } from '../engine/task-view.js';
import type { Logger } from '../logger.js';
import type { TaskRow } from '../store/port.js';
import { toCallToolResult, type CallResultDeps } from './call-result.js';
import { callerKey, submitOptions, type Caller } from '../web/caller.js';
import type { TaskWebhook } from '../store/task-row.js';
import { webhookBesideCall } from '../webhooks/beside-call.js';
import { appErrorResult, rpcError } from './errors.js';
import type { InFlightCalls } from './in-flight.js';
import { ProgressRelay } from './progress.js';
import { keepNotificationGap } from './notification-gap.js';
import { TaskLogRelay, type LogLevelName } from './task-log.js';

/** Long calls re-check their task at least this often even without a settle event (another process). */
const WAIT_SLICE_MS = 60_000;

export interface CallDeps {
  engine: Engine;
  caller: Caller;
  log: Logger;
  resultDeps: CallResultDeps;
  /** Whether the request being aborted (cancel notification, or the client going away) cancels the task. */
  cancelOnAbort: boolean;
  inFlight?: InFlightCalls;
}

export interface CallContext {
  /** The call's `_meta`: may carry `webhook_url` / `webhook_events` (src/webhooks/beside-call.ts). */
  meta?: unknown;
  requestId: string | number;
  signal: AbortSignal;
  progressToken?: string | number;
  /** Sends a notification related to this request (on its response stream). */
  notify: (n: { method: string; params: Record<string, unknown> }) => Promise<void>;
  /** Whether a log message at this level goes to the caller. */
  wantsLog: (level: LogLevelName) => boolean;
}

export async function callAndWait(d: CallDeps, spec: string, args: unknown, ctx: CallContext): Promise<CallToolResult> {
  const { engine, caller, log } = d;
  let input: unknown;
  let webhook: TaskWebhook | null;
  try {
    input = await engine.validate(spec, args ?? {}, { chargeKeyId: submitOptions(caller).chargeKeyId });
    webhook = await webhookBesideCall([ctx.meta], spec, caller.chargeKeyId, engine);
  } catch (err) {
    return appErrorResult(err, log);
  }
  const { progressToken } = ctx;
  let lastNotifiedAt = 0;
  const notify: CallContext['notify'] = async (n) => {
    await ctx.notify(n);
    lastNotifiedAt = Date.now();
  };
  const relay =
    progressToken === undefined
      ? undefined
      : new ProgressRelay(
          engine.events,
          (p) => notify({ method: 'notifications/progress', params: { progressToken, ...p } }),
          (err) => log.debug('progress notification not sent', { err }),
        );
  const taskLog = new TaskLogRelay(engine.events, ctx.wantsLog, notify, (err) => log.debug('log notification not sent', { err }));
  let task: TaskRow;
  try {
    task = (await engine.submitValidated(spec, input, { ...submitOptions(caller), ...(webhook ? { webhook } : {}) })).task;
  } catch (err) {
    relay?.stop();
    taskLog.stop();
    return appErrorResult(err, log);
  }
  relay?.bind(task.id);
  taskLog.bind(task);
  const release = d.inFlight?.add(callerKey(caller), ctx.requestId, task.id);
  const taskId = task.id;
  const onAbort = () => {
    engine.cancel(taskId).catch((err: unknown) => log.warn('could not cancel task', { task: taskId, err }));
  };
  if (d.cancelOnAbort) ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const settled = await waitUntilSettled(engine, taskId, ctx.signal);
    // MCP drops progress that arrives after the result, and so does the client: send it first.
    await relay?.finish();
    await taskLog.finish();
    const result = await toCallToolResult(settled, d.resultDeps);
    await keepNotificationGap(lastNotifiedAt);
    return result;
  } finally {
    taskLog.stop();
    ctx.signal.removeEventListener('abort', onAbort);
    release?.();
    relay?.stop();
  }
}

/** The task once terminal, or as it is when `signal` aborts (the caller stopped waiting). */
export async function waitUntilSettled(engine: Engine, taskId: string, signal: AbortSignal): Promise<TaskRow> {
  for (;;) {
    const task = await engine.waitFor(taskId, WAIT_SLICE_MS, signal);
    if (!task) throw rpcError(-32603, `Task ${taskId} disappeared while running.`);
    if (isTerminal(task.status) || signal.aborted) return task;
  }
}
