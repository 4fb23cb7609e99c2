// One contract suite for every store adapter. Each adapter must behave identically on the operations
// that guarantee "no lost task, none run twice, no double charge".
import { afterEach, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import type { NewTask, TaskStore } from '../../src/store/port.js';
import type { SqlTaskStore } from '../../src/db/tasks/task-store.js';
import { storeFactories } from '../support/store-factories.js';
import { schemaSnapshot } from '../support/schema-snapshot.js';
import { applyPending } from '../../src/db/migrate.js';
import { taskMigrations } from '../../src/db/tasks/migrations.js';
import { storeNow, untilStoreClockPasses, type HasDb } from '../support/store-clock.js';

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

    it('migrations are idempotent: running them again leaves the ledger and the schema as they were', async () => {
      const s = (await open()) as SqlTaskStore;
      const set = taskMigrations(s.dialect);
      const before = await schemaSnapshot(s.db);
      // Every migration of this dialect is in the ledger exactly once, and the schema is really there.
      expect(before.ledger.filter((r) => r.component === 'tasks').map((r) => r.name)).toEqual(set.migrations.map((m) => m.name));
      expect(before.tables).toEqual(expect.arrayContaining(['tasks', 'api_keys', 'db_migrations']));
      expect(before.indexes.length).toBeGreaterThan(0);
      expect(before.columns.some((c) => c.startsWith('tasks.status '))).toBe(true);
      await s.migrate();
      await s.migrate();
      // migrate() skips the work when the ledger is up to date: also run the locked path that applies
      // whatever the ledger lacks, so "nothing to apply" is decided by the ledger, not by the shortcut.
      const db = s.db as SqlTaskStore['db'] & { raw?: { exec(sql: string): unknown }; pool?: { query(sql: string): Promise<unknown> } };
      const script = async (sql: string) => (db.raw ? db.raw.exec(sql) : db.pool!.query(sql));
      await db.transaction((tx) => applyPending(tx, set, script));
      expect(await schemaSnapshot(s.db)).toEqual(before);
    });

    it("keeps the console's session epoch, which only moves forward", async () => {
      const s = await open();
      expect(await s.consoleSessionEpoch()).toBe(0);
      await s.endConsoleSessions(1_700_000_000_000);
      expect(await s.consoleSessionEpoch()).toBe(1_700_000_000_000);
      await s.endConsoleSessions(1_600_000_000_000);
      expect(await s.consoleSessionEpoch()).toBe(1_700_000_000_000);
      await s.endConsoleSessions(1_800_000_000_000);
      expect(await s.consoleSessionEpoch()).toBe(1_800_000_000_000);
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

    it('claims by onlyTools whatever characters the names hold', async () => {
      const s = await open();
      const now = Date.now();
      for (const tool of ["q.it's", 'q.plain', "q.x') OR ('1'='1"]) await s.createTask(newTask({ tool, now }));
      const claimed = await s.claimTasks({ owner: 'w', limit: 5, leaseMs: 1000, now, onlyTools: ["q.it's", 'q.none'] });
      expect(claimed.map((t) => t.tool)).toEqual(["q.it's"]);
    });

    it('charges in the creating transaction and refunds exactly once', async () => {
      const s = await open();
      const now = Date.now();
      await s.createKey({ id: 'key_c1', hash: `h-${Math.random()}`, prefix: 'sk_live_aaaaaa', label: null, balanceMicros: 2500, now });
      // Created at `now`, so the claim at `now` below sees them however long the awaits above took.
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
      const failed = await s.failTask(t1.id, 'w', { error: 'walled', kind: 'permanent', refund: true, code: 'BLOCKED_BY_SITE' }, now);
      await s.failTask(t1.id, 'w', { error: 'down', kind: 'transient', refund: true }, now);
      expect((await s.findKey('key_c1'))!.balanceMicros).toBe(1500);
      // The failure's code is kept with it (and a failure without one has none).
      expect(failed).toMatchObject({ status: 'failed', error: 'walled', errorCode: 'BLOCKED_BY_SITE' });
      expect((await s.getTask(t1.id))!.errorCode).toBe('BLOCKED_BY_SITE');
      const c2 = claimed.find((t) => t.id === t2.id)!;
      expect((await s.failTask(c2.id, 'w', { error: 'down', kind: 'transient', refund: true }, now))!.errorCode).toBeNull();
      await s.revokeKey('key_c1', now);
      expect((await s.createTask(newTask({ payer: { kind: 'key', id: 'key_c1' } }), { chargeKeyId: 'key_c1' })).kind).toBe('key_invalid');
    });

    it('charges a batch its total with one ledger row per task; a refused batch leaves no trace', async () => {
      const s = await open();
      const now = Date.now();
      const payer = { kind: 'key' as const, id: 'key_cb' };
      await s.createKey({ id: 'key_cb', hash: `h-${Math.random()}`, prefix: 'sk_live_cbcbcb', label: null, balanceMicros: 2500, now });
      const batch = (id: string, n: number) => {
        const tasks = Array.from({ length: n }, () => newTask({ tool: 'x.cb', payer, now }));
        return { id, tool: 'x.cb', payer, now, tasks, itemTasks: [...tasks.map((_, i) => i), 0] };
      };
      const big = batch('batch_cb_big', 3);
      expect(await s.createBatch(big, { chargeKeyId: 'key_cb' })).toEqual({ kind: 'insufficient_credits', balanceMicros: 2500 });
      expect(await s.getBatch(big.id)).toBeNull();
      expect(await s.getTask(big.tasks[0]!.id)).toBeNull();
      const ok = batch('batch_cb_ok', 2);
      const row = { id: ok.id, tool: 'x.cb', payer, total: 3, unique: 2, priceMicros: 2000, createdAt: now };
      expect(await s.createBatch(ok, { chargeKeyId: 'key_cb' })).toEqual({ kind: 'created', batch: row });
      expect(await s.getBatch(ok.id)).toEqual(row);
      expect((await s.listBatchItems(ok.id, 0, 10)).map((i) => i.task?.id)).toEqual([ok.tasks[0]!.id, ok.tasks[1]!.id, ok.tasks[0]!.id]);
      expect((await s.getTask(ok.tasks[1]!.id))!.chargedMicros).toBe(1000);
      expect((await s.findKey('key_cb'))!.balanceMicros).toBe(500);
      const ledger = await (s as SqlTaskStore).db.all<{ task_id: string; delta_micros: number }>(
        "SELECT task_id, delta_micros FROM credit_ledger WHERE key_id = $1 AND reason = 'charge' ORDER BY task_id",
        ['key_cb'],
      );
      expect(ledger.map((r) => [r.task_id, Number(r.delta_micros)])).toEqual(ok.tasks.map((t) => [t.id, -1000]).sort());
      await s.revokeKey('key_cb', now);
      expect(await s.createBatch(batch('batch_cb_revoked', 1), { chargeKeyId: 'key_cb' })).toEqual({ kind: 'key_invalid' });
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

    it('a used payment nonce is refused before an idempotency hit; a fresh nonce that replays is used up', async () => {
      const s = await open();
      const now = Date.now();
      const payer = { kind: 'x402' as const, id: '0xB' };
      const nonceOf = (tag: string) => ({ network: 'eip155:8453', asset: '0xA', payer: '0xB', nonce: `0x${tag}${Math.random().toString(16).slice(2)}` });
      const idem = { scope: 'x402:0xB', key: 'k', requestHash: 'h1', windowMs: 60_000 };
      const first = nonceOf('1');
      const created = await s.createTask(newTask({ payer, now }), { nonce: first, idempotency: idem });
      expect(created.kind).toBe('created');
      const taskId = created.kind === 'created' ? created.task.id : '';
      // The same payment again, with the same key and request: refused, it never answers twice.
      expect(await s.createTask(newTask({ payer, now }), { nonce: first, idempotency: idem })).toEqual({ kind: 'nonce_used', taskId });
      // A fresh payment with the same key finds the first task, and is then used up as well.
      const second = nonceOf('2');
      const replayed = await s.createTask(newTask({ payer, now }), { nonce: second, idempotency: idem });
      expect(replayed.kind === 'replayed' && replayed.task.id).toBe(taskId);
      expect(await s.createTask(newTask({ payer, now }), { nonce: second, idempotency: idem })).toEqual({ kind: 'nonce_used', taskId });
      expect(await s.createTask(newTask({ payer, now }), { nonce: second })).toEqual({ kind: 'nonce_used', taskId });
      // A fresh payment for a different request under the key: refused, and its nonce stays free.
      const third = nonceOf('3');
      expect((await s.createTask(newTask({ payer, now }), { nonce: third, idempotency: { ...idem, requestHash: 'h2' } })).kind).toBe('idempotency_mismatch');
      expect((await s.createTask(newTask({ payer, now }), { nonce: third })).kind).toBe('created');
      expect(await s.listTasks({ payer, limit: 10 })).toHaveLength(2);
    });

    it('recovers expired leases: requeue, then fail once out of attempts (refunded)', async () => {
      const s = await open();
      const now = Date.now();
      await s.createKey({ id: 'key_c2', hash: `h-${Math.random()}`, prefix: 'sk_live_bbbbbb', label: null, balanceMicros: 1000, now });
      const t = newTask({ tool: 'x.recover', payer: { kind: 'key', id: 'key_c2' }, maxAttempts: 2, now });
      await s.createTask(t, { chargeKeyId: 'key_c2' });
      await s.claimTasks({ owner: 'dead', limit: 1, leaseMs: 60_000, now, onlyTools: ['x.recover'] });
      expect(await s.recoverExpiredLeases(now)).toEqual({ requeued: 0, failed: 0 });
      // The worker's last renewal was short, then it died: once the store's clock passes its end, it is recovered.
      await s.renewLeases('dead', [t.id], 1);
      await untilStoreClockPasses(s as unknown as HasDb, (await s.getTask(t.id))!.leaseExpiresAt!);
      expect(await s.recoverExpiredLeases(now)).toEqual({ requeued: 1, failed: 0 });
      const [again] = await s.claimTasks({ owner: 'dead2', limit: 1, leaseMs: 1, now: now + 30, onlyTools: ['x.recover'] });
      await untilStoreClockPasses(s as unknown as HasDb, again!.leaseExpiresAt!);
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
      expect(await s.renewLeases('w', [running.id], 1000)).toEqual({ held: [running.id], cancelRequested: [running.id] });
      expect(await s.renewLeases('other', [running.id], 1000)).toEqual({ held: [], cancelRequested: [] });
    });

    it('keeps input, result and payment exactly as given (key order, escapes, unicode)', async () => {
      const s = await open();
      const now = Date.now();
      const input = { zeta: 1, alpha: [3, 1, { b: 'x', a: null }], 'naïve ✓': 'a\u0000b', big: 9007199254740991, neg: -0.25 };
      const t = newTask({ tool: 'x.json', input, now, payment: { z: 1, a: 'two' } });
      await s.createTask(t);
      const [claimed] = await s.claimTasks({ owner: 'w', limit: 1, leaseMs: 10_000, now, onlyTools: ['x.json'] });
      expect(JSON.stringify(claimed!.input)).toBe(JSON.stringify(input));
      const result = { records: { B: [], A: ['1.2.3.4'] }, domain: 'ex\u0000ample.test', exists: true, note: 'emoji 🎉 and \ud800 lone' };
      const done = await s.completeTask(t.id, 'w', result, now);
      expect(JSON.stringify(done!.result)).toBe(JSON.stringify(result));
      const again = await s.getTask(t.id);
      expect(JSON.stringify(again!.result)).toBe(JSON.stringify(result));
      expect(again!.payment).toEqual({ z: 1, a: 'two' });
      const nullResult = newTask({ tool: 'x.json', now });
      await s.createTask(nullResult);
      await s.claimTasks({ owner: 'w', limit: 1, leaseMs: 10_000, now, onlyTools: ['x.json'] });
      expect((await s.completeTask(nullResult.id, 'w', null, now))!.result).toBeNull();
    });

    it('concurrent charges of one key never overdraw it', async () => {
      const s = await open();
      const now = Date.now();
      await s.createKey({ id: 'key_c3', hash: `h-${Math.random()}`, prefix: 'sk_live_cccccc', label: null, balanceMicros: 5000, now });
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, () => s.createTask(newTask({ payer: { kind: 'key', id: 'key_c3' }, now }), { chargeKeyId: 'key_c3' })),
      );
      expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(5);
      expect(outcomes.filter((o) => o.kind === 'insufficient_credits')).toHaveLength(7);
      expect((await s.findKey('key_c3'))!.balanceMicros).toBe(0);
      expect(await s.listTasks({ payer: { kind: 'key', id: 'key_c3' }, limit: 100 })).toHaveLength(5);
    });

    it('createTasks: one transaction, outcomes in order, each refusal leaves no trace and spares the others', async () => {
      const s = (await open()) as SqlTaskStore;
      const now = Date.now();
      await s.createKey({ id: 'key_g1', hash: `h-${Math.random()}`, prefix: 'sk_live_gggg11', label: null, balanceMicros: 1500, now });
      await s.createKey({ id: 'key_g2', hash: `h-${Math.random()}`, prefix: 'sk_live_gggg22', label: null, balanceMicros: 5000, now });
      await s.revokeKey('key_g2', now);
      const nonce = { network: 'eip155:8453', asset: '0xA', payer: '0xG', nonce: `0x${Math.random().toString(16).slice(2)}` };
      const idem = { scope: 'key:key_g1', key: 'g', requestHash: 'h1', windowMs: 60_000 };
      const first = await s.createTask(newTask({ now }), { idempotency: idem });
      const usedNonce = await s.createTask(newTask({ now }), { nonce });
      const payer = { kind: 'key' as const, id: 'key_g1' };
      const items = [
        { task: newTask({ payer, now }), opts: { chargeKeyId: 'key_g1' } },
        { task: newTask({ now }), opts: { idempotency: idem } },
        { task: newTask({ now }), opts: { idempotency: { ...idem, requestHash: 'h2' } } },
        { task: newTask({ now }), opts: { nonce } },
        { task: newTask({ now }), opts: { chargeKeyId: 'key_g2' } },
        { task: newTask({ payer, now }), opts: { chargeKeyId: 'key_g1', idempotency: { ...idem, key: 'g2' } } },
        { task: newTask({ now, tool: 'email.verify' }), opts: { nonce: { ...nonce, nonce: `${nonce.nonce}ff` }, idempotency: { ...idem, key: 'g3' } } },
        { task: newTask({ now }), opts: {} },
      ];
      const outcomes = await s.createTasks(items);
      expect(outcomes.map((o) => o.kind)).toEqual([
        'created',
        'replayed',
        'idempotency_mismatch',
        'nonce_used',
        'key_invalid',
        'insufficient_credits',
        'created',
        'created',
      ]);
      expect(outcomes[1]!.kind === 'replayed' && first.kind === 'created' && outcomes[1]!.task.id).toBe(first.kind === 'created' && first.task.id);
      expect(outcomes[3]).toEqual({ kind: 'nonce_used', taskId: usedNonce.kind === 'created' ? usedNonce.task.id : '' });
      expect(outcomes[5]).toEqual({ kind: 'insufficient_credits', balanceMicros: 500 });
      for (const [i, o] of outcomes.entries()) {
        if (o.kind === 'created') expect(o.task.id).toBe(items[i]!.task.id);
        expect((await s.getTask(items[i]!.task.id))?.id ?? null).toBe(o.kind === 'created' ? items[i]!.task.id : null);
      }
      expect((await s.findKey('key_g1'))!.balanceMicros).toBe(500);
      // The refused creation with an idempotency key did not take the key: a new request under it is created.
      expect((await s.createTask(newTask({ now }), { idempotency: { ...idem, key: 'g2' } })).kind).toBe('created');
      expect((await s.createTask(newTask({ now }), { nonce: { ...nonce, nonce: `${nonce.nonce}ff` } })).kind).toBe('nonce_used');
      expect(await s.createTasks([])).toEqual([]);
    });

    it('createTasks: two creations charging one key past its balance: the first is created, the second refused', async () => {
      const s = (await open()) as SqlTaskStore;
      const now = Date.now();
      await s.createKey({ id: 'key_g3', hash: `h-${Math.random()}`, prefix: 'sk_live_gggg33', label: null, balanceMicros: 1500, now });
      const payer = { kind: 'key' as const, id: 'key_g3' };
      const a = newTask({ payer, now });
      const b = newTask({ payer, now });
      const outcomes = await s.createTasks([
        { task: a, opts: { chargeKeyId: 'key_g3' } },
        { task: b, opts: { chargeKeyId: 'key_g3' } },
      ]);
      expect(outcomes[0]!.kind === 'created' && outcomes[0]!.task.chargedMicros).toBe(1000);
      expect(outcomes[1]).toEqual({ kind: 'insufficient_credits', balanceMicros: 500 });
      expect(await s.getTask(b.id)).toBeNull();
      expect((await s.findKey('key_g3'))!.balanceMicros).toBe(500);
    });

    it('createTasks: many plain creations on one key are charged their total with one ledger row each, answered in order as stored', async () => {
      const s = (await open()) as SqlTaskStore;
      const now = Date.now();
      await s.createKey({ id: 'key_g6', hash: `h-${Math.random()}`, prefix: 'sk_live_gggg66', label: null, balanceMicros: 20_000, now });
      const payer = { kind: 'key' as const, id: 'key_g6' };
      const wallet = { kind: 'x402' as const, id: '0xg6' };
      const items = [
        ...Array.from({ length: 12 }, (_, i) => ({
          task: newTask({ payer, now, input: { i, text: 'ünïcode \u0000 kept' } }),
          opts: { chargeKeyId: 'key_g6' },
        })),
        ...Array.from({ length: 3 }, () => ({ task: newTask({ payer: wallet, now, priceMicros: 0 }), opts: {} })),
      ];
      const outcomes = await s.createTasks(items);
      expect(outcomes.every((o) => o.kind === 'created')).toBe(true);
      for (const [i, o] of outcomes.entries()) {
        expect(o.kind === 'created' && o.task).toEqual(await s.getTask(items[i]!.task.id));
        expect(o.kind === 'created' && o.task.input).toEqual(items[i]!.task.input);
      }
      expect((await s.findKey('key_g6'))!.balanceMicros).toBe(8000);
      const ledger = await s.db.all<{ task_id: string; delta_micros: number }>(
        "SELECT task_id, delta_micros FROM credit_ledger WHERE key_id = $1 AND reason = 'charge' ORDER BY task_id",
        ['key_g6'],
      );
      expect(ledger.map((r) => [r.task_id, Number(r.delta_micros)])).toEqual(
        items
          .slice(0, 12)
          .map((c) => [c.task.id, -1000])
          .sort(),
      );
    });

    it('createTasks: concurrent batches charging the same keys in opposite orders all commit, never overdrawing', async () => {
      const s = (await open()) as SqlTaskStore;
      const now = Date.now();
      const keys = ['key_g4', 'key_g5'];
      for (const [i, id] of keys.entries())
        await s.createKey({ id, hash: `h-${Math.random()}`, prefix: `sk_live_gggg4${i}`, label: null, balanceMicros: 6000, now });
      const batch = (ids: string[]) => s.createTasks(ids.map((id) => ({ task: newTask({ payer: { kind: 'key', id }, now }), opts: { chargeKeyId: id } })));
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => batch(i % 2 ? ['key_g4', 'key_g5'] : ['key_g5', 'key_g4'])));
      const created = results.flat().filter((o) => o.kind === 'created');
      expect(created).toHaveLength(12);
      for (const id of keys) expect((await s.findKey(id))!.balanceMicros).toBe(0);
    });

    it('one idempotency key yields one task, even concurrently; a refused request leaves no record', async () => {
      const s = await open();
      const now = Date.now();
      const payer = { kind: 'key' as const, id: 'key_c4' };
      await s.createKey({ id: 'key_c4', hash: `h-${Math.random()}`, prefix: 'sk_live_dddddd', label: null, balanceMicros: 500, now });
      const idem = { scope: 'key:key_c4', key: 'same', requestHash: 'h1', windowMs: 60_000 };
      // Too few credits: refused, and the key is not taken by the refused request.
      expect((await s.createTask(newTask({ payer, now }), { chargeKeyId: 'key_c4', idempotency: idem })).kind).toBe('insufficient_credits');
      await s.creditKey('key_c4', 10_000, 'top-up', now);
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => s.createTask(newTask({ payer, now }), { chargeKeyId: 'key_c4', idempotency: idem })));
      const created = outcomes.filter((o) => o.kind === 'created');
      expect(created).toHaveLength(1);
      const id = created[0]!.kind === 'created' ? created[0]!.task.id : '';
      expect(outcomes.every((o) => (o.kind === 'created' || o.kind === 'replayed') && o.task.id === id)).toBe(true);
      expect(await s.listTasks({ payer, limit: 100 })).toHaveLength(1);
      expect((await s.findKey('key_c4'))!.balanceMicros).toBe(10_500 - 1000);
    });

    it('many workers claiming at once get each task exactly once, oldest first', async () => {
      const s = await open();
      const now = Date.now();
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const t = newTask({ tool: 'x.many', now: now - 1000 + i });
        ids.push(t.id);
        await s.createTask(t);
      }
      const claimedBy = new Map<string, string>();
      await Promise.all(
        ['w1', 'w2', 'w3', 'w4', 'w5'].map(async (owner) => {
          for (;;) {
            const got = await s.claimTasks({ owner, limit: 3, leaseMs: 10_000, now, onlyTools: ['x.many'] });
            if (got.length === 0) return;
            for (const t of got) {
              expect(claimedBy.has(t.id)).toBe(false);
              claimedBy.set(t.id, owner);
            }
          }
        }),
      );
      expect([...claimedBy.keys()].sort()).toEqual([...ids].sort());
      const first = await s.claimTasks({ owner: 'late', limit: 1, leaseMs: 10_000, now, onlyTools: ['x.many'] });
      expect(first).toEqual([]);
      const ordered = newTask({ tool: 'x.order', now: now - 50 });
      const newer = newTask({ tool: 'x.order', now: now - 10 });
      await s.createTask(newer);
      await s.createTask(ordered);
      expect((await s.claimTasks({ owner: 'w', limit: 1, leaseMs: 1000, now, onlyTools: ['x.order'] }))[0]!.id).toBe(ordered.id);
    });

    it("fair share: a payer's 1,000-task batch does not starve another payer's single tasks", async () => {
      const s = await open();
      const now = Date.now();
      const payerA = { kind: 'key' as const, id: 'key_fair_a' };
      const payerB = { kind: 'key' as const, id: 'key_fair_b' };
      // A's batch is older than B's tasks: in plain claim order it would fill every slot.
      const ids = Array.from({ length: 1000 }, (_, i) => `task_fa${String(i).padStart(5, '0')}`);
      const tasks = ids.map((id) => newTask({ id, tool: 'x.fair', payer: payerA, now: now - 100 }));
      expect((await s.createBatch({ id: 'batch_fair_a', tool: 'x.fair', payer: payerA, now: now - 100, tasks, itemTasks: tasks.map((_, i) => i) })).kind).toBe(
        'created',
      );
      const singles = [];
      for (let i = 0; i < 3; i++) {
        const t = newTask({ id: `task_fb${i}`, tool: 'x.fair', payer: payerB, now: now - 50 + i });
        singles.push(t.id);
        await s.createTask(t);
      }
      const claimed = await s.claimTasks({ owner: 'w', limit: 4, leaseMs: 10_000, now, onlyTools: ['x.fair'] });
      // Round-robin by payer: rank 1 of each (A's oldest first), then rank 2…, A keeps its own order.
      expect(claimed.map((t) => t.id)).toEqual([ids[0], singles[0], ids[1], singles[1]]);
      const next = await s.claimTasks({ owner: 'w', limit: 4, leaseMs: 10_000, now, onlyTools: ['x.fair'] });
      expect(next.map((t) => t.id)).toEqual([ids[2], singles[2], ids[3], ids[4]]);
      // B has nothing left: A's tasks come in claim order (id last), as with a single payer.
      const rest = await s.claimTasks({ owner: 'w', limit: 5, leaseMs: 10_000, now, onlyTools: ['x.fair'] });
      expect(rest.map((t) => t.id)).toEqual(ids.slice(5, 10));
    });

    it("fair share: two payers' batches interleave (a payer without id is one payer too)", async () => {
      const s = await open();
      const now = Date.now();
      const batch = async (name: string, payer: NewTask['payer'], at: number) => {
        const tasks = Array.from({ length: 6 }, (_, i) => newTask({ id: `task_${name}${i}`, tool: 'x.fair2', payer, now: at }));
        await s.createBatch({ id: `batch_${name}`, tool: 'x.fair2', payer, now: at, tasks, itemTasks: tasks.map((_, i) => i) });
        return tasks.map((t) => t.id);
      };
      const a = await batch('ia', { kind: 'key', id: 'key_fair2_a' }, now - 100);
      const b = await batch('ib', { kind: 'key', id: 'key_fair2_b' }, now - 90);
      const c = await batch('ic', { kind: 'local', id: null }, now - 80);
      const claimed = await s.claimTasks({ owner: 'w', limit: 9, leaseMs: 10_000, now, onlyTools: ['x.fair2'] });
      expect(claimed.map((t) => t.id)).toEqual([a[0], b[0], c[0], a[1], b[1], c[1], a[2], b[2], c[2]]);
    });

    it("a claim takes at most a limited tool's room and fills the other slots with other tools, in claim order", async () => {
      const s = await open();
      const now = Date.now();
      const tasks = Array.from({ length: 12 }, (_, i) => newTask({ tool: i < 6 ? 'x.lim' : 'x.free', now: now - 1000 + i }));
      for (const t of tasks) await s.createTask(t);
      const ids = tasks.map((t) => t.id);
      const claim = (limit: number, toolLimits: Record<string, number>) =>
        s.claimTasks({ owner: 'w', limit, leaseMs: 10_000, now, onlyTools: ['x.lim', 'x.free'], toolLimits });
      // Single payer: the oldest two x.lim, then x.free in claim order past the other x.lim.
      expect((await claim(5, { 'x.lim': 2 })).map((t) => t.id)).toEqual([ids[0], ids[1], ids[6], ids[7], ids[8]]);
      // Another payer waiting takes the fair-order path: the limit holds there too (its older x.lim task
      // comes first in the round of rank 1; the local payer's next x.lim is then over the limit).
      const other = newTask({ tool: 'x.lim', payer: { kind: 'key', id: 'key_lim_b' }, now: now - 2000 });
      await s.createTask(other);
      expect((await claim(4, { 'x.lim': 1 })).map((t) => t.id)).toEqual([other.id, ids[9], ids[10], ids[11]]);
      expect((await claim(10, {})).map((t) => t.id)).toEqual([ids[2], ids[3], ids[4], ids[5]]);
    });

    it("a session's tasks go only to that session while its lease lives, then to any worker (migration 014)", async () => {
      const s = await open();
      const now = Date.now();
      const claim = (owner: string, at = now) => s.claimTasks({ owner, limit: 10, leaseMs: 10_000, now: at, onlyTools: ['x.sess'] });
      const db = (s as unknown as HasDb).db;
      const sessions = async () => (await db.all<{ id: string }>('SELECT id FROM task_sessions ORDER BY id')).map((r) => r.id);
      await s.renewSession('sess-a', 60_000);
      await s.renewSession('sess-b', 60_000);
      const ofA = newTask({ tool: 'x.sess', session: 'sess-a', now: now - 30 });
      const anyone = newTask({ tool: 'x.sess', now: now - 20 });
      // Another payer's task of A's session: the fair-order path (several payers) filters as well.
      const ofAOther = newTask({ tool: 'x.sess', session: 'sess-a', payer: { kind: 'key', id: 'key_sess' }, now: now - 10 });
      await s.createTask(ofA);
      await s.createTask(anyone);
      await s.createTask(ofAOther);
      const batchTasks = [newTask({ tool: 'x.sess', now: now - 5 })];
      await s.createBatch({ id: 'batch_sess', tool: 'x.sess', payer: ofA.payer, now: now - 5, tasks: batchTasks, itemTasks: [0], session: 'sess-a' });
      // B (and a server worker with no session) may take only the task nobody owns.
      expect((await claim('sess-b')).map((t) => t.id)).toEqual([anyone.id]);
      expect(await claim('serve-worker')).toEqual([]);
      // A takes its own, single tasks and batch alike.
      expect((await claim('sess-a')).map((t) => t.id).sort()).toEqual([ofA.id, ofAOther.id, batchTasks[0]!.id].sort());

      // A session that dies leaves its lease to expire on the store's clock: then its tasks are anyone's.
      const orphan = newTask({ tool: 'x.sess', session: 'sess-a', now: now + 1 });
      await s.createTask(orphan);
      expect(await claim('sess-b', now + 1000)).toEqual([]);
      await s.renewSession('sess-a', 0);
      await untilStoreClockPasses({ db }, await storeNow({ db }));
      expect((await claim('sess-b', now + 1000)).map((t) => t.id)).toEqual([orphan.id]);

      // A session that stops cleanly hands its pending tasks over at once; renewing clears expired leases.
      expect(await sessions()).toEqual(['sess-a', 'sess-b']);
      await s.renewSession('sess-c', 60_000);
      expect(await sessions()).toEqual(['sess-b', 'sess-c']);
      const left = newTask({ tool: 'x.sess', session: 'sess-c', now: now + 2 });
      await s.createTask(left);
      expect(await claim('sess-b', now + 2000)).toEqual([]);
      await s.endSession('sess-c');
      expect((await claim('sess-b', now + 2000)).map((t) => t.id)).toEqual([left.id]);
    });

    // A worker's clock ten minutes ahead of the store's (and of the other workers'): every lease decision is
    // the store's, so its `now` changes what is due, never whose lease has ended.
    const AHEAD_MS = 10 * 60_000;

    it("a worker whose clock runs far ahead neither recovers nor claims a task whose lease is held and renewed; once the lease ends on the store's clock it is recovered, due at once", async () => {
      const s = await open();
      const clock = s as unknown as HasDb;
      const now = Date.now();
      const ahead = now + AHEAD_MS;
      const t = newTask({ tool: 'x.skew', maxAttempts: 3, now });
      await s.createTask(t);
      const before = await storeNow(clock);
      const [held] = await s.claimTasks({ owner: 'holder', limit: 1, leaseMs: 60_000, now, onlyTools: ['x.skew'] });
      // The lease ends a minute from the store's now, whatever the claimer's clock said.
      expect(held!.leaseExpiresAt).toBeGreaterThanOrEqual(before + 60_000);
      expect(held!.leaseExpiresAt).toBeLessThanOrEqual((await storeNow(clock)) + 60_000);
      for (let renewal = 0; renewal < 3; renewal++) {
        expect(await s.recoverExpiredLeases(ahead + renewal * AHEAD_MS)).toEqual({ requeued: 0, failed: 0 });
        expect(await s.claimTasks({ owner: 'skewed', limit: 10, leaseMs: 60_000, now: ahead, onlyTools: ['x.skew'] })).toEqual([]);
        expect(await s.renewLeases('holder', [t.id], 60_000)).toEqual({ held: [t.id], cancelRequested: [] });
      }
      expect(await s.getTask(t.id)).toMatchObject({ status: 'running', leaseOwner: 'holder', attempts: 1 });

      // The holder's last renewal is short and then it dies: the skewed worker recovers the task only once
      // the store's clock has passed that lease's end. It requeues the task due by the store's clock, not by
      // its own ten minutes ahead: a worker whose clock agrees with the store's takes it at once, and the
      // holder can no longer settle it.
      await s.renewLeases('holder', [t.id], 1);
      await untilStoreClockPasses(clock, (await s.getTask(t.id))!.leaseExpiresAt!);
      expect(await s.recoverExpiredLeases(ahead)).toEqual({ requeued: 1, failed: 0 });
      const [again] = await s.claimTasks({ owner: 'next', limit: 1, leaseMs: 60_000, now: (await storeNow(clock)) + 1, onlyTools: ['x.skew'] });
      expect(again).toMatchObject({ id: t.id, attempts: 2, leaseOwner: 'next' });
      expect(await s.completeTask(t.id, 'holder', { late: true }, now)).toBeNull();
    });

    it("a worker whose clock runs far ahead does not take a live session's tasks; once the session's lease ends on the store's clock it does (migration 016)", async () => {
      const s = await open();
      const clock = s as unknown as HasDb;
      const now = Date.now();
      const ahead = now + AHEAD_MS;
      const claimAhead = () => s.claimTasks({ owner: 'skewed', limit: 10, leaseMs: 60_000, now: ahead, onlyTools: ['x.skew-sess'] });
      await s.renewSession('sess-live', 60_000);
      const t = newTask({ tool: 'x.skew-sess', session: 'sess-live', now });
      await s.createTask(t);
      for (let renewal = 0; renewal < 3; renewal++) {
        expect(await claimAhead()).toEqual([]);
        await s.renewSession('sess-live', 60_000);
      }
      // The session's last renewal is short and then it dies.
      await s.renewSession('sess-live', 1);
      const [row] = await clock.db.all<{ expires_at: unknown }>("SELECT expires_at FROM task_sessions WHERE id = 'sess-live'");
      await untilStoreClockPasses(clock, Number(row!.expires_at));
      expect((await claimAhead()).map((c) => c.id)).toEqual([t.id]);
    });

    it("a leader lease is held by one holder at a time, renewed by it, and taken over once it expires on the store's clock (migration 015)", async () => {
      const s = await open();
      // Expiry is the store's clock plus the TTL: a live lease has a TTL of a minute, an expired one 0 or a
      // few milliseconds waited out (no caller passes its own clock).
      const live = 60_000;
      // Free: the first asker takes it; the holder renews it; another is refused while it lives.
      expect(await s.holdLease('job', 'a', live)).toBe(true);
      expect(await s.holdLease('job', 'a', live)).toBe(true);
      expect(await s.holdLease('job', 'b', live)).toBe(false);
      // Leases are per name.
      expect(await s.holdLease('other-job', 'b', live)).toBe(true);
      // A renewal sets the expiry from the store's now: renewed with a TTL of 0 the lease has expired, so B
      // takes it, and A's renewal fails.
      expect(await s.holdLease('job', 'a', 0)).toBe(true);
      expect(await s.holdLease('job', 'b', live)).toBe(true);
      expect(await s.holdLease('job', 'a', live)).toBe(false);
      // A short lease runs out on the store's clock by itself.
      expect(await s.holdLease('short', 'a', 20)).toBe(true);
      await new Promise((r) => setTimeout(r, 60));
      expect(await s.holdLease('short', 'b', live)).toBe(true);
      // Releasing another's lease does nothing; releasing one's own frees it at once.
      await s.releaseLease('job', 'a');
      expect(await s.holdLease('job', 'a', live)).toBe(false);
      await s.releaseLease('job', 'b');
      expect(await s.holdLease('job', 'a', live)).toBe(true);
      // Two askers at once for a free lease: exactly one wins.
      const race = await Promise.all(['c', 'd', 'e'].map((h) => s.holdLease('raced', h, live)));
      expect(race.filter(Boolean)).toHaveLength(1);
    });

    it('completions settled together: each only under its lease, answered in the order given', async () => {
      const s = (await open()) as SqlTaskStore;
      const now = Date.now();
      const tasks = Array.from({ length: 4 }, (_, i) => newTask({ tool: 'x.batchdone', now: now - 100 + i }));
      for (const t of tasks) await s.createTask(t);
      await s.claimTasks({ owner: 'w1', limit: 3, leaseMs: 10_000, now, onlyTools: ['x.batchdone'] });
      await s.claimTasks({ owner: 'w2', limit: 1, leaseMs: 10_000, now, onlyTools: ['x.batchdone'] });
      const [a, b, c, d] = tasks.map((t) => t.id);
      const inputOf = (id: string) => tasks.find((t) => t.id === id)!.input;
      const result = { text: 'k\u0000ey order', z: 1, a: [2, { y: null }] };
      const settled = await s.completeTasks('w1', [
        { id: c!, input: inputOf(c!), result: { n: 3 }, now: now + 3 },
        { id: d!, input: inputOf(d!), result: { n: 4 }, now: now + 4 },
        { id: a!, input: inputOf(a!), result, now: now + 1 },
        { id: b!, input: inputOf(b!), result: { n: 2 }, now: now + 2 },
      ]);
      expect(settled.map((t) => t?.id ?? null)).toEqual([c, null, a, b]);
      expect(settled.map((t) => t?.finishedAt ?? null)).toEqual([now + 3, null, now + 1, now + 2]);
      // Each answer is the task as stored, as a poller reads it.
      for (const t of settled) if (t) expect(t).toEqual(await s.getTask(t.id));
      expect(JSON.stringify((await s.getTask(a!))!.result)).toBe(JSON.stringify(result));
      expect(await s.getTask(d!)).toMatchObject({ status: 'running', leaseOwner: 'w2' });
      // Settled once: a second completion of the same tasks changes nothing.
      expect(
        await s.completeTasks('w1', [
          { id: a!, input: inputOf(a!), result: {}, now },
          { id: b!, input: inputOf(b!), result: {}, now },
        ]),
      ).toEqual([null, null]);
      expect((await s.getTask(b!))!.result).toEqual({ n: 2 });
    });

    it('fair share: with more waiting payers than a claim looks at, the oldest tasks still come first', async () => {
      const s = await open();
      const now = Date.now();
      // 80 payers with one task each; the oldest tasks belong to the payers that sort last by id, beyond the
      // 64 payers a claim enumerates, so they are reached through the global claim order.
      const ids: string[] = [];
      for (let i = 0; i < 80; i++) {
        const t = newTask({
          id: `task_fc${String(i).padStart(3, '0')}`,
          tool: 'x.fair3',
          payer: { kind: 'key', id: `key_fc${String(79 - i).padStart(3, '0')}` },
          now: now - 1000 + i,
        });
        ids.push(t.id);
        await s.createTask(t);
      }
      expect((await s.claimTasks({ owner: 'w', limit: 5, leaseMs: 10_000, now, onlyTools: ['x.fair3'] })).map((t) => t.id)).toEqual(ids.slice(0, 5));
      const rest = await s.claimTasks({ owner: 'w', limit: 100, leaseMs: 10_000, now, onlyTools: ['x.fair3'] });
      expect(rest.map((t) => t.id)).toEqual(ids.slice(5));
    });

    it('a worker whose lease was recovered can no longer settle; concurrent sweeps count each task once', async () => {
      const s = await open();
      const now = Date.now();
      await s.createKey({ id: 'key_c5', hash: `h-${Math.random()}`, prefix: 'sk_live_eeeeee', label: null, balanceMicros: 100_000, now });
      const tasks = Array.from({ length: 10 }, () => newTask({ tool: 'x.sweep', payer: { kind: 'key', id: 'key_c5' }, maxAttempts: 1, now }));
      for (const t of tasks) await s.createTask(t, { chargeKeyId: 'key_c5' });
      const gone = await s.claimTasks({ owner: 'gone', limit: 10, leaseMs: 1, now, onlyTools: ['x.sweep'] });
      await untilStoreClockPasses(s as unknown as HasDb, Math.max(...gone.map((g) => g.leaseExpiresAt!)));
      const sweeps = await Promise.all([1, 2, 3, 4].map(() => s.recoverExpiredLeases(now + 100)));
      expect(sweeps.reduce((n, r) => n + r.failed + r.requeued, 0)).toBe(10);
      expect(sweeps.reduce((n, r) => n + r.failed, 0)).toBe(10);
      // Out of attempts (1): failed as crashed, refunded exactly once.
      expect((await s.findKey('key_c5'))!.balanceMicros).toBe(100_000);
      expect(await s.completeTask(tasks[0]!.id, 'gone', { late: true }, now + 200)).toBeNull();
      expect(await s.retryTask(tasks[1]!.id, 'gone', 'late', now + 200, now + 200)).toBe(false);
      expect((await s.getTask(tasks[0]!.id))!.status).toBe('failed');
      // Requeued (attempts left): the old owner cannot settle it either.
      const t = newTask({ tool: 'x.sweep2', maxAttempts: 3, now });
      await s.createTask(t);
      const [old] = await s.claimTasks({ owner: 'old', limit: 1, leaseMs: 1, now, onlyTools: ['x.sweep2'] });
      await untilStoreClockPasses(s as unknown as HasDb, old!.leaseExpiresAt!);
      expect(await s.recoverExpiredLeases(now + 100)).toEqual({ requeued: 1, failed: 0 });
      expect(await s.completeTask(t.id, 'old', { late: true }, now + 200)).toBeNull();
      expect(await s.renewLeases('old', [t.id], 1000)).toEqual({ held: [], cancelRequested: [] });
      const [again] = await s.claimTasks({ owner: 'new', limit: 1, leaseMs: 1000, now: now + 200, onlyTools: ['x.sweep2'] });
      expect(again!.attempts).toBe(2);
      expect((await s.completeTask(t.id, 'new', { ok: 1 }, now + 300))!.status).toBe('complete');
    });

    it('cancelling a pending task concurrently refunds it once', async () => {
      const s = await open();
      const now = Date.now();
      await s.createKey({ id: 'key_c6', hash: `h-${Math.random()}`, prefix: 'sk_live_ffffff', label: null, balanceMicros: 3000, now });
      const t = newTask({ tool: 'x.cancel', payer: { kind: 'key', id: 'key_c6' }, now });
      await s.createTask(t, { chargeKeyId: 'key_c6' });
      expect((await s.findKey('key_c6'))!.balanceMicros).toBe(2000);
      const results = await Promise.all([1, 2, 3, 4, 5].map(() => s.requestCancel(t.id, now)));
      expect(results.every((r) => r!.status === 'cancelled')).toBe(true);
      expect((await s.findKey('key_c6'))!.balanceMicros).toBe(3000);
      expect(await s.requestCancel('task_nope', now)).toBeNull();
    });

    it('retention deletes only finished tasks older than the cutoff', async () => {
      const s = await open();
      const now = Date.now();
      const old = newTask({ tool: 'x.ret', now: now - 10_000 });
      const fresh = newTask({ tool: 'x.ret', now: now - 10_000 });
      const pending = newTask({ tool: 'x.ret-pending', now: now - 10_000 });
      for (const t of [old, fresh, pending]) await s.createTask(t);
      await s.claimTasks({ owner: 'w', limit: 2, leaseMs: 60_000, now, onlyTools: ['x.ret'] });
      await s.completeTask(old.id, 'w', {}, now - 5_000);
      await s.completeTask(fresh.id, 'w', {}, now);
      expect(await s.deleteFinishedBefore(now - 1_000)).toBe(1);
      expect(await s.getTask(old.id)).toBeNull();
      expect(await s.getTask(fresh.id)).not.toBeNull();
      expect(await s.getTask(pending.id)).not.toBeNull();
    });

    it('keys: find by id or prefix, list, credit with the ledger, revoke once', async () => {
      const s = await open();
      const now = Date.now();
      await s.createKey({ id: 'key_c7', hash: 'hash-c7', prefix: 'sk_live_gggggg', label: 'ops', balanceMicros: 0, now });
      expect((await s.findKey('sk_live_gggggg'))!.id).toBe('key_c7');
      expect((await s.findKeyByHash('hash-c7'))!.label).toBe('ops');
      expect(await s.findKeyByHash('nope')).toBeNull();
      expect((await s.creditKey('key_c7', 2_500_000, 'manual', now))!.balanceMicros).toBe(2_500_000);
      expect(await s.creditKey('key_missing', 1, 'manual', now)).toBeNull();
      const revoked = await s.revokeKey('key_c7', now + 1);
      expect(revoked!.revokedAt).toBe(now + 1);
      expect((await s.revokeKey('key_c7', now + 99))!.revokedAt).toBe(now + 1);
      expect((await s.listKeys()).map((k) => k.id)).toContain('key_c7');
    });

    it('lists tasks by payer, newest first, and reports stats', async () => {
      const s = await open();
      const payer = { kind: 'x402' as const, id: `0x${Math.random().toString(16).slice(2)}` };
      const a = newTask({ payer, now: 1000 });
      const b = newTask({ payer, now: 2000 });
      await s.createTask(a);
      await s.createTask(b);
      expect((await s.listTasks({ payer, limit: 10 })).map((t) => t.id)).toEqual([b.id, a.id]);
      expect((await s.listTasks({ payer, limit: 10, before: 2000 })).map((t) => t.id)).toEqual([a.id]);
      await s.setPayment(a.id, { status: 'settled' });
      expect((await s.getTask(a.id))!.payment).toEqual({ status: 'settled' });
      const stats = await s.stats();
      expect(stats.queueDepth).toBeGreaterThanOrEqual(2);
    });
    it('a payment is replaced only while pending: its outcome is written once and kept', async () => {
      const s = await open();
      const payer = { kind: 'x402' as const, id: `0x${Math.random().toString(16).slice(2)}` };
      const t = newTask({ payer, payment: { status: 'pending', scheme: 'exact' } });
      await s.createTask(t);
      expect(await s.updatePendingPayment(t.id, { status: 'pending', scheme: 'exact', transaction: '0x1' })).toBe(true);
      expect(await s.updatePendingPayment(t.id, { status: 'settled', scheme: 'exact', transaction: '0x1' })).toBe(true);
      // A second run over the same payment: refused, the first outcome stays.
      expect(await s.updatePendingPayment(t.id, { status: 'settled', scheme: 'exact', transaction: '0x2' })).toBe(false);
      expect(await s.updatePendingPayment(t.id, { status: 'pending', scheme: 'exact', last_error: 'late retry' })).toBe(false);
      expect((await s.getTask(t.id))!.payment).toEqual({ status: 'settled', scheme: 'exact', transaction: '0x1' });
      // A task without a payment, or none at all: nothing to replace.
      const plain = newTask();
      await s.createTask(plain);
      expect(await s.updatePendingPayment(plain.id, { status: 'settled' })).toBe(false);
      expect(await s.updatePendingPayment('task_missing', { status: 'settled' })).toBe(false);
    });
    it('lists without inputs and with results only within the byte budget; batch item refs carry sizes, not results', async () => {
      const s = await open();
      const payer = { kind: 'key' as const, id: `key_rb${Math.random().toString(36).slice(2, 8)}` };
      const tasks = [1000, 2000, 3000].map((now) => newTask({ tool: 'x.rb', payer, now, input: { big: 'i'.repeat(5000) } }));
      for (const t of tasks) await s.createTask(t);
      const claimed = await s.claimTasks({ owner: 'w', limit: 3, leaseMs: 60_000, now: 4000, onlyTools: ['x.rb'] });
      expect(claimed).toHaveLength(3);
      const big = { text: 'r'.repeat(3000) };
      for (const t of claimed) await s.completeTask(t.id, 'w', big, 5000);
      const bytes = JSON.stringify(big).length;
      const listed = await s.listTasks({ payer, limit: 10, resultBudgetBytes: 2 * bytes });
      expect(listed.map((t) => t.input)).toEqual([null, null, null]);
      expect(listed.map((t) => t.result)).toEqual([big, big, null]);
      expect(listed.map((t) => t.resultOmitted ?? false)).toEqual([false, false, true]);
      expect((await s.listTasks({ payer, limit: 10, resultBudgetBytes: 0 })).every((t) => t.result === null && t.resultOmitted)).toBe(true);

      const batchTasks = [newTask({ tool: 'x.rb', payer, now: 6000 })];
      await s.createBatch({ id: `batch_rb_${payer.id}`, tool: 'x.rb', payer, now: 6000, tasks: batchTasks, itemTasks: [0, 0] });
      const [bt] = await s.claimTasks({ owner: 'w', limit: 1, leaseMs: 60_000, now: 7000, onlyTools: ['x.rb'] });
      await s.completeTask(bt!.id, 'w', big, 8000);
      expect(await s.listBatchItemRefs(`batch_rb_${payer.id}`, 1, 10)).toEqual([
        { index: 1, taskId: bt!.id, status: 'complete', error: null, resultBytes: bytes },
      ]);
      expect(await s.getTaskResult(bt!.id)).toEqual(big);
    });
    it("lists a payer's tasks by status, tool and since, paging exactly through tasks of the same millisecond", async () => {
      const s = await open();
      const payer = { kind: 'key' as const, id: 'key_l1' };
      const other = newTask({ payer: { kind: 'key', id: 'key_l2' }, now: 5000 });
      await s.createTask(other);
      const same = [newTask({ payer, now: 5000 }), newTask({ payer, now: 5000 }), newTask({ payer, now: 5000 })];
      const old = newTask({ payer, tool: 'c.old', now: 1000 });
      for (const t of [...same, old]) await s.createTask(t);
      const ids: string[] = [];
      let before: number | undefined;
      let beforeId: string | undefined;
      for (;;) {
        const page = await s.listTasks({ payer, limit: 2, ...(before !== undefined ? { before, beforeId: beforeId! } : {}) });
        ids.push(...page.map((t) => t.id));
        if (page.length < 2) break;
        before = page[1]!.createdAt;
        beforeId = page[1]!.id;
      }
      expect(ids).toEqual([
        ...same
          .map((t) => t.id)
          .sort()
          .reverse(),
        old.id,
      ]);
      expect((await s.listTasks({ payer, limit: 10, tool: 'c.old' })).map((t) => t.id)).toEqual([old.id]);
      expect((await s.listTasks({ payer, limit: 10, since: 2000 })).map((t) => t.id).sort()).toEqual(same.map((t) => t.id).sort());
      await s.requestCancel(old.id, 6000);
      expect((await s.listTasks({ payer, limit: 10, status: 'cancelled' })).map((t) => t.id)).toEqual([old.id]);
      expect(await s.listTasks({ payer, limit: 10, status: 'complete' })).toEqual([]);
    });

    it('usage counts tasks, charges, refunds and failures per tool and per UTC day', async () => {
      const s = await open();
      const day1 = Date.UTC(2026, 0, 1, 12);
      const day2 = Date.UTC(2026, 0, 2, 1);
      await s.createKey({ id: 'key_u1', hash: `h-${Math.random()}`, prefix: 'sk_live_uuuuuu', label: null, balanceMicros: 10_000, now: day1 });
      const payer = { kind: 'key' as const, id: 'key_u1' };
      const a = newTask({ payer, tool: 'u.one', priceMicros: 1000, now: day1 });
      const b = newTask({ payer, tool: 'u.one', priceMicros: 1000, now: day2 });
      const c = newTask({ payer, tool: 'u.two', priceMicros: 2000, now: day2 });
      for (const t of [a, b, c]) expect((await s.createTask(t, { chargeKeyId: 'key_u1' })).kind).toBe('created');
      await s.createTask(newTask({ payer: { kind: 'key', id: 'key_u9' }, tool: 'u.one', now: day1 }));
      await s.claimTasks({ owner: 'w', limit: 5, leaseMs: 10_000, now: day2, onlyTools: ['u.one'] });
      await s.failTask(a.id, 'w', { error: 'down', kind: 'transient', refund: true }, day2);
      await s.failTask(b.id, 'w', { error: 'bad', kind: 'input', refund: false }, day2);
      await s.requestCancel(c.id, day2);
      const range = { payer, from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 3) };
      expect(await s.usage({ ...range, group: 'tool' })).toEqual([
        { bucket: 'u.one', tasks: 2, failed: 2, cancelled: 0, chargedMicros: 2000, refundedMicros: 1000 },
        { bucket: 'u.two', tasks: 1, failed: 0, cancelled: 1, chargedMicros: 2000, refundedMicros: 2000 },
      ]);
      expect(await s.usage({ ...range, group: 'day' })).toEqual([
        { bucket: '2026-01-01', tasks: 1, failed: 1, cancelled: 0, chargedMicros: 1000, refundedMicros: 1000 },
        { bucket: '2026-01-02', tasks: 2, failed: 1, cancelled: 1, chargedMicros: 3000, refundedMicros: 2000 },
      ]);
      expect(await s.usage({ ...range, to: day2, group: 'tool' })).toEqual([
        { bucket: 'u.one', tasks: 1, failed: 1, cancelled: 0, chargedMicros: 1000, refundedMicros: 1000 },
      ]);
    });
    it('key purchases: one signature reserves one purchase; credit is granted once, only on settlement', async () => {
      const s = await open();
      const now = Date.now();
      const wallet = `0x${'Ab'.repeat(20)}`;
      const nonce = (n: string) => ({ network: 'eip155:31337', asset: '0xToken', payer: wallet, nonce: n });
      const buy = { id: 'kp_c1', kind: 'create' as const, keyId: null, wallet, micros: 5_000_000, payment: { status: 'pending' }, nonce: nonce('0x01'), now };
      const results = await Promise.all([s.reserveKeyPurchase(buy), s.reserveKeyPurchase({ ...buy, id: 'kp_c2' })]);
      expect(results.map((r) => r.kind).sort()).toEqual(['nonce_used', 'reserved']);
      const first = results.find((r) => r.kind === 'reserved')!;
      const id = first.kind === 'reserved' ? first.purchase.id : '';
      expect((await s.reserveKeyPurchase({ ...buy, id: 'kp_c3' })).kind).toBe('nonce_used');
      expect(await s.findKey('key_kp1')).toBeNull();
      const newKey = { id: 'key_kp1', hash: `h-${Math.random()}`, prefix: 'sk_live_kkkkkk', label: null };
      const [a, b] = await Promise.all([
        s.settleKeyPurchase(id, { payment: { status: 'settled' }, newKey, now }),
        s.settleKeyPurchase(id, { payment: { status: 'settled' }, newKey: { ...newKey, id: 'key_kp2', hash: `h-${Math.random()}` }, now }),
      ]);
      const granted = [a, b].filter((x) => x !== null);
      expect(granted).toHaveLength(1);
      expect(granted[0]!.key.balanceMicros).toBe(5_000_000);
      expect(granted[0]!.purchase).toMatchObject({
        status: 'settled',
        keyId: granted[0]!.key.id,
        wallet: wallet.toLowerCase(),
        payment: { status: 'settled' },
      });

      const topup = await s.reserveKeyPurchase({
        ...buy,
        id: 'kp_c4',
        kind: 'topup',
        keyId: granted[0]!.key.id,
        micros: 2_000_000,
        nonce: nonce('0x02'),
        now: now + 1,
      });
      expect(topup.kind).toBe('reserved');
      const unpaid = await s.reserveKeyPurchase({
        ...buy,
        id: 'kp_c5',
        kind: 'topup',
        keyId: granted[0]!.key.id,
        micros: 9_000_000,
        nonce: nonce('0x03'),
        now: now + 2,
      });
      await s.markKeyPurchaseUnpaid('kp_c5', { status: 'unpaid' });
      expect(unpaid.kind).toBe('reserved');
      expect(await s.settleKeyPurchase('kp_c5', { payment: {}, now })).toBeNull();
      expect((await s.settleKeyPurchase('kp_c4', { payment: { status: 'settled' }, now: now + 1 }))!.key.balanceMicros).toBe(7_000_000);
      const listed = await s.listKeyPurchases(wallet.toUpperCase().replace('0X', '0x'), 10);
      expect(listed.map((p) => [p.id, p.status])).toEqual([
        ['kp_c5', 'unpaid'],
        ['kp_c4', 'settled'],
        [id, 'settled'],
      ]);
      expect(await s.listKeyPurchases(`0x${'cd'.repeat(20)}`, 10)).toEqual([]);
    });
  });
}
