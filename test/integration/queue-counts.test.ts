// The queue's counts (pending, running) read from the status indexes alone, on every adapter, and what
// /healthz answers with: a health probe must not read every task the store keeps (src/db/tasks/queue-counts.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { healthReport } from '../../src/http/health.js';
import type { NewTask, TaskStore } from '../../src/store/port.js';
import { ACTIVE_BY_TOOL_SQL, QUEUE_COUNTS_SQL } from '../../src/db/tasks/queue-counts.js';
import { EngineEvents } from '../../src/engine/events.js';
import { TaskMetrics } from '../../src/engine/metrics.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import { storeFactories } from '../support/store-factories.js';

const factories: { name: string; open: () => Promise<TaskStore> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const s = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-queue-counts-')), 'db.sqlite'));
      await s.migrate();
      return s;
    },
  },
  ...storeFactories,
];

let n = 0;
const newTask = (now: number): NewTask => ({
  id: `task_qc${Date.now().toString(36)}${++n}`,
  tool: 'dns.lookup',
  input: { domain: 'example.test' },
  payer: { kind: 'local', id: 'test' },
  priceMicros: 0,
  maxAttempts: 1,
  now,
});

const opened: TaskStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

describe('queue counts on SQLite', () => {
  it('count pending and running tasks from their partial indexes, not by reading every task', async () => {
    const s = (await factories[0]!.open()) as SqliteStore;
    opened.push(s);
    const plan = (s.db.raw.prepare(`EXPLAIN QUERY PLAN ${QUEUE_COUNTS_SQL}`).all() as { detail: string }[]).map((p) => p.detail);
    // `status IN ('pending', 'running')` plans as a bare `SCAN tasks`: 0.5 s on a 750 MB store.
    expect(plan).toContain('SCAN tasks USING COVERING INDEX tasks_claimable');
    // The running count names the lease (every running task holds one), so it searches the lease index.
    expect(plan).toContain('SEARCH tasks USING COVERING INDEX tasks_leases (lease_expires_at>?)');
    expect(plan).not.toContain('SCAN tasks');
  });

  it('count pending and running tasks by tool through the same indexes (the /metrics gauge)', async () => {
    const s = (await factories[0]!.open()) as SqliteStore;
    opened.push(s);
    const plan = (s.db.raw.prepare(`EXPLAIN QUERY PLAN ${ACTIVE_BY_TOOL_SQL}`).all() as { detail: string }[]).map((p) => p.detail);
    expect(plan).toContain('SCAN tasks USING INDEX tasks_claimable');
    expect(plan).toContain('SEARCH tasks USING INDEX tasks_leases (lease_expires_at>?)');
    expect(plan).not.toContain('SCAN tasks');
  });
});

for (const factory of factories) {
  describe(`queue counts: ${factory.name}`, () => {
    it('answer what the full stats answer for pending and running', async () => {
      const s = await factory.open();
      opened.push(s);
      const now = Date.now();
      for (let i = 0; i < 3; i++) await s.createTask(newTask(now - 1000));
      await s.claimTasks({ owner: 'w1', limit: 1, leaseMs: 60_000, now });
      expect(await s.queueCounts()).toEqual({ queueDepth: 2, running: 1 });
      const stats = await s.stats();
      expect({ queueDepth: stats.queueDepth, running: stats.running }).toEqual({ queueDepth: 2, running: 1 });
    });

    it('by tool, answer what the full stats answer for pending and running', async () => {
      const s = await factory.open();
      opened.push(s);
      const now = Date.now();
      for (let i = 0; i < 3; i++) await s.createTask(newTask(now - 1000));
      await s.createTask({ ...newTask(now - 1000), tool: 'ip.geolocate' });
      await s.claimTasks({ owner: 'w1', limit: 1, leaseMs: 60_000, now, onlyTools: ['dns.lookup'] });
      const byKey = (rows: { tool: string; status: string; count: number }[]) => rows.map((r) => `${r.tool} ${r.status} ${r.count}`).sort();
      const active = await s.activeByTool();
      expect(byKey(active)).toEqual(['dns.lookup pending 2', 'dns.lookup running 1', 'ip.geolocate pending 1']);
      const stats = await s.stats();
      expect(byKey(stats.byToolStatus.filter((r) => r.status === 'pending' || r.status === 'running'))).toEqual(byKey(active));
    });

    it('are what /metrics reports, without the full stats', async () => {
      const s = await factory.open();
      opened.push(s);
      await s.createTask(newTask(Date.now()));
      s.stats = () => Promise.reject(new Error('stats() read every task'));
      const text = await new TaskMetrics(new EngineEvents()).render(s);
      expect(text).toContain('agent_utility_store_up 1');
      expect(text).toContain('agent_utility_tasks{tool="dns.lookup",status="pending"} 1');
      expect(text).toContain('agent_utility_queue_depth 1');
    });

    it('are what /healthz reports, without the full stats', async () => {
      const s = await factory.open();
      opened.push(s);
      await s.createTask(newTask(Date.now()));
      // The full count would read every task: the health report must not call it.
      s.stats = () => Promise.reject(new Error('stats() read every task'));
      const engine = { store: s, config: { diskMinFreeBytes: 0, dataDir: os.tmpdir() }, hasWorkers: false } as unknown as Engine;
      const report = await healthReport(engine);
      expect(report.status).toBe(200);
      expect(report.body).toMatchObject({ status: 'ok', queue_depth: 1 });
    });
  });
}
