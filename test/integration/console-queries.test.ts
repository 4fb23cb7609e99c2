// The console's and the purchase reconciler's own SQL (src/console/queries.ts, pending-purchases.ts) on
// both store adapters: SQLite and a real PostgreSQL schema.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingKeyPurchases } from '../../src/billing/x402/pending-purchases.js';
import { recentKeyPurchases, searchTaskIds, searchTasks, sqlRunnerOf, taskTimeline, type SqlRunner } from '../../src/console/queries.js';
import type { TaskStore } from '../../src/store/port.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import { storeFactories } from '../support/store-factories.js';

const adapters: { name: string; open: () => Promise<TaskStore> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const store = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-console-q-')), 'tasks.db'));
      await store.migrate();
      return store;
    },
  },
  ...storeFactories,
];

for (const adapter of adapters) {
  describe(`console queries on ${adapter.name}`, () => {
    let store: TaskStore;
    let sql: SqlRunner;
    const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);

    beforeAll(async () => {
      store = await adapter.open();
      sql = sqlRunnerOf(store)!;
      await store.createKey({ id: 'key_a', hash: 'h_a', prefix: 'sk_live_aaaaaa', label: null, balanceMicros: 1_000_000, now: t0 });
      const task = (id: string, tool: string, payer: { kind: 'key' | 'x402'; id: string }, at: number) =>
        store.createTask({ id, tool, input: { n: id }, payer, priceMicros: 0, maxAttempts: 1, now: at });
      await task('task_1', 'dns.lookup', { kind: 'key', id: 'key_a' }, t0);
      await task('task_2', 'dns.lookup', { kind: 'x402', id: '0xABCdef0000000000000000000000000000000001' }, t0 + 1000);
      await task('task_3', 'geo.locate', { kind: 'key', id: 'key_a' }, t0 + 2000);
      const [claimed] = await store.claimTasks({ owner: 'w', limit: 1, leaseMs: 60_000, now: t0 + 3000, onlyTools: ['geo.locate'] });
      await store.completeTask(claimed!.id, 'w', { ok: true }, t0 + 3500);
    });
    afterAll(async () => {
      await store?.close();
    });

    it('searches every payer by id, tool, status and payer (wallets case-insensitively), newest first', async () => {
      expect(await searchTaskIds(sql, { limit: 10 })).toEqual(['task_3', 'task_2', 'task_1']);
      expect(await searchTaskIds(sql, { tool: 'dns.lookup', limit: 10 })).toEqual(['task_2', 'task_1']);
      expect(await searchTaskIds(sql, { status: 'complete', limit: 10 })).toEqual(['task_3']);
      expect(await searchTaskIds(sql, { payer: 'key_a', limit: 10 })).toEqual(['task_3', 'task_1']);
      expect(await searchTaskIds(sql, { payer: '0xabcdef0000000000000000000000000000000001', limit: 10 })).toEqual(['task_2']);
      expect(await searchTaskIds(sql, { id: 'task_1', tool: 'geo.locate', limit: 10 })).toEqual([]);
    });

    it('gives the search table only the columns it shows, never an input or a result', async () => {
      expect(await searchTasks(sql, { status: 'complete', limit: 10 })).toEqual([
        { id: 'task_3', tool: 'geo.locate', status: 'complete', payerKind: 'key', payerId: 'key_a', createdAt: t0 + 2000, attempts: 1, maxAttempts: 1 },
      ]);
    });

    it('reads the timeline: recent tasks and older unfinished ones', async () => {
      const rows = await taskTimeline(sql, t0 + 1500, 100);
      expect(rows.map((r) => [r.tool, r.status, r.createdAt, r.startedAt, r.finishedAt])).toEqual([
        ['geo.locate', 'complete', t0 + 2000, t0 + 3000, t0 + 3500],
        ['dns.lookup', 'pending', t0 + 1000, null, null],
        ['dns.lookup', 'pending', t0, null, null],
      ]);
    });

    it('lists pending key purchases with their payment, and recent ones', async () => {
      const payment = { scheme: 'exact', status: 'pending', authorization: { nonce: '0x01' } };
      const nonce = { network: 'eip155:8453', asset: '0xasset', payer: '0xpayer', nonce: '0x01' };
      await store.reserveKeyPurchase({ id: 'kp_1', kind: 'topup', keyId: 'key_a', wallet: '0xpayer', micros: 2_000_000, payment, nonce, now: t0 });
      await store.reserveKeyPurchase({
        id: 'kp_2',
        kind: 'create',
        keyId: null,
        wallet: '0xpayer',
        micros: 1_000_000,
        payment,
        nonce: { ...nonce, nonce: '0x02' },
        now: t0 + 10,
      });
      await store.markKeyPurchaseUnpaid('kp_2', { ...payment, status: 'unpaid' });
      expect(await pendingKeyPurchases(sql, t0 + 1, 10)).toEqual([
        { id: 'kp_1', kind: 'topup', keyId: 'key_a', wallet: '0xpayer', micros: 2_000_000, payment, createdAt: t0 },
      ]);
      expect(await pendingKeyPurchases(sql, t0, 10)).toEqual([]);
      expect((await recentKeyPurchases(sql, 10)).map((p) => [p.id, p.status])).toEqual([
        ['kp_2', 'unpaid'],
        ['kp_1', 'pending'],
      ]);
    });
  });
}
