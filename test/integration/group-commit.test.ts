// Group commit of creations (src/engine/group-commit.ts): creations of the same event-loop turn go to
// the store as one batch, every caller gets its own outcome once the batch is written, and a failed
// batch fails exactly its own callers. The store is the real SQLite adapter and its createTasks (one
// transaction per batch); a spy that calls through records the batch sizes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit } from '../../src/engine/group-commit.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import type { NewTask } from '../../src/store/port.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import { testTools } from '../support/test-tools.js';
import { testConfig } from '../support/tool-context.js';

const stores: SqliteStore[] = [];
const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

/** A migrated store, closed after the test unless a runtime owns (and closes) it. */
async function openStore(ownedByRuntime = false): Promise<{ store: SqliteStore; batches: () => number[] }> {
  const s = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-group-')), 'db.sqlite'));
  await s.migrate();
  if (!ownedByRuntime) stores.push(s);
  const spy = vi.spyOn(s, 'createTasks');
  return { store: s, batches: () => spy.mock.calls.map(([items]) => items.length) };
}

let n = 0;
const newTask = (over: Partial<NewTask> = {}): NewTask => ({
  id: `task_group${++n}${Date.now().toString(36)}`,
  tool: 'test.echo',
  input: { n },
  payer: { kind: 'key', id: 'key_group' },
  priceMicros: 1000,
  maxAttempts: 1,
  now: Date.now(),
  ...over,
});

describe('group commit of task creations', () => {
  it('writes the creations of one turn as one batch and answers each with its own task', async () => {
    const { store, batches } = await openStore();
    const group = new GroupCommit(store);
    const tasks = Array.from({ length: 20 }, () => newTask({ payer: { kind: 'local', id: 'test' } }));
    const outcomes = await Promise.all(tasks.map((t) => group.create(t)));
    expect(batches()).toEqual([20]);
    outcomes.forEach((o, i) => {
      expect(o.kind).toBe('created');
      expect(o.kind === 'created' && o.task.id).toBe(tasks[i]!.id);
    });
    // Answered only once written: every task is in the store.
    for (const t of tasks) expect((await store.getTask(t.id))?.id).toBe(t.id);
  });

  it('creations of later turns go in later batches, and a batch is cut at its size limit', async () => {
    const { store, batches } = await openStore();
    const group = new GroupCommit(store, 8);
    const first = group.create(newTask({ payer: { kind: 'local', id: 'test' } }));
    await first;
    const rest = await Promise.all(Array.from({ length: 10 }, () => group.create(newTask({ payer: { kind: 'local', id: 'test' } }))));
    expect(rest.every((o) => o.kind === 'created')).toBe(true);
    expect(batches()).toEqual([1, 8, 2]);
  });

  it('each creation keeps its own outcome: a key short of credits refuses only the creations it cannot pay', async () => {
    const { store, batches } = await openStore();
    await store.createKey({ id: 'key_group', hash: `h-${Math.random()}`, prefix: 'sk_live_gggggg', label: null, balanceMicros: 2500, now: Date.now() });
    const group = new GroupCommit(store);
    const outcomes = await Promise.all([0, 1, 2].map(() => group.create(newTask(), { chargeKeyId: 'key_group' })));
    expect(batches()).toEqual([3]);
    expect(outcomes.map((o) => o.kind)).toEqual(['created', 'created', 'insufficient_credits']);
    expect(outcomes[2]).toEqual({ kind: 'insufficient_credits', balanceMicros: 500 });
    expect((await store.findKey('key_group'))?.balanceMicros).toBe(500);
  });

  it('a failed batch rejects its own callers, writes none of them, and the next batch is written', async () => {
    const { store, batches } = await openStore();
    const group = new GroupCommit(store);
    // Two creations with one task id: the second insert breaks the primary key, so the transaction fails.
    const dup = newTask({ payer: { kind: 'local', id: 'test' } });
    const other = newTask({ payer: { kind: 'local', id: 'test' } });
    const failed = await Promise.allSettled([group.create(other), group.create(dup), group.create({ ...dup, input: { again: true } })]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toMatch(/UNIQUE|constraint/i);
    expect(await store.getTask(other.id)).toBeNull();
    expect(await store.getTask(dup.id)).toBeNull();
    const next = await group.create(newTask({ payer: { kind: 'local', id: 'test' } }));
    expect(next.kind).toBe('created');
    expect(batches()).toEqual([3, 1]);
  });

  it('one creation transaction at a time: creations arriving meanwhile wait and go in the next one', async () => {
    const store = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-group-')), 'db.sqlite'));
    await store.migrate();
    stores.push(store);
    // The first transaction is held open until the test lets it go (a slow commit), then written for real.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const write = store.createTasks.bind(store);
    const batches: number[] = [];
    let running = 0;
    let mostRunning = 0;
    const slowFirst: typeof store.createTasks = async (items) => {
      batches.push(items.length);
      running++;
      mostRunning = Math.max(mostRunning, running);
      if (batches.length === 1) await gate;
      try {
        return await write(items);
      } finally {
        running--;
      }
    };
    const group = new GroupCommit({ createTasks: slowFirst });
    const local = () => newTask({ payer: { kind: 'local', id: 'test' } });
    const first = group.create(local());
    await new Promise((resolve) => setImmediate(resolve));
    const later: Promise<unknown>[] = [];
    for (let turn = 0; turn < 3; turn++) {
      later.push(group.create(local()), group.create(local()));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(batches).toEqual([1]);
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([1, 6]);
    expect(mostRunning).toBe(1);
  });

  it('the engine submits through group commit when the store can write batches', async () => {
    const { store, batches } = await openStore(true);
    const rt = await createRuntime(testConfig(), { tools: testTools, workers: false, store });
    runtimes.push(rt);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => rt.engine.submit('test.echo', { value: `m${i}` }, { payer: { kind: 'local', id: 'test' } })),
    );
    expect(batches()).toEqual([12]);
    expect(new Set(results.map((r) => r.task.id)).size).toBe(12);
    for (const r of results) expect((await store.getTask(r.task.id))?.status).toBe('pending');
  });
});
