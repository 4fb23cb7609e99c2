// Prometheus metrics for tasks: counters and a duration histogram fed by engine events, plus gauges
// read from the store at scrape time (so they are right across processes).
import type { EngineEvents } from './events.js';
import type { TaskStore } from '../store/port.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

export class TaskMetrics {
  private readonly created = new Map<string, number>();
  private readonly finished = new Map<string, number>();
  private readonly retries = new Map<string, number>();
  private readonly durations = new Map<string, Histogram>();
  private readonly extra: (() => string | Promise<string>)[] = [];

  constructor(events: EngineEvents) {
    events.on('submitted', (t) => inc(this.created, t.tool));
    events.on('retrying', (t) => inc(this.retries, t.tool));
    events.on('settled', (t, ms) => {
      inc(this.finished, `${t.tool}\u0000${t.status}`);
      if (ms !== null) this.observe(t.tool, ms / 1000);
    });
  }

  /** Other modules (x402 settlement) add their own lines. */
  addCollector(collect: () => string | Promise<string>): void {
    this.extra.push(collect);
  }

  private observe(tool: string, seconds: number): void {
    let h = this.durations.get(tool);
    if (!h) {
      h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.durations.set(tool, h);
    }
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) h.counts[i] = (h.counts[i] ?? 0) + 1;
    });
    h.sum += seconds;
    h.count++;
  }

  async render(store: TaskStore): Promise<string> {
    const lines: string[] = [];
    lines.push('# HELP agent_utility_tasks_created_total Tasks accepted by this process.', '# TYPE agent_utility_tasks_created_total counter');
    for (const [tool, n] of this.created) lines.push(`agent_utility_tasks_created_total{tool="${tool}"} ${n}`);
    lines.push(
      '# HELP agent_utility_tasks_finished_total Tasks settled by this process, by final status.',
      '# TYPE agent_utility_tasks_finished_total counter',
    );
    for (const [k, n] of this.finished) {
      const [tool, status] = k.split('\u0000');
      lines.push(`agent_utility_tasks_finished_total{tool="${tool}",status="${status}"} ${n}`);
    }
    lines.push('# HELP agent_utility_task_retries_total Transient failures retried.', '# TYPE agent_utility_task_retries_total counter');
    for (const [tool, n] of this.retries) lines.push(`agent_utility_task_retries_total{tool="${tool}"} ${n}`);
    lines.push('# HELP agent_utility_task_duration_seconds Run time of settled tasks.', '# TYPE agent_utility_task_duration_seconds histogram');
    for (const [tool, h] of this.durations) {
      BUCKETS.forEach((b, i) => lines.push(`agent_utility_task_duration_seconds_bucket{tool="${tool}",le="${b}"} ${h.counts[i]}`));
      lines.push(`agent_utility_task_duration_seconds_bucket{tool="${tool}",le="+Inf"} ${h.count}`);
      lines.push(`agent_utility_task_duration_seconds_sum{tool="${tool}"} ${h.sum}`);
      lines.push(`agent_utility_task_duration_seconds_count{tool="${tool}"} ${h.count}`);
    }
    lines.push(
      '# HELP agent_utility_store_errors_total Store statements that failed because the database was unavailable, by reason.',
      '# TYPE agent_utility_store_errors_total counter',
    );
    for (const [reason, n] of store.faults?.counts ?? []) lines.push(`agent_utility_store_errors_total{reason="${reason}"} ${n}`);
    if (store.faults) {
      lines.push(
        '# HELP agent_utility_store_lock_retries_total Store statements tried again because another process held the SQLite write lock.',
        '# TYPE agent_utility_store_lock_retries_total counter',
        `agent_utility_store_lock_retries_total ${store.faults.lockRetries}`,
      );
    }
    // Counters above are this process's own and always answer; the gauges below need the store.
    // Only the queue (pending and running), read from its indexes: a scrape must cost the queue's size,
    // not the store's (finished tasks are the counters above, per process).
    const active = await store.activeByTool().catch(() => undefined);
    lines.push('# HELP agent_utility_store_up 1 when the store answered this scrape, else 0.', '# TYPE agent_utility_store_up gauge');
    lines.push(`agent_utility_store_up ${active ? 1 : 0}`);
    if (active) {
      lines.push('# HELP agent_utility_tasks Tasks waiting for a worker or running, by tool and status.', '# TYPE agent_utility_tasks gauge');
      for (const r of active) lines.push(`agent_utility_tasks{tool="${r.tool}",status="${r.status}"} ${r.count}`);
      const pending = active.filter((r) => r.status === 'pending').reduce((n, r) => n + r.count, 0);
      lines.push('# HELP agent_utility_queue_depth Pending tasks waiting for a worker.', '# TYPE agent_utility_queue_depth gauge');
      lines.push(`agent_utility_queue_depth ${pending}`);
    }
    for (const collect of this.extra) {
      const text = (await collect()).trimEnd();
      if (text) lines.push(text);
    }
    return `${lines.join('\n')}\n`;
  }
}

function inc(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}
