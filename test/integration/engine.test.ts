// The engine on a real SQLite file and on a real PostgreSQL schema: retries, timeouts, cancellation,
// per-tool limits, lease recovery after a worker dies, retention.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import type { TaskStore } from '../../src/store/port.js';
import { testConfig } from '../support/tool-context.js';
import { runCounts, testTools } from '../support/test-tools.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import path from 'node:path';

const open: Runtime[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});
const schemas: TestSchema[] = [];
afterAll(async () => {
  for (const s of schemas) await s.drop();
});

/** A fresh database: its settings for a runtime, and a store of its own on it (another process's view). */
interface Location {
  env: Record<string, string>;
  openStore(): Promise<TaskStore>;
}

const backends: { name: string; location: () => Promise<Location> }[] = [
  {
    name: 'sqlite',
    location: async () => {
      const dataDir = testConfig().dataDir;
      return { env: { DATA_DIR: dataDir }, openStore: async () => new SqliteStore(path.join(dataDir, 'agent-utility.db')) };
    },
  },
  {
    name: 'postgres',
    location: async () => {
      const schema = await createTestSchema();
      schemas.push(schema);
      return { env: schema.env, openStore: () => schema.openStore({ poolSize: 2 }) };
    },
  },
];

const local = { payer: { kind: 'local' as const, id: 'test' } };

