// Fair share in the claim order, on both stores: a large batch does not starve single tasks or another
// payer's batch. Asserts which tasks are claimed, never how long anything takes.
import { afterEach, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { NewTask, Payer, TaskStore } from '../../src/store/port.js';
import { storeFactories } from '../support/store-factories.js';

const factories: { name: string; open: () => Promise<TaskStore> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const s = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-fair-')), 'db.sqlite'));
      await s.migrate();
      return s;
    },
  },
  ...storeFactories,
];

let n = 0;
const task = (payer: Payer, now: number, label: string): NewTask => ({
  id: `task_fair${++n}_${label}`,
  tool: 'dns.lookup',
  input: { domain: `${label}.test` },
  payer,
  priceMicros: 0,
  maxAttempts: 1,
  now,
});

async function batch(s: TaskStore, id: string, payer: Payer, size: number, now: number): Promise<void> {
  const tasks = Array.from({ length: size }, (_, i) => task(payer, now + i, `${id}-${i}`));
  const r = await s.createBatch({ id, tool: 'dns.lookup', payer, now, tasks, itemTasks: tasks.map((_, i) => i) });
  expect(r.kind).toBe('created');
}

for (const factory of factories) {
  describe(`fair claim order: ${factory.name}`, () => {
    const stores: TaskStore[] = [];
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((s) => s.close()));
    });

    it('takes one task of each batch and of each payer\'s single tasks before the second of any', async () => {
      const s = await factory.open();
      stores.push(s);
      const now = Date.now() - 10_000;
      const a: Payer = { kind: 'key', id: 'payer-a' };
      const b: Payer = { kind: 'key', id: 'payer-b' };
      await batch(s, 'batch_fair_a', a, 1000, now);
      await batch(s, 'batch_fair_b', b, 3, now + 2000);
      const single = task(a, now + 3000, 'single');
      await s.createTask(single);

      const first = await s.claimTasks({ owner: 'w', limit: 3, leaseMs: 60_000, now: Date.now() });
      const labels = (ts: { input: unknown }[]) => ts.map((t) => (t.input as { domain: string }).domain.replace('.test', '')).sort();
      expect(labels(first)).toEqual(['batch_fair_a-0', 'batch_fair_b-0', 'single']);
      const second = await s.claimTasks({ owner: 'w', limit: 4, leaseMs: 60_000, now: Date.now() });
      expect(labels(second)).toEqual(['batch_fair_a-1', 'batch_fair_a-2', 'batch_fair_b-1', 'batch_fair_b-2']);
    });
  });
}
