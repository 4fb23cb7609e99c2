// One contract suite for both lead store adapters (SQLite and PostgreSQL): the lead service must behave the
// same whichever DATABASE_URL says. Each case opens stores on a fresh database (a temp file, or a schema of
// its own in the `test` database, dropped afterwards); "two nodes" are two store instances on it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recentLeadRequests, sqlRunnerOf } from '../../src/console/queries.js';
import { newApiKey } from '../../src/leads/auth.js';
import { proIdFor, sha256Hex } from '../../src/leads/ids.js';
import { WebhookStore, type OutboxMessage } from '../../src/db/webhooks/webhook-store.js';
import { openPostgresLeadStore, openSqliteLeadStore, type SqlLeadStore } from '../../src/leads/db/lead-store.js';
import { searchDirectory } from '../../src/leads/search.js';
import type { NewRequest } from '../../src/leads/store.js';
import type { DeliveryRecord, ProInput, QuotaLimits, RequestRecord } from '../../src/leads/types.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../support/postgres.js';

interface LeadDatabase {
  /** A store on this database; several may be open at once (as on several nodes). */
  open(): Promise<SqlLeadStore>;
  drop(): Promise<void>;
}

const adapters: { name: string; create: () => Promise<LeadDatabase> }[] = [
  {
    name: 'sqlite',
    create: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-leads-contract-'));
      return {
        open: () => openSqliteLeadStore(path.join(dir, 'leads.db')),
        drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'postgres',
    create: async () => {
      // The schema already holds the task store's tables: the lead tables and migrations must coexist with them.
      const schema: TestSchema = await createTestSchema();
      return {
        open: () => openPostgresLeadStore({ connectionString: TEST_DATABASE_URL, schema: schema.schema, poolSize: 8 }),
        drop: () => schema.drop(),
      };
    },
  },
];

function pro(externalId: string, over: Partial<ProInput> = {}): ProInput {
  return {
    externalId,
    name: `Pro ${externalId}`,
    services: ['plumber'],
    zip: '10001',
    lat: 40.7484,
    lng: -73.9967,
    phone: '+12125550100',
    email: `${externalId}@pros.test`,
    webhookUrl: null,
    webhookSecret: null,
    address: null,
    rating: 4,
    reviewCount: 10,
    website: null,
    description: null,
    isDemo: false,
    ...over,
  };
}

let seq = 0;
const uniq = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++seq).toString(36)}`;

function newRequest(over: Partial<RequestRecord> & { proId: string }, deliveries = 2, extra: Partial<NewRequest> = {}): NewRequest {
  const now = over.createdAt ?? Date.now();
  const request: RequestRecord = {
    id: uniq('req'),
    accountId: 'acct_a',
    proName: 'Pro',
    category: 'plumber',
    zip: '10001',
    name: 'Ada Requester',
    phone: '+12015550123',
    email: 'ada@requester.test',
    notes: 'Leaky faucet',
    consent: { text: 'I agree', given_at: new Date(now).toISOString(), submitted_by: 'agent', ip: '127.0.0.1' },
    isDemo: false,
    createdAt: now,
    ...over,
  };
  const rows: DeliveryRecord[] = Array.from({ length: deliveries }, (_, i) => ({
    id: uniq('dlv'),
    requestId: request.id,
    channel: i % 2 === 0 ? 'email' : 'webhook',
    target: i % 2 === 0 ? { address: `pro${i}@pros.test` } : { address: `http://127.0.0.1:9/hook${i}`, secret: 's' },
    payload: { request_id: request.id, n: i },
    status: 'pending',
    attempts: 0,
    maxAttempts: 3,
    nextAttemptAt: now,
    lastError: null,
    deliveredAt: null,
    createdAt: now + i,
    updatedAt: now + i,
  }));
  return { request, deliveries: rows, dedupSince: now - 86_400_000, ...extra };
}

