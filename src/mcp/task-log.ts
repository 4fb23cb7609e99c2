// logging/setLevel and the caller's task events as notifications/message. The level is remembered per
// caller for the life of the process, not per connection: streamable HTTP is stateless here (a fresh
// server per request), so a level set in one POST must still apply to the tools/call in the next.
// Messages travel with the tools/call that created the task (its response stream), so they reach the
// client on both transports; nothing is sent until the caller has set a level.
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { EngineEvents } from '../engine/events.js';
import type { TaskRow } from '../store/port.js';

export type LogLevelName = LoggingLevel;

const SEVERITY: Record<LoggingLevel, number> = { debug: 0, info: 1, notice: 2, warning: 3, error: 4, critical: 5, alert: 6, emergency: 7 };

/** Whether a message at `level` passes a minimum level `min` (nothing passes when no minimum was chosen). */
export function passes(min: LoggingLevel | undefined, level: LoggingLevel): boolean {
  return min !== undefined && SEVERITY[level] >= SEVERITY[min];
}

/** Each caller's chosen minimum level (keyed by callerKey). */
export class LogLevels {
  private readonly levels = new Map<string, LoggingLevel>();

  get(caller: string): LoggingLevel | undefined {
    return this.levels.get(caller);
  }

  set(caller: string, level: LoggingLevel): void {
    this.levels.set(caller, level);
  }

  /** Whether a message at `level` goes to this caller. */
  wants(caller: string, level: LoggingLevel): boolean {
    return passes(this.levels.get(caller), level);
  }
}

/** Process-wide, like the caller's tasks themselves. */
export const logLevels = new LogLevels();

type Send = (n: { method: 'notifications/message'; params: Record<string, unknown> }) => Promise<void>;

/**
 * Logs one call's task: created (info), running (info), complete (notice), failed (error), cancelled
 * (warning). Subscribed before submit, because a fast worker may start the task before its id is known.
 */
export class TaskLogRelay {
  private taskId: string | undefined;
  private readonly early: [TaskRow, 'started' | 'settled'][] = [];
  private readonly sent = new Set<Promise<void>>();

  private readonly onStarted = (task: TaskRow) => this.seen(task, 'started');
  private readonly onSettled = (task: TaskRow) => this.seen(task, 'settled');

  constructor(
    private readonly events: EngineEvents,
    private readonly wants: (level: LoggingLevel) => boolean,
    private readonly send: Send,
    private readonly onError: (err: unknown) => void,
  ) {
    events.on('started', this.onStarted);
    events.on('settled', this.onSettled);
  }

  bind(task: TaskRow): void {
    this.taskId = task.id;
    this.log('info', task, 'created');
    for (const [t, kind] of this.early.splice(0)) this.seen(t, kind);
  }

  /** Waits for the messages already sent: MCP clients drop notifications that follow the result. */
  async finish(): Promise<void> {
    await Promise.all([...this.sent]);
  }

  stop(): void {
    this.events.off('started', this.onStarted);
    this.events.off('settled', this.onSettled);
  }

  private seen(task: TaskRow, kind: 'started' | 'settled'): void {
    if (this.taskId === undefined) {
      this.early.push([task, kind]);
      return;
    }
    if (task.id !== this.taskId) return;
    if (kind === 'started') this.log('info', task, 'running');
    else if (task.status === 'complete') this.log('notice', task, 'complete');
    else if (task.status === 'failed') this.log('error', task, 'failed', task.error ?? undefined);
    else if (task.status === 'cancelled') this.log('warning', task, 'cancelled', task.error ?? undefined);
  }

  private log(level: LoggingLevel, task: TaskRow, event: string, error?: string): void {
    if (!this.wants(level)) return;
    const data = { event, task_id: task.id, tool: task.tool, status: task.status, ...(error ? { error } : {}) };
    const p = this.send({ method: 'notifications/message', params: { level, logger: 'agent-utility/tasks', data } })
      .catch(this.onError)
      .finally(() => this.sent.delete(p));
    this.sent.add(p);
  }
}
