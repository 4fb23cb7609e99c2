// Task and webhook leases are decided on the store's clock, not the workers' (docs/operations.md, "Clocks").
// On SQLite and on PostgreSQL, a worker whose clock runs ten minutes ahead sweeps for expired leases and
// claims as it always does (its own clock goes in as `now`, as Maintenance and the dispatcher pass it):
// by that clock another worker's lease ended long ago, yet the other worker still runs the task and
// renews it. Taking it back would run a side effect twice. Once the lease really ends on the store's
// clock, the same skewed worker recovers the task. The store-level rules are in store-contract.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import { WebhookStore } from '../../src/db/webhooks/webhook-store.js';
import { Maintenance } from '../../src/engine/maintenance.js';
import { createLogger } from '../../src/logger.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import type { TaskStore } from '../../src/store/port.js';
import { gatedTool } from '../support/gated-tool.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { storeNow, untilStoreClockPasses, type HasDb } from '../support/store-clock.js';
import { testTools } from '../support/test-tools.js';
import { testConfig } from '../support/tool-context.js';

const AHEAD_MS = 10 * 60_000;
const local = { payer: { kind: 'local' as const, id: 'test' } };

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
const schemas: TestSchema[] = [];
afterAll(async () => {
  for (const s of schemas) await s.drop();
});

/** A fresh database: settings for a runtime on it, and another store on it (another process's view). */
const backends: { name: string; location: () => Promise<{ env: Record<string, string>; openStore: () => Promise<TaskStore> }> }[] = [
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

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(backends)('leases on the store clock ($name)', ({ location }) => {
  it("a sweeper whose clock runs ten minutes ahead leaves a running, renewed task alone (it runs once), and recovers a dead worker's task once its lease ends", async () => {
    const at = await location();
    const gated = gatedTool();
    gated.close();
    const config = testConfig({ POLL_INTERVAL_MS: '25', LEASE_MS: '1000', ...at.env });
    const rt: Runtime = await createRuntime(config, { tools: [...testTools, gated.tool], workers: true });
    open.push(rt);
    // The skewed process: its own store, and the engine's lease sweeper given its clock.
    const other = await at.openStore();
    open.push(other);
    const skewed = new Maintenance(other, config, createLogger('silent'), () => undefined);
    const sweepAhead = () => skewed.sweepLeases(Date.now() + AHEAD_MS);

    const { task } = await rt.engine.submit('test.gated', { n: 1 }, local);
    await gated.started(1);
    // The worker renews its one-second lease every few hundred ms; the skewed process sweeps between
    // renewals, across several lease lengths, and never finds the lease expired.
    const ends = new Set<number>();
    await until('three renewals', async () => {
      expect(await sweepAhead()).toEqual({ requeued: 0, failed: 0 });
      const t = (await other.getTask(task.id))!;
      expect(t).toMatchObject({ status: 'running', attempts: 1 });
      ends.add(t.leaseExpiresAt!);
      return ends.size >= 4;
    });
    gated.open();
    expect(await rt.engine.waitFor(task.id, 10_000)).toMatchObject({ status: 'complete', attempts: 1 });
    expect(gated.runs.get(task.id)).toBe(1);

    // A worker that claimed a task, renewed it once briefly and died: the skewed sweeper recovers it only
    // after the store's clock passes that lease's end, and the live worker runs it.
    await rt.close();
    open.splice(open.indexOf(rt), 1);
    const orphan = {
      id: `task_skew${Date.now().toString(36)}`,
      tool: 'test.echo',
      input: { value: 'x' },
      ...local,
      priceMicros: 0,
      maxAttempts: 3,
      now: Date.now(),
    };
    expect((await other.createTask(orphan)).kind).toBe('created');
    const dead = await at.openStore();
    open.push(dead);
    const [claimed] = await dead.claimTasks({ owner: 'dead-worker', limit: 1, leaseMs: 60_000, now: Date.now() });
    expect(claimed!.id).toBe(orphan.id);
    expect(await sweepAhead()).toEqual({ requeued: 0, failed: 0 });
    await dead.renewLeases('dead-worker', [orphan.id], 1);
    await untilStoreClockPasses(other as unknown as HasDb, (await other.getTask(orphan.id))!.leaseExpiresAt!);
    expect(await sweepAhead()).toEqual({ requeued: 1, failed: 0 });
    const worker = await createRuntime(config, { tools: testTools, workers: true });
    open.push(worker);
    expect(await worker.engine.waitFor(orphan.id, 10_000)).toMatchObject({ status: 'complete', attempts: 2 });
  });

  it('a webhook dispatcher whose clock runs ten minutes ahead does not take a message another holds; it takes one whose lease has ended on the store clock', async () => {
    const at = await location();
    const store = (await at.openStore()) as unknown as TaskStore & HasDb;
    open.push(store);
    await store.migrate();
    const outbox = new WebhookStore(store.db);
    const now = Date.now();
    const ahead = now + AHEAD_MS;
    for (const id of ['msg_live', 'msg_dead']) {
      await store.db.run(
        `INSERT INTO webhook_outbox (id, key_id, url, subject_kind, subject_id, event, status, attempts, next_attempt_at, created_at)
         VALUES ($1, 'key_skew', 'http://127.0.0.1:9/hook', 'task', $1, 'completed', 'pending', 0, $2, $2)`,
        [id, now - (id === 'msg_live' ? 2 : 1)],
      );
    }
    // One dispatcher sends msg_live under a minute's lease; another took msg_dead for a millisecond and died.
    const before = await storeNow(store);
    expect((await outbox.claimDue('sender', now, 60_000, 1)).map((m) => m.id)).toEqual(['msg_live']);
    expect((await outbox.claimDue('dead', now, 1, 1)).map((m) => m.id)).toEqual(['msg_dead']);
    const leases = await store.db.all<{ id: string; lease_until: unknown }>('SELECT id, lease_until FROM webhook_outbox ORDER BY id');
    const leaseOf = (id: string) => Number(leases.find((l) => l.id === id)!.lease_until);
    expect(leaseOf('msg_live')).toBeGreaterThanOrEqual(before + 60_000);
    await untilStoreClockPasses(store, leaseOf('msg_dead'));

    // The skewed dispatcher takes only the message whose lease has ended, whatever its clock says.
    expect((await outbox.claimDue('skewed', ahead, 60_000, 10)).map((m) => m.id)).toEqual(['msg_dead']);
    expect(await outbox.claimDue('skewed', ahead, 60_000, 10)).toEqual([]);
    // And it is told the next message falls due when the live lease ends, moved onto its own clock: a
    // minute from now by its clock, not "ten minutes ago" (which would have it wake again and again).
    const due = await outbox.nextDueAt(ahead);
    expect(due).toBeGreaterThan(ahead);
    expect(due).toBeLessThanOrEqual(ahead + 60_000);
  });
});
