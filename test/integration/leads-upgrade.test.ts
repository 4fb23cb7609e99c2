// Deployments upgrade in place: a lead database written by release 1d6b9d1 (test/fixtures/leads-release,
// made by scripts/make-leads-release-fixture.mjs from a build of that release) opens with the current code
// and migrates with nothing lost. SQLite renames api_keys / idempotency_keys to the PostgreSQL names; both
// dialects move their ledger into db_migrations. Every row is compared, then read back through the store.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresLeadStore, openSqliteLeadStore, type SqlLeadStore } from '../../src/leads/db/lead-store.js';
import { types } from '../../src/db/postgres-pool.js';
import { proIdFor } from '../../src/leads/ids.js';
import { LeadRequests, type RequestBody } from '../../src/leads/requests.js';
import type { ProInput } from '../../src/leads/types.js';
import { dropTestSchema, newTestSchemaName, TEST_DATABASE_URL } from '../support/postgres.js';

const FIXTURE = path.resolve('test/fixtures/leads-release');
type Row = Record<string, unknown>;
interface Written {
  accounts: { aliceAccount: string; bobAccount: string; idempotentBody: RequestBody };
  rows: Record<string, Row[]>;
}
const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'manifest.json'), 'utf8')) as {
  release: string;
  secrets: Record<'aliceOld' | 'alice' | 'bob' | 'verification', string>;
  sqlite: Written;
  postgres: Written;
};
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const sorted = (rows: Row[]) => [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
/** The table a release-1d6b9d1 table is found in after the upgrade. */
const RENAMED: Record<string, string> = { api_keys: 'leads_api_keys', idempotency_keys: 'leads_idempotency_keys' };
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

interface Upgraded {
  store: SqlLeadStore;
  rows(table: string): Promise<Row[]>;
  /** Opens (so migrates) the same database once more, and closes it. */
  reopen(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function sqliteFromRelease(): Promise<Upgraded> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-leads-upgrade-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  fs.copyFileSync(path.join(FIXTURE, 'leads.db'), path.join(dir, 'leads.db'));
  const store = await openSqliteLeadStore(path.join(dir, 'leads.db'));
  cleanups.push(() => store.close());
  const raw = new Database(path.join(dir, 'leads.db'), { readonly: true });
  cleanups.push(async () => void raw.close());
  return {
    store,
    rows: async (table) => raw.prepare(`SELECT * FROM ${table}`).all() as Row[],
    reopen: async () => (await openSqliteLeadStore(path.join(dir, 'leads.db'))).close(),
  };
}

async function postgresFromRelease(): Promise<Upgraded> {
  const schema = newTestSchemaName();
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, types });
  await client.connect();
  cleanups.push(async () => {
    await client.end();
    await dropTestSchema(schema);
  });
  await client.query(fs.readFileSync(path.join(FIXTURE, 'postgres.sql'), 'utf8').replaceAll('__SCHEMA__', schema));
  const open = () => openPostgresLeadStore({ connectionString: TEST_DATABASE_URL, schema, poolSize: 4 });
  const store = await open();
  cleanups.push(() => store.close());
  return {
    store,
    rows: async (table) => (await client.query<Row>(`SELECT * FROM ${schema}.${table}`)).rows,
    reopen: async () => (await open()).close(),
  };
}

const cases = [
  { dialect: 'sqlite', open: sqliteFromRelease, written: manifest.sqlite, legacyLedger: 'lead_schema_migrations', migrations: [1, 2] },
  { dialect: 'postgres', open: postgresFromRelease, written: manifest.postgres, legacyLedger: 'leads_schema_migrations', migrations: [1] },
] as const;

