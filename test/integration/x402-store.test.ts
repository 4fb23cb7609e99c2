// The two store operations x402 adds, on every adapter: single-use sign-in nonces, and listing the paid
// tasks whose settlement is still pending (what the settlement sweep picks up), and a wallet's pending amounts
// (what an x402 creation checks its balance against).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskStore } from '../../src/store/port.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import { PENDING_AMOUNTS_SQL } from '../../src/db/tasks/pending-payment-amounts.js';
import { unsettledPaymentsSql } from '../../src/db/tasks/list-unsettled-payments.js';
import { storeFactories } from '../support/store-factories.js';

const factories: { name: string; open: () => Promise<TaskStore> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const s = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-x402-store-')), 'db.sqlite'));
      await s.migrate();
      return s;
    },
  },
  ...storeFactories,
];

let n = 0;

describe('x402 pending amounts on SQLite', () => {
  it("reads a wallet's latest payments' status and amount from the index (migration 018), not from each row's JSON", async () => {
    const s = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-x402-store-')), 'db.sqlite'));
    try {
      await s.migrate();
      const plan = s.db.raw.prepare(`EXPLAIN QUERY PLAN ${PENDING_AMOUNTS_SQL.replace('$1', '?').replace('$2', '?')}`).all('0xwallet', 200) as {
        detail: string;
      }[];
      const details = plan.map((p) => p.detail).join('; ');
      expect(details).toContain('USING INDEX tasks_x402_pending_amounts');
      // The index holds (created_at, id) in order: no sort of the payer's tasks per request.
      expect(details).not.toContain('TEMP B-TREE');
    } finally {
      await s.close();
    }
  });
  it('finds the payments still owed from the unsettled index (migration 019), not by reading every x402 task', async () => {
    const s = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-x402-store-')), 'db.sqlite'));
    try {
      await s.migrate();
      for (const afterCursor of [false, true]) {
        const sql = unsettledPaymentsSql(afterCursor).replace(/\$\d/g, '?');
        const plan = s.db.raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(afterCursor ? [1, 100, 0, 'a'] : [1, 100])) as { detail: string }[];
        const details = plan.map((p) => p.detail).join('; ');
        // Without it the plan reads the x402 tasks by payer_kind (all of them, each payment's JSON parsed) and sorts.
        expect(details, `after a cursor: ${afterCursor}`).toContain('USING INDEX tasks_x402_unsettled');
        expect(details, `after a cursor: ${afterCursor}`).not.toContain('TEMP B-TREE');
      }
    } finally {
      await s.close();
    }
  });
});
for (const factory of factories) {
  describe(`x402 store operations: ${factory.name}`, () => {
    let store: TaskStore | undefined;
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });

    it('spends a sign-in nonce once, even when raced, and forgets expired ones', async () => {
      store = await factory.open();
      const s = store;
      const results = await Promise.all(Array.from({ length: 10 }, () => s.useSignInNonce('nonce-race', 1_000, 0)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await s.useSignInNonce('nonce-race', 2_000, 0)).toBe(false);
      expect(await s.useSignInNonce('nonce-other', 2_000, 0)).toBe(true);
      // Once forgotten (created before forgetBefore), the record is gone.
      expect(await s.useSignInNonce('nonce-late', 3_000, 1_500)).toBe(true);
      expect(await s.useSignInNonce('nonce-race', 3_000, 1_500)).toBe(true);
      // Sign-in nonces never collide with payment nonces of tasks.
      const created = await s.createTask(
        { id: `task_xs${++n}`, tool: 't', input: {}, payer: { kind: 'x402', id: '0xabc' }, priceMicros: 1, maxAttempts: 1, now: 1 },
        { nonce: { network: 'eip155:8453', asset: '0xa', payer: '0xabc', nonce: 'nonce-pay' } },
      );
      expect(created.kind).toBe('created');
      expect(await s.useSignInNonce('nonce-pay', 3_000, 0)).toBe(true);
    });

    it("sums what a wallet's latest tasks still owe from their payments alone: pending ones, that wallet, within the lookback", async () => {
      store = await factory.open();
      const s = store;
      const mk = (payer: { kind: 'x402' | 'key'; id: string }, payment: Record<string, unknown> | null, now: number) =>
        s.createTask({ id: `task_xp${++n}`, tool: 't', input: { big: 'i'.repeat(5000) }, payer, priceMicros: 0, maxAttempts: 1, now, payment });
      const wallet = { kind: 'x402' as const, id: '0xwallet' };
      await mk(wallet, { status: 'pending', scheme: 'exact', amount: '7' }, 100); // oldest: outside a lookback of 3
      await mk(wallet, { status: 'pending', scheme: 'exact', amount: '1000' }, 200);
      await mk(wallet, { status: 'settled', scheme: 'exact', amount: '50' }, 300);
      await mk(wallet, { status: 'pending', scheme: 'exact', amount: '20' }, 400);
      await mk({ kind: 'x402', id: '0xother' }, { status: 'pending', scheme: 'exact', amount: '3' }, 500);
      await mk({ kind: 'key', id: '0xwallet' }, null, 600);
      expect((await s.pendingPaymentAmounts('0xwallet', 3)).map(Number).sort((a, b) => a - b)).toEqual([20, 1000]);
      expect((await s.pendingPaymentAmounts('0xwallet', 200)).map(Number).sort((a, b) => a - b)).toEqual([7, 20, 1000]);
      expect(await s.pendingPaymentAmounts('0xnobody', 200)).toEqual([]);
      // Settled meanwhile: no longer owed (SQLite reads the status from its index, which follows the update).
      const settledId = `task_xp${n - 2}`;
      expect(await s.updatePendingPayment(settledId, { status: 'settled', scheme: 'exact', amount: '20' })).toBe(true);
      expect((await s.pendingPaymentAmounts('0xwallet', 200)).map(Number).sort((a, b) => a - b)).toEqual([7, 1000]);
    });

    it('lists finished x402 tasks whose payment is still pending, oldest first', async () => {
      store = await factory.open();
      const s = store;
      const mk = async (payment: Record<string, unknown> | null, payer: 'x402' | 'key', finish: 'complete' | 'failed' | null, now: number) => {
        const id = `task_xl${++n}`;
        await s.createTask({ id, tool: 't', input: {}, payer: { kind: payer, id: 'p' }, priceMicros: 0, maxAttempts: 1, now, payment });
        if (finish) {
          const [claimed] = await s.claimTasks({ owner: 'w', limit: 1, leaseMs: 10_000, now });
          expect(claimed?.id).toBe(id);
          if (finish === 'complete') await s.completeTask(id, 'w', { body: 'x'.repeat(1000) }, now + 1);
          else await s.failTask(id, 'w', { error: 'x', kind: 'permanent', refund: false }, now + 1);
        }
        return id;
      };
      const completed = await mk({ status: 'pending', scheme: 'exact' }, 'x402', 'complete', 100);
      const failed = await mk({ status: 'pending', scheme: 'exact' }, 'x402', 'failed', 200);
      await mk({ status: 'settled', scheme: 'exact' }, 'x402', 'complete', 300);
      await mk(null, 'key', 'complete', 500);
      const recent = await mk({ status: 'pending', scheme: 'exact' }, 'x402', 'complete', 10_000);
      await mk({ status: 'pending', scheme: 'exact' }, 'x402', null, 11_000); // not finished yet
      const unsettled = await s.listUnsettledPayments(5_000, 10);
      expect(unsettled.map((t) => t.id)).toEqual([completed, failed]);
      // The sweep never reads a task's input or result (a page of large results would cost their size).
      for (const t of unsettled) {
        expect(t).not.toHaveProperty('input');
        expect(t).not.toHaveProperty('result');
        expect(t.payment).toMatchObject({ status: 'pending' });
      }
      expect((await s.listUnsettledPayments(20_000, 10)).map((t) => t.id)).toEqual([completed, failed, recent]);
      expect((await s.listUnsettledPayments(20_000, 1)).map((t) => t.id)).toEqual([completed]);
      // Pages continue after the last task of the previous one, ties on finished_at ordered by id.
      const twin = await mk({ status: 'pending', scheme: 'exact' }, 'x402', 'complete', 100);
      const [first, second] = [completed, twin].sort();
      const page1 = await s.listUnsettledPayments(20_000, 1);
      expect(page1.map((t) => t.id)).toEqual([first]);
      const page2 = await s.listUnsettledPayments(20_000, 2, { finishedAt: page1[0]!.finishedAt!, id: page1[0]!.id });
      expect(page2.map((t) => t.id)).toEqual([second, failed]);
      await s.setPayment(twin, { status: 'settled', scheme: 'exact' });
      await s.setPayment(completed, { status: 'settled', scheme: 'exact' });
      expect((await s.listUnsettledPayments(20_000, 10)).map((t) => t.id)).toEqual([failed, recent]);
    });
  });
}
