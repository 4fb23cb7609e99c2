// In-process engine events. They only make things faster (wake a worker, answer a waiting poll early);
// correctness never depends on them, because workers and waiters also poll the store.
import { EventEmitter } from 'node:events';
import type { TaskRow } from '../store/port.js';

export interface EngineEventMap {
  submitted: [task: TaskRow];
  started: [task: TaskRow];
  settled: [task: TaskRow, durationMs: number | null];
  retrying: [task: TaskRow, error: string];
  'cancel-requested': [taskId: string];
  progress: [event: { taskId: string; done: number; total?: number; message?: string }];
}

export class EngineEvents extends EventEmitter<EngineEventMap> {
  constructor() {
    super();
    // Many concurrent waiters (?wait=, MCP calls) listen at once; that is expected, not a leak.
    this.setMaxListeners(0);
  }
}