describe.each(backends)('engine ($name)', ({ location }) => {
  async function runtime(env: Record<string, string> = {}, workers = true, at?: Location): Promise<Runtime> {
    const where = at ?? (await location());
    const rt = await createRuntime(testConfig({ POLL_INTERVAL_MS: '25', LEASE_MS: '1000', ...where.env, ...env }), { tools: testTools, workers });
    open.push(rt);
    return rt;
  }

  it('retries a transient failure with backoff, then completes', async () => {
    const rt = await runtime();
    const key = `flaky-${Math.random()}`;
    const { task } = await rt.engine.submit('test.flaky', { key, failures: 2 }, local);
    const done = await rt.engine.waitFor(task.id, 20_000);
    expect(done!.status).toBe('complete');
    expect(done!.result).toEqual({ attempts: 3 });
    expect(done!.attempts).toBe(3);
  });

  it('gives up after the attempt limit and says why', async () => {
    const rt = await runtime({ TASK_MAX_ATTEMPTS: '2' });
    const key = `flaky-${Math.random()}`;
    const { task } = await rt.engine.submit('test.flaky', { key, failures: 5 }, local);
    const done = await rt.engine.waitFor(task.id, 20_000);
    expect(done!.status).toBe('failed');
    expect(done!.error).toBe('upstream unavailable (run 2)');
    expect(runCounts.get(key)).toBe(2);
  });

  it('does not retry permanent failures', async () => {
    const rt = await runtime();
    const { task } = await rt.engine.submit('test.fail', { kind: 'permanent' }, local);
    const done = await rt.engine.waitFor(task.id, 10_000);
    expect(done!.status).toBe('failed');
    expect(done!.attempts).toBe(1);
  });

  it('fails a task past its tool timeout', async () => {
    const rt = await runtime();
    const { task } = await rt.engine.submit('test.sleep', { ms: 60_000 }, local);
    const done = await rt.engine.waitFor(task.id, 20_000);
    expect(done!.status).toBe('failed');
    expect(done!.error).toMatch(/1500 ms/);
    expect(done!.errorKind).toBe('timeout');
  });

  it('fails a task whose output breaks its own schema', async () => {
    const rt = await runtime();
    const { task } = await rt.engine.submit('test.bad_output', {}, local);
    const done = await rt.engine.waitFor(task.id, 10_000);
    expect(done!.status).toBe('failed');
    expect(done!.errorKind).toBe('internal');
  });

  it('cancels a running task: the tool sees the abort and the task ends cancelled', async () => {
    const rt = await runtime();
    const { task } = await rt.engine.submit('test.sleep', { ms: 1_400, key: `c-${Math.random()}` }, local);
    let t = await rt.engine.get(task.id);
    while (t!.status !== 'running') {
      await new Promise((r) => setTimeout(r, 10));
      t = await rt.engine.get(task.id);
    }
    await rt.engine.cancel(task.id);
    const done = await rt.engine.waitFor(task.id, 10_000);
    expect(done!.status).toBe('cancelled');
  });

  it('keeps a tool within its concurrency limit', async () => {
    const rt = await runtime({ WORKER_CONCURRENCY: '8' });
    let maxRunning = 0;
    const onStart = () => {
      void rt.store.stats().then((s) => {
        const running = s.byToolStatus.find((r) => r.tool === 'test.sleep' && r.status === 'running')?.count ?? 0;
        maxRunning = Math.max(maxRunning, running);
      });
    };
    rt.engine.events.on('started', onStart);
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push((await rt.engine.submit('test.sleep', { ms: 100 }, local)).task.id);
    for (const id of ids) expect((await rt.engine.waitFor(id, 20_000))!.status).toBe('complete');
    expect(maxRunning).toBeGreaterThan(0);
    expect(maxRunning).toBeLessThanOrEqual(2);
  });

  it('runs the tasks of a worker that died once its lease expires, exactly once more', async () => {
    const at = await location();
    const api = await runtime({}, false, at);
    // A "worker" that claims a task and then dies: it holds the lease and never heartbeats.
    const dead = await at.openStore();
    const key = `lease-${Math.random()}`;
    const { task } = await api.engine.submit('test.sleep', { ms: 10, key }, local);
    const claimed = await dead.claimTasks({ owner: 'dead-worker', limit: 10, leaseMs: 500, now: Date.now() });
    expect(claimed.map((t) => t.id)).toEqual([task.id]);
    await dead.close();
    // The settle call of the dead worker would now be refused: it no longer holds the lease once recovered.
    const worker = await runtime({}, true, at);
    const done = await worker.engine.waitFor(task.id, 20_000);
    expect(done!.status).toBe('complete');
    expect(done!.attempts).toBe(2);
    expect(runCounts.get(key)).toBe(1);
    const store2 = await at.openStore();
    expect(await store2.completeTask(task.id, 'dead-worker', {}, Date.now())).toBeNull();
    await store2.close();
  });

  it("runs a session's tasks in that session while it lives, and hands them over the moment it stops", async () => {
    const at = await location();
    const session = async (env: Record<string, string>) => {
      const rt = await createRuntime(testConfig({ POLL_INTERVAL_MS: '25', WORKER_CONCURRENCY: '1', ...at.env, ...env }), {
        tools: testTools,
        workers: true,
        ownTasks: true,
      });
      open.push(rt);
      return rt;
    };
    // A's lease would outlive the test: B can only get A's tasks because A's clean stop ends it.
    const a = await session({ LEASE_MS: '60000' });
    const b = await session({ LEASE_MS: '1000' });
    // Which process started a task: its 'started' event (and so its progress) is emitted there only.
    const startedIn = (rt: Runtime) => {
      const ids: string[] = [];
      rt.engine.events.on('started', (t) => ids.push(t.id));
      return ids;
    };
    const [inA, inB] = [startedIn(a), startedIn(b)];
    const key = `session-${Math.random()}`;
    const sleep = async (ms: number) => (await a.engine.submit('test.sleep', { ms, key }, local)).task.id;
    const first = await sleep(300);
    const second = await sleep(10);
    // B is idle and polls every 25 ms while A's one worker is busy; the waiting task is A's all the same.
    for (const id of [first, second]) expect((await a.engine.waitFor(id, 10_000))!.status).toBe('complete');
    expect(inA).toEqual([first, second]);

    // A is busy with this one before the next is submitted: a task still pending when A stops is B's too.
    const busy = await sleep(200);
    if (!inA.includes(busy)) await new Promise<void>((resolve) => a.engine.events.on('started', (t) => t.id === busy && resolve()));
    const waiting = await sleep(10);
    await a.close();
    expect((await b.engine.waitFor(waiting, 5_000))!.status).toBe('complete');
    expect(inB).toEqual([waiting]);
  });

  it('deletes finished tasks past retention and keeps the rest', async () => {
    const rt = await runtime({}, true);
    const { task } = await rt.engine.submit('test.echo', { value: 'x' }, local);
    await rt.engine.waitFor(task.id, 10_000);
    expect(await rt.store.deleteFinishedBefore(Date.now() - 60_000)).toBe(0);
    expect(await rt.store.deleteFinishedBefore(Date.now() + 1)).toBe(1);
    expect(await rt.engine.get(task.id)).toBeNull();
  });
});
