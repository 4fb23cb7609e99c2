// Forwards a task's progress as MCP notifications/progress for one call that gave a progressToken:
// "started" when a worker picks the task up, then whatever the tool reports. MCP requires the progress
// value to increase with each notification, so stale or repeated values are dropped.
import type { EngineEvents } from '../engine/events.js';
import type { TaskRow } from '../store/port.js';

export type ProgressSender = (params: { progress: number; total?: number; message?: string }) => Promise<void>;

export class ProgressRelay {
  private taskId: string | undefined;
  private readonly early: (() => void)[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private last = -1;

  private readonly onStarted = (task: TaskRow) => this.when(task.id, () => this.send(0, undefined, `Task ${task.id} started (attempt ${task.attempts}).`));
  private readonly onProgress = (e: { taskId: string; done: number; total?: number; message?: string }) =>
    this.when(e.taskId, () => this.send(e.done, e.total, e.message));

  // Subscribed before the task exists: a fast worker may start it before submit() returns.
  constructor(
    private readonly events: EngineEvents,
    private readonly sender: ProgressSender,
    private readonly onError: (err: unknown) => void,
  ) {
    events.on('started', this.onStarted);
    events.on('progress', this.onProgress);
  }

  /** Sets the task this relay reports on, replaying what arrived before the id was known. */
  bind(taskId: string): void {
    this.taskId = taskId;
    for (const replay of this.early.splice(0)) replay();
  }

  stop(): void {
    this.events.off('started', this.onStarted);
    this.events.off('progress', this.onProgress);
    this.early.length = 0;
  }

  /** Stops, then waits for notifications already handed to the transport, so none trails the result. */
  async finish(): Promise<void> {
    this.stop();
    await Promise.allSettled([...this.inFlight]);
  }

  private when(taskId: string, act: () => void): void {
    if (this.taskId === undefined) {
      // Only the few milliseconds between subscribing and bind() are buffered; cap it all the same.
      if (this.early.length < 100) {
        this.early.push(() => {
          if (this.taskId === taskId) act();
        });
      }
    } else if (taskId === this.taskId) act();
  }

  private send(progress: number, total?: number, message?: string): void {
    if (!(progress > this.last)) return;
    this.last = progress;
    const sent = this.sender({ progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) }).catch(this.onError);
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }
}
