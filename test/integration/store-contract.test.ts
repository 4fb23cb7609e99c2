// One contract suite for every store adapter. Each adapter must behave identically on the operations
// that guarantee "no lost task, none run twice, no double charge".
import { afterEach, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { NewTask, TaskStore } from '../../src/store/port.js';
import { storeFactories } from '../support/store-factories.js';

let counter = 0;
function newTask(over: Partial<NewTask> = {}): NewTask {
  counter++;
  return {
    id: `task_c${Date.now().toString(36)}${counter}`,
    tool: 'dns.lookup',
    input: { domain: 'example.test' },
    payer: { kind: 'local', id: 'test' },
    priceMicros: 1000,
    maxAttempts: 2,
    now: Date.now(),
    ...over,
  };
}

const factories: { name: string; open: () => Promise<TaskStore> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-store-'));
      const s = new SqliteStore(path.join(dir, 'db.sqlite'));
      await s.migrate();
      return s;
    },
  },
  ...storeFactories,
];

for (const factory of factories) {
  describe(`store contract: ${factory.name}`, () => {
    const stores: TaskStore[] = [];
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((s) => s.close()));
    });
    const open = async () => {
      const s = await factory.open();
      stores.push(s);
      return s;
    };

    it('migrations are idempotent', async () => {
      const s = await open();
      await s.migrate();
      await s.migrate();
    });

    it('creates, claims once, and settles only under the lease', async () => {
      const s = await open();
      const t = newTask();
      const created = await s.createTask(t);
      expect(created.kind).toBe('created');
      const [a, b] = await Promise.all([
        s.claimTasks({ owner: 'w1', limit: 5, leaseMs: 10_000, now: Date.now() }),
        s.claimTasks({ owner: 'w2', limit: 5, leaseMs: 10_000, now: Date.now() }),
      ]);
      const mine = [...a!, ...b!].filter((x) => x.id === t.id);
      expect(mine).toHaveLength(1);
      const owner = a!.some((x) => x.id === t.id) ? 'w1' : 'w2';
      const other = owner === 'w1' ? 'w2' : 'w1';
      expect(mine[0]!.status).toBe('running');
      expect(mine[0]!.attempts).toBe(1);
      expect(await s.completeTask(t.id, other, { no: 1 }, Date.now())).toBeNull();
      const done = await s.completeTask(t.id, owner, { ok: true }, Date.now());
      expect(done!.status).toBe('complete');
      expect(done!.result).toEqual({ ok: true });
      expect(await s.failTask(t.id, owner, { error: 'x', kind: 'permanent', refund: true }, Date.now())).toBeNull();
    });

    it('respects onlyTools, excludeTools and run_after', async () => {
      const s = await open();
      const now = Date.now();
      await s.createTask(newTask({ tool: 'a.one', now }));
      await s.createTask(newTask({ tool: 'b.two', now }));
      expect((await s.claimTasks({ owner: 'w', limit: 5, leaseMs: 1000, now, onlyTools: ['b.two'] })).map((t) => t.tool)).toEqual(['b.two']);
      expect(await s.claimTasks({ owner: 'w', limit: 5, leaseMs: 1000, now, excludeTools: ['a.one'] })).toEqual([]);
      const t = newTask({ tool: 'c.three', now });
      await s.createTask(t);
      const [claimed] = await s.claimTasks({ owner: 'w', limit: 1, leaseMs: 1000, now, onlyTools: ['c.three'] });
      expect(await s.retryTask(claimed!.id, 'w', 'later', now + 60_000, now)).toBe(true);
      expect(await s.claimTasks({ owner: 'w', limit: 5, leaseMs: 1000, now, onlyTools: ['c.three'] })).toEqual([]);
      expect(await s.claimTasks({ owner: 'w', limit: 5, leaseMs: 1000, now: now + 60_001, onlyTools: ['c.three'] })).toHaveLength(1);
    });

    it('charges in the creating transaction and refunds exactly once', async () => {
      const s = await open();
      const now = Date.now();
      await s.createKey({ id: 'key_c1', hash: `h-${Math.random()}`, prefix: 'sk_live_aaaaaa', label: null, balanceMicros: 2500, now });
      const t1 = newTask({ payer: { kind: 'key', id: 'key_c1' }, now });
      const t2 = newTask({ payer: { kind: 'key', id: 'key_c1' }, now });
      const t3 = newTask({ payer: { kind: 'key', id: 'key_c1' }, now });
      expect((await s.createTask(t1, { chargeKeyId: 'key_c1' })).kind).toBe('created');
      expect((await s.createTask(t2, { chargeKeyId: 'key_c1' })).kind).toBe('created');
      const short = await s.createTask(t3, { chargeKeyId: 'key_c1' });
      expect(short).toEqual({ kind: 'insufficient_credits', balanceMicros: 500 });
      expect(await s.getTask(t3.id)).toBeNull();
      const claimed = await s.claimTasks({ owner: 'w', limit: 5, leaseMs: 10_000, now, onlyTools: ['dns.lookup'] });
      const c1 = claimed.find((t) => t.id === t1.id)!;
      expect(c1.chargedMicros).toBe(1000);
      await s.failTask(t1.id, 'w', { error: 'down', kind: 'transient', refund: true }, now);
      await s.failTask(t1.id, 'w', { error: 'down', kind: 'transient', refund: true }, now);
      expect((await s.findKey('key_c1'))!.balanceMicros).toBe(1500);
      await s.revokeKey('key_c1', now);
      expect((await s.createTask(newTask({ payer: { kind: 'key', id: 'key_c1' } }), { chargeKeyId: 'key_c1' })).kind).toBe('key_invalid');
    });

    it('idempotency: same key+hash replays, other hash mismatches, window expires', async () => {
      const s = await open();
      const now = Date.now();
      const idem = { scope: 'key:k', key: 'abc', requestHash: 'h1', windowMs: 1000 };
      const first = await s.createTask(newTask({ now }), { idempotency: idem });
      const again = await s.createTask(newTask({ now }), { idempotency: idem });
      expect(again.kind).toBe('replayed');
      expect(again.kind === 'replayed' && first.kind === 'created' && again.task.id === first.task.id).toBe(true);
      expect((await s.createTask(newTask({ now }), { idempotency: { ...idem, requestHash: 'h2' } })).kind).toBe('idempotency_mismatch');
      expect((await s.createTask(newTask({ now: now + 2000 }), { idempotency: idem })).kind).toBe('created');
    });

    it('a payment nonce yields exactly one task, even concurrently', async () => {
      const s = await open();
      const nonce = { network: 'eip155:8453', asset: '0xA', payer: '0xB', nonce: `0x${Math.random().toString(16).slice(2)}` };
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => s.createTask(newTask(), { nonce })));
      expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'nonce_used')).toHaveLength(9);
    });

    it('recovers expired leases: requeue, then fail once out of attempts (refunded)', async () => {
      const s = await open();
      const now = Date.now();
      await s.createKey({ id: 'key_c2', hash: `h-${Math.random()}`, prefix: 'sk_live_bbbbbb', label: null, balanceMicros: 1000, now });
      const t = newTask({ tool: 'x.recover', payer: { kind: 'key', id: 'key_c2' }, maxAttempts: 2, now });
      await s.createTask(t, { chargeKeyId: 'key_c2' });
      await s.claimTasks({ owner: 'dead', limit: 1, leaseMs: 10, now, onlyTools: ['x.recover'] });
      expect(await s.recoverExpiredLeases(now + 5)).toEqual({ requeued: 0, failed: 0 });
      expect(await s.recoverExpiredLeases(now + 20)).toEqual({ requeued: 1, failed: 0 });
      await s.claimTasks({ owner: 'dead2', limit: 1, leaseMs: 10, now: now + 30, onlyTools: ['x.recover'] });
      expect(await s.recoverExpiredLeases(now + 50)).toEqual({ requeued: 0, failed: 1 });
      const final = await s.getTask(t.id);
      expect(final!.status).toBe('failed');
      expect(final!.errorKind).toBe('crashed');
      expect((await s.findKey('key_c2'))!.balanceMicros).toBe(1000);
    });

    it('renewLeases reports held and cancel-requested tasks; cancel of pending is immediate', async () => {
      const s = await open();
      const now = Date.now();
      const running = newTask({ tool: 'x.renew', now });
      const pending = newTask({ tool: 'x.pending', now });
      await s.createTask(running);
      await s.createTask(pending);
      await s.claimTasks({ owner: 'w', limit: 1, leaseMs: 1000, now, onlyTools: ['x.renew'] });
      expect((await s.requestCancel(pending.id, now))!.status).toBe('cancelled');
      expect((await s.requestCancel(running.id, now))!.cancelRequested).toBe(true);
      expect(await s.renewLeases('w', [running.id], 1000, now)).toEqual({ held: [running.id], cancelRequested: [running.id] });
      expect(await s.renewLeases('other', [running.id], 1000, now)).toEqual({ held: [], cancelRequested: [] });
    });

    it('lists tasks by payer, newest first, and reports stats', async () => {
      const s = await open();
      const payer = { kind: 'x402' as const, id: `0x${Math.random().toString(16).slice(2)}` };
      const a = newTask({ payer, now: 1000 });
      const b = newTask({ payer, now: 2000 });
      await s.createTask(a);
      await s.createTask(b);
      expect((await s.listTasksByPayer(payer, 10)).map((t) => t.id)).toEqual([b.id, a.id]);
      expect((await s.listTasksByPayer(payer, 10, 2000)).map((t) => t.id)).toEqual([a.id]);
      await s.setPayment(a.id, { status: 'settled' });
      expect((await s.getTask(a.id))!.payment).toEqual({ status: 'settled' });
      const stats = await s.stats();
      expect(stats.queueDepth).toBeGreaterThanOrEqual(2);
    });
  });
}