for (const adapter of adapters) {
  describe(`lead store contract: ${adapter.name}`, () => {
    let db: LeadDatabase;
    let store: SqlLeadStore;
    let other: SqlLeadStore;

    beforeAll(async () => {
      db = await adapter.create();
      store = await db.open();
      other = await db.open();
    });
    afterAll(async () => {
      await store?.close();
      await other?.close();
      await db?.drop();
    });

    it('reports its dialect', () => {
      expect(store.dialect).toBe(adapter.name);
    });

    it('upserts pros on external id, ends the demo when real data arrives, and replaces on request', async () => {
      const now = Date.now();
      const demo = await store.upsertPros([pro('demo-1', { isDemo: true }), pro('demo-2', { isDemo: true })], { replace: false, now });
      expect(demo).toEqual({ inserted: 2, updated: 0, removed: 0, demoRemoved: 0 });
      expect(await store.hasDemoPros()).toBe(true);
      expect(await store.directoryStats()).toEqual({ total: 2, demo: 2 });

      const real = await store.upsertPros([pro('u-1'), pro('u-2'), pro('u-3', { services: ['plumber', 'electrician', 'plumber'] })], { replace: false, now });
      expect(real).toEqual({ inserted: 3, updated: 0, removed: 0, demoRemoved: 2 });
      expect(await store.hasDemoPros()).toBe(false);

      const again = await other.upsertPros([pro('u-1', { name: 'Renamed', rating: null, services: ['electrician'] }), pro('u-4')], {
        replace: false,
        now: now + 5,
      });
      expect(again).toEqual({ inserted: 1, updated: 1, removed: 0, demoRemoved: 0 });
      const renamed = await store.getPro(proIdFor('u-1'));
      expect(renamed).toMatchObject({ name: 'Renamed', rating: null, services: ['electrician'], isDemo: false, createdAt: now, updatedAt: now + 5 });
      expect(await store.getPro('pro_missing')).toBeUndefined();

      const replaced = await store.upsertPros([pro('u-2'), pro('u-3')], { replace: true, now: now + 10 });
      expect(replaced).toEqual({ inserted: 0, updated: 2, removed: 2, demoRemoved: 0 });
      expect(await store.directoryStats()).toEqual({ total: 2, demo: 0 });
    });

    it('searches by radius in one category and ranks by distance, then rating', async () => {
      const now = Date.now();
      // ~0.7, ~3.5 and ~40 miles north of the 10001 centroid; one nearby pro offers another trade only.
      await store.upsertPros(
        [
          pro('s-near-low', { lat: 40.7584, rating: 3, services: ['roofer'] }),
          pro('s-near-high', { lat: 40.7584, rating: 5, services: ['roofer'] }),
          pro('s-mid', { lat: 40.7984, rating: 5, services: ['roofer'] }),
          pro('s-far', { lat: 41.33, rating: 5, services: ['roofer'] }),
          pro('s-other-trade', { lat: 40.7584, services: ['electrician'] }),
        ],
        { replace: false, now },
      );
      const found = await searchDirectory(store, { category: 'roofer', lat: 40.7484, lng: -73.9967, radiusMiles: 10, limit: 10 });
      expect(found.total).toBe(3);
      expect(found.results.map((r) => r.id)).toEqual([proIdFor('s-near-high'), proIdFor('s-near-low'), proIdFor('s-mid')]);
      expect(found.results[0]).toMatchObject({ name: 'Pro s-near-high', services: ['roofer'], rating: 5, review_count: 10 });
      const wide = await searchDirectory(other, { category: 'roofer', lat: 40.7484, lng: -73.9967, radiusMiles: 100, limit: 2 });
      expect(wide.total).toBe(4);
      expect(wide.results).toHaveLength(2);
    });

    it('writes a request with its outbox rows and access in one operation', async () => {
      const n = newRequest({ proId: 'pro_outbox', accountId: 'acct_outbox' }, 2);
      const created = await store.createRequest(n);
      expect(created).toEqual({ request: n.request, created: true });
      expect(await other.getRequest(n.request.id)).toEqual(n.request);
      expect(await other.canAccessRequest(n.request.id, 'acct_outbox')).toBe(true);
      expect(await other.canAccessRequest(n.request.id, 'acct_stranger')).toBe(false);
      const deliveries = await other.listDeliveries(n.request.id);
      expect(deliveries).toEqual(n.deliveries);
    });

    it("serves the console's newest-requests query (its own SQL, through the store's runner)", async () => {
      const t0 = Date.now() + 3_600_000; // newer than every other request in this suite
      const older = newRequest({ proId: 'pro_console', proName: 'Older Pro', zip: null, createdAt: t0 }, 1);
      const newer = newRequest({ proId: 'pro_console', proName: 'Newer Pro', phone: '+12015550777', isDemo: true, createdAt: t0 + 1 }, 1);
      await store.createRequest(older);
      await store.createRequest(newer);
      const sql = sqlRunnerOf(other);
      expect(sql).toBeDefined();
      expect(await recentLeadRequests(sql!, 2)).toEqual([
        { id: newer.request.id, proName: 'Newer Pro', category: 'plumber', zip: '10001', isDemo: true, createdAt: t0 + 1 },
        { id: older.request.id, proName: 'Older Pro', category: 'plumber', zip: null, isDemo: false, createdAt: t0 },
      ]);
    });

    it("returns the same account's existing request for the same phone, pro and category within the window", async () => {
      const t0 = Date.now();
      const first = newRequest({ proId: 'pro_dedup', phone: '+12015550999', accountId: 'acct_one', createdAt: t0 });
      expect((await store.createRequest(first)).created).toBe(true);
      const dup = newRequest({ proId: 'pro_dedup', phone: '+12015550999', accountId: 'acct_one', createdAt: t0 + 500 });
      const outcome = await other.createRequest(dup);
      expect(outcome).toEqual({ request: first.request, created: false });
      expect(await store.getRequest(dup.request.id)).toBeUndefined();
      expect(await store.listDeliveries(dup.request.id)).toEqual([]);
      // Another account sending the same: its own request, and no access to the first one (answering with
      // the first would tell it that this phone already contacted this pro).
      const foreign = newRequest({ proId: 'pro_dedup', phone: '+12015550999', accountId: 'acct_two', createdAt: t0 + 1000 });
      const theirs = await other.createRequest(foreign);
      expect(theirs).toEqual({ request: foreign.request, created: true });
      expect(await store.canAccessRequest(first.request.id, 'acct_two')).toBe(false);
      expect(await store.canAccessRequest(foreign.request.id, 'acct_one')).toBe(false);
      // Another category, or a window that starts after the first request: a new request.
      const electric = newRequest({ proId: 'pro_dedup', phone: '+12015550999', accountId: 'acct_one', category: 'electrician', createdAt: t0 + 2000 });
      expect((await store.createRequest(electric)).created).toBe(true);
      const later = newRequest({ proId: 'pro_dedup', phone: '+12015550999', accountId: 'acct_one', createdAt: t0 + 3000 }, 1, { dedupSince: t0 + 2001 });
      expect((await store.createRequest(later)).created).toBe(true);
    });

    it('creates exactly one request when ten identical ones race from two nodes', async () => {
      const now = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).createRequest(newRequest({ proId: 'pro_race', phone: '+12015550777', createdAt: now }))),
      );
      expect(outcomes.filter((o) => o.created)).toHaveLength(1);
      const winner = outcomes.find((o) => o.created)!.request.id;
      expect(new Set(outcomes.map((o) => o.request.id))).toEqual(new Set([winner]));
      expect(await store.listDeliveries(winner)).toHaveLength(2);
    });

    it('records idempotency keys with the body hash, for replays and for mismatches', async () => {
      const n = newRequest({ proId: 'pro_idem', accountId: 'acct_idem', phone: '+12015550555' }, 1, {
        idempotency: { key: 'idem-1', bodyHash: sha256Hex('body-a') },
      });
      await store.createRequest(n);
      const found = await other.findIdempotency('acct_idem', 'idem-1');
      expect(found).toEqual({ requestId: n.request.id, bodyHash: sha256Hex('body-a') });
      // A replay with a different body finds the stored hash (the caller answers 409) and writes nothing new.
      expect(found?.bodyHash).not.toBe(sha256Hex('body-b'));
      expect(await store.findIdempotency('acct_other', 'idem-1')).toBeUndefined();
      expect(await store.findIdempotency('acct_idem', 'idem-2')).toBeUndefined();
      // A duplicate request with its own key: the key points at the existing request.
      const dup = newRequest({ proId: 'pro_idem', accountId: 'acct_idem', phone: '+12015550555' }, 1, { idempotency: { key: 'idem-2', bodyHash: 'h2' } });
      expect((await other.createRequest(dup)).created).toBe(false);
      expect(await store.findIdempotency('acct_idem', 'idem-2')).toEqual({ requestId: n.request.id, bodyHash: 'h2' });
    });

    it('counts quota atomically: 20 concurrent uses against a limit of 15 from two nodes', async () => {
      const limits: QuotaLimits = { searchesPerDay: 15, requestsPerDay: 3, categoriesPerDay: 2 };
      const account = uniq('acct_quota');
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? store : other).consumeQuota(account, '2026-01-02', 'searches', 'plumber', limits)),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(15);
      expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.exceeded === 'searches')).toBe(true);
      expect(new Set(outcomes.filter((o) => o.ok).map((o) => o.usage.searches))).toEqual(new Set(Array.from({ length: 15 }, (_, i) => i + 1)));
      expect(await store.getUsage(account, '2026-01-02')).toEqual({ searches: 15, requests: 0, categories: ['plumber'] });

      // Categories: a third distinct one is refused, an already used one is not.
      expect(await store.consumeQuota(account, '2026-01-02', 'requests', 'electrician', limits)).toEqual({
        ok: true,
        usage: { searches: 15, requests: 1, categories: ['electrician', 'plumber'] },
      });
      const third = await store.consumeQuota(account, '2026-01-02', 'requests', 'roofer', limits);
      expect(third).toEqual({ ok: false, exceeded: 'categories', usage: { searches: 15, requests: 1, categories: ['electrician', 'plumber'] } });
      await store.refundQuota(account, '2026-01-02', 'searches');
      expect((await other.getUsage(account, '2026-01-02')).searches).toBe(14);
      // Refusals leave no trace; refunds never go below zero; days are separate.
      await store.refundQuota(account, '2026-01-03', 'searches');
      expect(await store.getUsage(account, '2026-01-03')).toEqual({ searches: 0, requests: 0, categories: [] });
      const none = await store.consumeQuota(account, '2026-01-04', 'searches', 'plumber', { ...limits, searchesPerDay: 0 });
      expect(none.ok).toBe(false);
      expect(await store.getUsage(account, '2026-01-04')).toEqual({ searches: 0, requests: 0, categories: [] });
    });

    it('registers: attempts counted, verification single use, keys stored only as hashes, one active key', async () => {
      const now = Date.now();
      await store.recordRegisterAttempt('127.0.0.9', 'eh1', now - 1000);
      await other.recordRegisterAttempt('127.0.0.9', 'eh2', now);
      await store.recordRegisterAttempt('127.0.0.10', 'eh1', now);
      expect(await store.countRegisterAttempts('127.0.0.9', 'eh1', now - 5000)).toEqual({ byIp: 2, byEmail: 2, oldestByIp: now - 1000 });
      expect(await store.countRegisterAttempts('127.0.0.9', null, now - 500)).toEqual({ byIp: 1, byEmail: 0, oldestByIp: now });
      expect(await store.countRegisterAttempts('127.0.0.11', null, 0)).toEqual({ byIp: 0, byEmail: 0, oldestByIp: null });

      await store.createVerification({ tokenHash: 'tok-1', email: 'reg@agent-utility.test', createdAt: now, expiresAt: now + 60_000 });
      await store.createVerification({ tokenHash: 'tok-old', email: 'old@agent-utility.test', createdAt: now - 120_000, expiresAt: now - 60_000 });
      const clicks = await Promise.all([store.consumeVerification('tok-1', now + 1), other.consumeVerification('tok-1', now + 1)]);
      expect(clicks.filter(Boolean)).toEqual([{ email: 'reg@agent-utility.test' }]);
      expect(await store.consumeVerification('tok-old', now)).toBeUndefined();
      expect(await store.consumeVerification('tok-unknown', now)).toBeUndefined();

      const k1 = newApiKey();
      const { accountId } = await store.issueKey('reg@agent-utility.test', k1, now);
      expect(await other.findKeyByHash(sha256Hex(k1.key))).toEqual({ keyId: k1.id, accountId, email: 'reg@agent-utility.test', revokedAt: null });
      expect(await store.findKeyByHash(k1.key)).toBeUndefined(); // the raw key is not what is stored

      const k2 = newApiKey();
      expect(await other.issueKey('reg@agent-utility.test', k2, now + 1)).toEqual({ accountId });
      expect((await store.findKeyByHash(k1.hash))?.revokedAt).toBe(now + 1);
      const k3 = newApiKey();
      await store.rotateKey(k2.id, k3, now + 2);
      expect((await store.findKeyByHash(k2.hash))?.revokedAt).toBe(now + 2);
      expect(await store.findKeyByHash(k3.hash)).toMatchObject({ accountId, revokedAt: null });
      await expect(other.rotateKey(k2.id, newApiKey(), now + 3)).rejects.toThrow(/revoked/);
      await store.revokeKey(k3.id, now + 4);
      expect((await other.findKeyByHash(k3.hash))?.revokedAt).toBe(now + 4);

      // Concurrent first-time issues for one address: one account, exactly one active key.
      const keys = Array.from({ length: 6 }, () => newApiKey());
      const issued = await Promise.all(keys.map((k, i) => (i % 2 ? store : other).issueKey('race@agent-utility.test', k, now)));
      expect(new Set(issued.map((r) => r.accountId)).size).toBe(1);
      const active = (await Promise.all(keys.map((k) => store.findKeyByHash(k.hash)))).filter((r) => r?.revokedAt === null);
      expect(active).toHaveLength(1);
    });

    it('stores searches and their results', async () => {
      const now = Date.now();
      const base = {
        accountId: 'acct_s',
        service: 'plumbing',
        category: 'plumber' as const,
        zip: '10001',
        radiusMiles: 12.5,
        limit: 5,
        status: 'pending' as const,
        results: null,
        meta: null,
        error: null,
        createdAt: now,
        completedAt: null,
      };
      await store.createSearch({ ...base, id: 'srch_contract_a' });
      await store.createSearch({ ...base, id: 'srch_contract_b', createdAt: now + 1 });
      expect(await other.pendingSearchIds()).toEqual(expect.arrayContaining(['srch_contract_a', 'srch_contract_b']));
      const results = [
        {
          id: 'pro_x',
          name: 'X',
          phone: null,
          address: null,
          rating: 4.5,
          review_count: 3,
          distance_miles: 1.2,
          website: null,
          description: null,
          services: ['plumber' as const],
        },
      ];
      const meta = { total: 1, dataset: 'imported' as const, service: 'plumber' as const, zip: '10001', radius_miles: 12.5, limit: 5 };
      await store.completeSearch('srch_contract_a', results, meta, now + 5);
      await other.failSearch('srch_contract_a', 'too late', now + 6); // a finished search stays finished
      await other.failSearch('srch_contract_b', 'boom', now + 7);
      expect(await store.getSearch('srch_contract_a')).toEqual({ ...base, id: 'srch_contract_a', status: 'complete', results, meta, completedAt: now + 5 });
      expect(await store.getSearch('srch_contract_b')).toMatchObject({ status: 'failed', error: 'boom', completedAt: now + 7 });
      expect(await store.pendingSearchIds()).not.toContain('srch_contract_a');
      expect(await store.getSearch('srch_missing')).toBeUndefined();
    });

    it('leases each due notification to one claimer only (on the shared outbox), and hands lapsed leases over', async () => {
      // Claims are global, so this case runs on a database of its own. The lead notifications are rows of
      // the service's one outbox: the webhook dispatcher's claims (src/db/webhooks/webhook-store.ts) take them.
      const own = await adapter.create();
      const a = await own.open();
      const b = await own.open();
      const outboxA = new WebhookStore(a.db);
      const outboxB = new WebhookStore(b.db);
      const LEADS = ['lead_request'] as const;
      try {
        const now = Date.now();
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const n = newRequest({ proId: `pro_claim${i}`, createdAt: now - 10 }, 6);
          await a.createRequest(n);
          ids.push(...n.deliveries.map((d) => d.id));
        }
        const future = newRequest({ proId: 'pro_claim_future', createdAt: now }, 1);
        future.deliveries[0]!.nextAttemptAt = now + 3_600_000;
        await a.createRequest(future);
        expect(await outboxA.nextDueAt(now, LEADS)).toBe(now - 10);
        // A dispatcher that sends only task messages never takes a lead notification.
        expect(await outboxB.claimDue('tasks-only', now, 60_000, 100, ['task', 'batch'])).toEqual([]);

        // Two claimers on two connections (two nodes), several rounds each, racing.
        const claimed: (OutboxMessage & { owner: string })[] = [];
        const claimer = async (o: WebhookStore, owner: string) => {
          for (let round = 0; round < 6; round++) claimed.push(...(await o.claimDue(owner, now, 60_000, 4, LEADS)).map((m) => ({ ...m, owner })));
        };
        await Promise.all([claimer(outboxA, 'a1'), claimer(outboxB, 'b1'), claimer(outboxA, 'a2'), claimer(outboxB, 'b2')]);
        expect(claimed.map((d) => d.id).sort()).toEqual([...ids].sort());
        expect(claimed.every((d) => d.attempts === 1 && d.subjectKind === 'lead_request')).toBe(true);
        expect((await a.listDeliveries(claimed[0]!.subjectId)).find((d) => d.id === claimed[0]!.id)?.status).toBe('sending');
        expect(await outboxB.claimDue('b3', now, 60_000, 100, LEADS)).toEqual([]);
        // The leases end a minute from their claims on the store's clock, told on the caller's clock.
        const leaseEnd = await outboxA.nextDueAt(now, LEADS);
        expect(leaseEnd).toBeGreaterThan(now + 50_000);
        expect(leaseEnd).toBeLessThanOrEqual(now + 60_000);

        // Settle some; after the lease lapses, the rest are handed over again (the claimer died).
        const [d0, d1, d2] = claimed;
        const settle = (o: WebhookStore, m: (typeof claimed)[number], outcome: { error: string | null; retryAt: number | null }) =>
          o.finishAttempt(m, m.owner, { durationMs: 1, httpStatus: null, delivered: outcome.error === null, ...outcome }, now + 1);
        await settle(outboxA, d0!, { error: null, retryAt: null });
        await settle(outboxA, d1!, { error: 'HTTP 503', retryAt: now + 500 });
        await settle(outboxB, d2!, { error: 'HTTP 500', retryAt: null });
        const byId = new Map(
          (await a.listDeliveries(d0!.subjectId)).concat(await a.listDeliveries(d1!.subjectId), await a.listDeliveries(d2!.subjectId)).map((d) => [d.id, d]),
        );
        expect(byId.get(d0!.id)).toMatchObject({ status: 'delivered', attempts: 1, deliveredAt: now + 1, lastError: null });
        expect(byId.get(d1!.id)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: now + 500, lastError: 'HTTP 503' });
        expect(byId.get(d2!.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 500' });
        expect(await outboxA.nextDueAt(now, LEADS)).toBe(now + 500);

        // A minute and a second later on the store's clock (the leases, moved back by that), the claimers' leases have lapsed.
        await a.db.run('UPDATE webhook_outbox SET lease_until = lease_until - 61000 WHERE lease_until IS NOT NULL');
        const retaken = await Promise.all([outboxA.claimDue('a3', now + 60_001, 60_000, 100, LEADS), outboxB.claimDue('b4', now + 60_001, 60_000, 100, LEADS)]);
        const retakenIds = retaken.flat().map((d) => d.id);
        expect(new Set(retakenIds).size).toBe(retakenIds.length);
        expect(retakenIds.sort()).toEqual(ids.filter((id) => id !== d0!.id && id !== d2!.id).sort());
      } finally {
        await a.close();
        await b.close();
        await own.drop();
      }
    });

    it('erases requester details of old requests and the payloads of finished deliveries', async () => {
      const old = newRequest({ proId: 'pro_erase', phone: '+12015550444', createdAt: 1_000 }, 2);
      old.deliveries[1]!.nextAttemptAt = 5_000;
      await store.createRequest(old);
      // The first notification is sent (claimed and settled through the shared outbox); the second is still pending.
      const outbox = new WebhookStore(store.db);
      const [first] = await outbox.claimDue('eraser', 1_000, 60_000, 1, ['lead_request']);
      expect(first?.id).toBe(old.deliveries[0]!.id);
      await outbox.finishAttempt(first!, 'eraser', { durationMs: 1, httpStatus: null, error: null, delivered: true, retryAt: null }, 2_000);
      const erased = await other.eraseRequesterDetails(10_000);
      expect(erased).toBeGreaterThanOrEqual(1);
      expect(await store.getRequest(old.request.id)).toMatchObject({
        name: '[erased]',
        phone: '[erased]',
        email: null,
        notes: '[erased]',
        consent: { ...old.request.consent, ip: null },
      });
      const [done, open] = await store.listDeliveries(old.request.id);
      expect(done).toMatchObject({ status: 'delivered', payload: {} });
      expect(open).toMatchObject({ status: 'pending', payload: old.deliveries[1]!.payload });
      expect(await other.eraseRequesterDetails(10_000)).toBe(0);
    });
  });
}
