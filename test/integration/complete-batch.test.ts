// Completions in batches (src/engine/complete-batch.ts): the completions of one event-loop turn go to the
// store as one write, each caller gets its own settled task (or null when the lease is no longer held)
// once that write has committed, and a failed write fails exactly its own callers. Run on both dialects:
// PostgreSQL settles a batch in one statement, SQLite in one transaction. A spy that calls through
// records the batch sizes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompleteBatch } from '../../src/engine/complete-batch.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import type { SqlTaskStore } from '../../src/db/tasks/task-store.js';
import type { NewTask } from '../../src/store/port.js';
import { storeFactories } from '../support/store-factories.js';

const stores: SqlTaskStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

const backends: { name: string; open: () => Promise<SqlTaskStore> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const s = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-complete-')), 'db.sqlite'));
      await s.migrate();
      return s;
    },
  },
  ...storeFactories.map((f) => ({ name: f.name, open: async () => (await f.open()) as SqlTaskStore })),
];

let n = 0;
const newTask = (over: Partial<NewTask> = {}): NewTask => ({
  id: `task_cb${++n}${Date.now().toString(36)}`,
  tool: 'test.echo',
  input: { n },
  payer: { kind: 'local', id: 'test' },
  priceMicros: 0,
  maxAttempts: 1,
  now: Date.now() - 1000,
  ...over,
});

describe.each(backends)('completions in batches ($name)', ({ open }) => {
  async function claimed(count: number, owner: string) {
    const store = await open();
    stores.push(store);
    const tasks = Array.from({ length: count }, () => newTask());
    for (const t of tasks) await store.createTask(t);
    const got = await store.claimTasks({ owner, limit: count, leaseMs: 60_000, now: Date.now(), onlyTools: ['test.echo'] });
    expect(got).toHaveLength(count);
    const ids = tasks.map((t) => t.id);
    return { store, ids, claimed: ids.map((id) => got.find((t) => t.id === id)!), spy: vi.spyOn(store, 'completeTasks') };
  }

  it('settles the completions of one turn in one write, each answered with its own task once written', async () => {
    const { store, ids, claimed: tasks, spy } = await claimed(12, 'w');
    const batch = new CompleteBatch(store, 'w');
    const now = Date.now();
    const settled = await Promise.all(tasks.map((t, i) => batch.complete(t, { i }, now + i)));
    expect(spy.mock.calls.map(([, items]) => items.length)).toEqual([12]);
    settled.forEach((t, i) => expect(t).toMatchObject({ id: ids[i], status: 'complete', result: { i }, finishedAt: now + i }));
    // Each answer is the task as stored, as a poller reads it.
    for (const t of settled) expect(t).toEqual(await store.getTask(t!.id));
  });

  it('completions of later turns go in later writes, and a write is cut at its size limit', async () => {
    const { store, claimed: tasks, spy } = await claimed(5, 'w');
    const batch = new CompleteBatch(store, 'w', 2);
    const first = Promise.all(tasks.slice(0, 3).map((t) => batch.complete(t, {}, Date.now())));
    await new Promise((r) => setImmediate(r));
    const second = Promise.all(tasks.slice(3).map((t) => batch.complete(t, {}, Date.now())));
    await Promise.all([first, second]);
    expect(spy.mock.calls.map(([, items]) => items.length)).toEqual([2, 1, 2]);
  });

  it('a task whose lease this worker lost answers null and is left as it is; the others settle', async () => {
    const { store, claimed: tasks } = await claimed(3, 'w');
    const other = newTask();
    await store.createTask(other);
    await store.claimTasks({ owner: 'other', limit: 1, leaseMs: 60_000, now: Date.now(), onlyTools: ['test.echo'] });
    const batch = new CompleteBatch(store, 'w');
    const settled = await Promise.all([...tasks, other].map((t) => batch.complete(t, { by: 'w' }, Date.now())));
    expect(settled.map((t) => t?.status ?? null)).toEqual(['complete', 'complete', 'complete', null]);
    expect(await store.getTask(other.id)).toMatchObject({ status: 'running', leaseOwner: 'other', result: null });
  });

  it('a failed write rejects every completion in it, and settles none', async () => {
    const { store, ids, claimed: tasks, spy } = await claimed(3, 'w');
    spy.mockRejectedValueOnce(new Error('connection lost'));
    const batch = new CompleteBatch(store, 'w');
    const results = await Promise.allSettled(tasks.map((t) => batch.complete(t, {}, Date.now())));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const id of ids) expect((await store.getTask(id))!.status).toBe('running');
  });
});
