// Runs one attempt of one task: builds the tool context, enforces the tool's timeout and cancellation,
// checks the output against the tool's schema, and decides the outcome. It settles nothing itself;
// the worker pool turns the outcome into a store transition (which requires holding the lease).
import { ToolError } from '../errors.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { AnyTool, ToolContext } from '../registry/define-tool.js';
import type { ServiceScope } from '../registry/services.js';
import type { FailureKind, TaskRow } from '../store/port.js';

export type AttemptOutcome =
  | { kind: 'complete'; result: unknown }
  | { kind: 'retry'; error: string; delayMs: number }
  | { kind: 'fail'; error: string; failure: FailureKind; refund: boolean; code?: string }
  /** The lease was lost or the process is stopping: leave the task for whoever holds it next. */
  | { kind: 'abandon' };

export class AbortReason extends Error {
  constructor(
    readonly reason: 'cancelled' | 'timeout' | 'lease-lost' | 'shutdown',
    message: string,
  ) {
    super(message);
  }
}

export interface AttemptDeps {
  config: Config;
  log: Logger;
  scope: ServiceScope;
  onProgress(done: number, total?: number, message?: string): void;
}

/** Exponential backoff with full jitter: 0.5 s, 1 s, 2 s … capped at 30 s. */
export function backoffMs(attempt: number): number {
  const ceiling = Math.min(30_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

const codeOf = (err: ToolError) => (err.errorCode !== undefined ? { code: err.errorCode } : {});

export async function runAttempt(tool: AnyTool, task: TaskRow, controller: AbortController, deps: AttemptDeps): Promise<AttemptOutcome> {
  const log = deps.log.child({ task: task.id, tool: tool.name, attempt: task.attempts });
  const timer = setTimeout(
    () => controller.abort(new AbortReason('timeout', `The tool did not finish within its ${tool.timeoutMs} ms limit.`)),
    tool.timeoutMs,
  );
  const ctx: ToolContext = {
    taskId: task.id,
    idempotencyKey: task.id,
    payerScope: `${task.payer.kind}:${task.payer.id ?? ''}`,
    attempt: task.attempts,
    signal: controller.signal,
    config: deps.config,
    log,
    use: (def) => deps.scope.use(def),
    progress: (done, total, message) => deps.onProgress(done, total, message),
  };
  // A tool that ignores its signal must not hold the task past its timeout or a cancellation.
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(controller.signal.reason);
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener('abort', onAbort, { once: true });
  });
  // Once the race is decided nobody awaits this promise; a later abort must not become an unhandled rejection.
  aborted.catch(() => undefined);
  try {
    const result = await Promise.race([tool.run(ctx, task.input), aborted]);
    const checked = tool.output.safeParse(result);
    if (!checked.success) {
      log.error('tool returned output that does not match its schema', { issues: checked.error.issues.slice(0, 5) });
      return { kind: 'fail', error: 'The tool produced an invalid result; the fault was logged.', failure: 'internal', refund: true };
    }
    return { kind: 'complete', result: checked.data };
  } catch (err) {
    const reason = controller.signal.aborted ? controller.signal.reason : undefined;
    if (reason instanceof AbortReason) {
      switch (reason.reason) {
        case 'cancelled':
          return { kind: 'fail', error: reason.message, failure: 'cancelled', refund: true };
        case 'timeout':
          return { kind: 'fail', error: reason.message, failure: 'timeout', refund: true };
        default:
          return { kind: 'abandon' };
      }
    }
    if (err instanceof ToolError) {
      if (err.kind === 'transient') {
        if (!tool.sideEffects && task.attempts < task.maxAttempts) {
          return { kind: 'retry', error: err.message, delayMs: backoffMs(task.attempts) };
        }
        return { kind: 'fail', error: err.message, failure: 'transient', refund: true, ...codeOf(err) };
      }
      return { kind: 'fail', error: err.message, failure: err.kind, refund: err.kind !== 'input', ...codeOf(err) };
    }
    log.error('tool failed unexpectedly', { err });
    return { kind: 'fail', error: 'The tool failed unexpectedly; the fault was logged.', failure: 'internal', refund: true };
  } finally {
    clearTimeout(timer);
  }
}
