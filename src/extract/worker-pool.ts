// A small pool of worker threads for CPU-bound jobs that must not hold the event loop: converting a 4 MB page
// takes seconds of pure computation, and on the service's own thread every other caller's request would
// wait for it. Jobs queue in arrival order; each worker runs one job at a time. A job whose caller gives up
// (its signal aborts) while it runs has its worker terminated (synchronous code cannot be interrupted any
// other way) and a fresh worker takes the next job; a worker that dies (out of memory on a hostile page)
// fails only its own job. Idle workers do not keep the process alive.
import { Worker } from 'node:worker_threads';
import { ToolError } from '../errors.js';

export interface WorkerPoolOptions {
  /** The worker's module (a file URL of built JavaScript). */
  script: URL;
  size: number;
  /** Heap limit of each worker, so one hostile page fails its job instead of the process. */
  maxHeapMb?: number;
}

interface Job {
  message: unknown;
  signal: AbortSignal | undefined;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  /** Set once the worker erred, exited or was terminated: it takes no more jobs. */
  gone: boolean;
}

/** What a worker posts back for each job. */
export type WorkerReply = { ok: true; value: unknown } | { ok: false; error: string; toolErrorKind?: ToolError['kind'] };

export class WorkerPool {
  private readonly queue: Job[] = [];
  private readonly idle: Slot[] = [];
  private live = 0;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  run<T>(message: unknown, signal?: AbortSignal): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const job: Job = { message, signal, resolve: resolve as (value: unknown) => void, reject };
      // A caller that gives up while queued leaves the queue at once.
      signal?.addEventListener(
        'abort',
        () => {
          const at = this.queue.indexOf(job);
          if (at >= 0) {
            this.queue.splice(at, 1);
            reject(signal.reason);
          }
        },
        { once: true },
      );
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Terminates every worker; queued jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the worker pool is closed'));
    await Promise.all(this.idle.splice(0).map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.idle.pop() ?? (this.live < this.options.size ? this.spawn() : undefined);
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    this.live++;
    const limits = this.options.maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb } } : {};
    const worker = new Worker(this.options.script, limits);
    const slot: Slot = { worker, job: undefined, gone: false };
    worker.on('message', (reply: WorkerReply) => {
      const job = slot.job;
      if (!job) return;
      this.finish(slot);
      if (reply.ok) job.resolve(reply.value);
      else job.reject(reply.toolErrorKind ? new ToolError(reply.error, reply.toolErrorKind) : new Error(reply.error));
    });
    worker.on('error', (err) => this.lose(slot, err));
    worker.on('exit', (code) => this.lose(slot, new Error(`the extraction worker stopped (exit code ${code})`)));
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    job.signal?.addEventListener('abort', () => this.abandon(slot, job), { once: true });
    slot.worker.postMessage(job.message);
  }

  private finish(slot: Slot): void {
    slot.job = undefined;
    slot.worker.unref();
    this.idle.push(slot);
    this.dispatch();
  }

  /** The caller gave up on a running job: its worker is stopped, and another is made for what waits. */
  private abandon(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    job.reject(job.signal?.reason);
    slot.job = undefined;
    void slot.worker.terminate();
  }

  /** A worker that errs or exits is gone (both events may come): its job, if any, fails; another may take its place. */
  private lose(slot: Slot, err: Error): void {
    if (slot.gone) return;
    slot.gone = true;
    this.live--;
    const at = this.idle.indexOf(slot);
    if (at >= 0) this.idle.splice(at, 1);
    const job = slot.job;
    slot.job = undefined;
    job?.reject(err);
    if (!this.closed) this.dispatch();
  }
}