for (const c of cases) {
  describe(`lead database written by release ${manifest.release}: ${c.dialect}`, () => {
    let db: Upgraded;
    const { aliceAccount, bobAccount, idempotentBody } = c.written.accounts;

    it('migrates in place: every row kept, in the tables of the current schema, the old ledger moved into db_migrations', async () => {
      db = await c.open();
      for (const [table, rows] of Object.entries(c.written.rows)) {
        expect(sorted(await db.rows(RENAMED[table] ?? table)), table).toEqual(rows);
      }
      const ledger = (await db.rows('db_migrations')).filter((r) => r.component === 'leads').map((r) => Number(r.version));
      expect(ledger.sort()).toEqual([...c.migrations]);
      // Read, never written: a process of the old release restarting during the upgrade still finds its version.
      expect(await db.rows(c.legacyLedger)).toEqual(c.written.rows[c.legacyLedger]);
    });

    it('opens again without re-running anything', async () => {
      await db.reopen();
      expect((await db.rows('db_migrations')).filter((r) => r.component === 'leads')).toHaveLength(c.migrations.length);
    });

    it('authenticates the keys it issued and refuses the rotated one', async () => {
      expect(await db.store.findKeyByHash(sha256(manifest.secrets.alice))).toEqual({
        keyId: 'key_alice',
        accountId: aliceAccount,
        email: 'alice@example.com',
        revokedAt: null,
      });
      expect((await db.store.findKeyByHash(sha256(manifest.secrets.aliceOld)))?.revokedAt).toBe(T0 - 3600_000);
      expect(await db.store.findKeyByHash(sha256(manifest.secrets.bob))).toMatchObject({ keyId: 'key_bob', accountId: bobAccount, revokedAt: null });
      // Issuing again for the same mailbox keeps the account and revokes its key (one active key).
      const next = { id: 'key_alice_next', hash: sha256('lk_after-upgrade'), prefix: 'lk_after' };
      expect(await db.store.issueKey('alice@example.com', next, T0 + 1)).toEqual({ accountId: aliceAccount });
      expect((await db.store.findKeyByHash(sha256(manifest.secrets.alice)))?.revokedAt).toBe(T0 + 1);
    });

    it('keeps registration state: the unused link works once, attempts still count', async () => {
      expect(await db.store.consumeVerification(sha256(manifest.secrets.verification), T0)).toEqual({ email: 'carol@example.com' });
      expect(await db.store.consumeVerification(sha256(manifest.secrets.verification), T0)).toBeUndefined();
      expect(await db.store.countRegisterAttempts('192.0.2.10', sha256('carol@example.com'), 0)).toEqual({ byIp: 2, byEmail: 1, oldestByIp: T0 - 7300_000 });
    });

    it("keeps the day's quota counters and goes on counting from them", async () => {
      expect(await db.store.getUsage(aliceAccount, '2026-11-20')).toEqual({ searches: 2, requests: 1, categories: ['hvac', 'plumber'] });
      const limits = { searchesPerDay: 3, requestsPerDay: 10, categoriesPerDay: 2 };
      expect(await db.store.consumeQuota(aliceAccount, '2026-11-20', 'searches', 'plumber', limits)).toMatchObject({ ok: true, usage: { searches: 3 } });
      expect(await db.store.consumeQuota(aliceAccount, '2026-11-20', 'searches', 'plumber', limits)).toMatchObject({ ok: false, exceeded: 'searches' });
      expect(await db.store.consumeQuota(aliceAccount, '2026-11-20', 'requests', 'roofer', limits)).toMatchObject({ ok: false, exceeded: 'categories' });
    });

    it('keeps the directory, its geo index and searches with their results', async () => {
      expect(await db.store.directoryStats()).toEqual({ total: 3, demo: 0 });
      const inBox = await db.store.findProsInBox('electrician', { minLat: 40.7, maxLat: 40.8, minLng: -74.1, maxLng: -73.9 });
      expect(inBox.map((p) => p.id)).toEqual([proIdFor('fx-1')]);
      expect(inBox[0]).toMatchObject({
        name: 'Fixture Plumbing & Electric',
        services: ['plumber', 'electrician'],
        webhookSecret: 'whsec_fixture_secret',
        isDemo: false,
      });
      expect(await db.store.getSearch('srch_complete')).toMatchObject({
        status: 'complete',
        meta: { total: 1, dataset: 'imported' },
        results: [{ id: proIdFor('fx-1'), distance_miles: 0.4 }],
      });
      expect(await db.store.getSearch('srch_failed')).toMatchObject({ status: 'failed', error: 'The geocoder was unavailable.' });
      expect(await db.store.pendingSearchIds()).toEqual(['srch_pending']);
      // Real data still replaces what is there: re-importing a pro updates it in place.
      const pro = (await db.store.getPro(proIdFor('fx-3')))!;
      const input: ProInput = { ...pro, rating: 3.9 };
      expect(await db.store.upsertPros([input], { replace: false, now: T0 + 5 })).toEqual({ inserted: 0, updated: 1, removed: 0, demoRemoved: 0 });
      expect(await db.store.getPro(proIdFor('fx-3'))).toMatchObject({ rating: 3.9, createdAt: pro.createdAt, updatedAt: T0 + 5 });
    });

    it('keeps requests, their access, erasures and idempotency records (a replay of the same body still matches)', async () => {
      expect(await db.store.getRequest('req_fixture_one')).toMatchObject({ name: 'Dana Requester', consent: { ip: '192.0.2.44', submitted_by: aliceAccount } });
      expect(await db.store.getRequest('req_fixture_old')).toMatchObject({ name: '[erased]', email: null, consent: { ip: null } });
      expect(await db.store.canAccessRequest('req_fixture_two', bobAccount)).toBe(true);
      expect(await db.store.canAccessRequest('req_fixture_two', aliceAccount)).toBe(false);
      const requests = new LeadRequests({
        store: db.store,
        retry: { emailMaxAttempts: 5, webhookMaxAttempts: 8 },
        now: () => T0 + 10,
        consumeQuota: async () => undefined,
      });
      const principal = { accountId: aliceAccount, keyId: 'key_alice', unlimited: false };
      const replay = await requests.submit(principal, idempotentBody, { idempotencyKey: 'order-17', ip: null });
      expect(replay).toMatchObject({ replayed: true, created: false, request: { id: 'req_fixture_one' } });
      await expect(requests.submit(principal, { ...idempotentBody, notes: 'Something else' }, { idempotencyKey: 'order-17', ip: null })).rejects.toThrow(
        /different request body/,
      );
    });

    it('keeps the notification outbox: what was delivered stays delivered, the pending retry is sent when due', async () => {
      const byChannel = (ds: { channel: string }[]) => Object.fromEntries(ds.map((d) => [d.channel, d]));
      expect(byChannel(await db.store.listDeliveries('req_fixture_one'))).toMatchObject({
        email: { status: 'delivered', attempts: 1, deliveredAt: T0 - 300 },
        webhook: { status: 'pending', attempts: 1, lastError: 'webhook answered HTTP 503', target: { secret: 'whsec_fixture_secret' } },
      });
      expect(await db.store.listDeliveries('req_fixture_old')).toMatchObject([{ status: 'delivered', payload: {} }]);
      expect(await db.store.nextDeliveryDueAt()).toBe(T0 + 30_000);
      expect(await db.store.claimDueDeliveries(T0, 60_000, 10)).toEqual([]);
      const due = await db.store.claimDueDeliveries(T0 + 30_000, 60_000, 10);
      expect(due).toMatchObject([{ requestId: 'req_fixture_one', channel: 'webhook', status: 'sending', attempts: 1, payload: { type: 'request.created' } }]);
    });
  });
}
