// PostgreSQL LISTEN/NOTIFY wake-ups between processes (two stores or runtimes on one schema stand for two
// processes). Polling is set to a minute here, so anything that happens within the test's time did so
// because a notification woke it: workers claim tasks another process created, waiters answer as soon as
// another process settles, and a listener whose connection is killed comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import type { PostgresStore } from '../../src/db/tasks/postgres-store.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { untilStoreClockPasses } from '../support/store-clock.js';
import { echoTool } from '../support/test-tools.js';
import { testConfig } from '../support/tool-context.js';

let schema: TestSchema;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  schema = await createTestSchema();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await schema?.drop();
});

async function store(): Promise<PostgresStore> {
  const s = await schema.openStore({ poolSize: 4 });
  closers.push(() => s.close());
  return s;
}

async function runtime(workers: boolean): Promise<Runtime> {
  const rt = await createRuntime(testConfig({ ...schema.env, POLL_INTERVAL_MS: '60000', LEASE_MS: '30000' }), { workers, tools: [echoTool] });
  closers.push(() => rt.close());
  return rt;
}

function next<T>(subscribe: (listener: (item: T) => void) => () => void, want: (item: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const off = subscribe((item) => {
      if (!want(item)) return;
      off();
      resolve(item);
    });
  });
}

/** Creates `tool` tasks in `from` until `listener` hears of one (its LISTEN connection is up by then). */
async function untilHeard(listener: PostgresStore, from: PostgresStore, tool: string): Promise<void> {
  const heard = next(
    (l: (x: string) => void) => listener.onTaskAvailable(l),
    (t) => t === tool,
  );
  for (let i = 0; i < 100; i++) {
    await from.createTask(task(tool));
    if (await Promise.race([heard.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 200))])) return;
  }
  throw new Error(`never heard of a ${tool} task`);
}

let n = 0;
const task = (tool = 'x.notify') => ({
  id: `task_wake${Date.now().toString(36)}${n++}`,
  tool,
  input: {},
  payer: { kind: 'local' as const, id: 't' },
  priceMicros: 0,
  maxAttempts: 3,
  now: Date.now(),
});

describe('PostgreSQL wake-ups across processes', () => {
  it('another process hears of created, settled, cancelled and recovered tasks', async () => {
    const a = await store();
    const b = await store();
    const available: string[] = [];
    b.onTaskAvailable((tool) => available.push(tool));
    await untilHeard(b, a, 'x.ready');

    const normal = Array.from({ length: 25 }, () => task());
    const fragile = Array.from({ length: 5 }, () => ({ ...task(), maxAttempts: 1 }));
    const all = [...normal, ...fragile];
    const settledAll = Promise.all(
      all.map((t) =>
        next(
          (l: (x: string) => void) => b.onTaskSettled(l),
          (id) => id === t.id,
        ),
      ),
    );
    await Promise.all(all.map((t) => a.createTask(t)));
    const claimed = await a.claimTasks({ owner: 'w', limit: 30, leaseMs: 60_000, now: Date.now(), onlyTools: ['x.notify'] });
    expect(claimed).toHaveLength(30);
    await Promise.all(normal.slice(0, 20).map((t) => a.completeTask(t.id, 'w', { ok: true }, Date.now())));
    await Promise.all(normal.slice(20).map((t) => a.failTask(t.id, 'w', { error: 'no', kind: 'permanent', refund: true }, Date.now())));
    // The fragile five lose their worker (its last renewal was short; the lease runs out on the store's
    // clock) and are given up on by a sweeper.
    await a.renewLeases(
      'w',
      fragile.map((t) => t.id),
      1,
    );
    await untilStoreClockPasses(a, Math.max(...(await Promise.all(fragile.map(async (t) => (await a.getTask(t.id))!.leaseExpiresAt!)))));
    expect(await a.recoverExpiredLeases(Date.now())).toEqual({ requeued: 0, failed: 5 });
    await settledAll;
    expect(available).toContain('x.notify');

    const cancelled = task();
    await a.createTask(cancelled);
    const heard = next(
      (l: (x: string) => void) => b.onTaskSettled(l),
      (id) => id === cancelled.id,
    );
    await a.requestCancel(cancelled.id, Date.now());
    expect(await heard).toBe(cancelled.id);
  });

  it('a worker process claims a task created elsewhere without waiting for its poll', async () => {
    const api = await runtime(false);
    const worker = await runtime(true);
    expect(worker.engine.hasWorkers).toBe(true);
    const { task: created } = await api.engine.submit('test.echo', { value: 'wake' }, { payer: { kind: 'local', id: 't' }, free: true });
    // The API process waits; the worker process runs it. Both only learn of each other through NOTIFY.
    const done = await api.engine.waitFor(created.id, 20_000);
    expect(done!.status).toBe('complete');
    expect(done!.result).toEqual({ value: 'wake' });
  });

  it('the listener comes back after its connection is killed', async () => {
    const a = await store();
    const b = await store();
    await untilHeard(b, a, 'x.before');
    // Kill every listening connection on this schema's channels: the notifiers must reconnect by themselves.
    const killed = await schema.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'agent-utility:listen' AND query LIKE $1",
      [`LISTEN %${schema.schema}`],
    );
    expect(killed.length).toBeGreaterThan(0);
    await untilHeard(b, a, 'x.after');
  });
});
