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
import { WebhookStore } from '../../src/db/webhooks/webhook-store.js';
import { openPostgresLeadStore, openSqliteLeadStore, type SqlLeadStore } from '../../src/leads/db/lead-store.js';
import { verifyWebhook } from '../../src/leads/webhook-signature.js';
import { startLeadsForTest } from '../support/leads-harness.js';
import { startLocalServer } from '../support/local-http.js';
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
  /** The environment a lead service on this same database starts with. */
  env: Record<string, string>;
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
    env: { DATA_DIR: dir },
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
    env: { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema },
    rows: async (table) => (await client.query<Row>(`SELECT * FROM ${schema}.${table}`)).rows,
    reopen: async () => (await open()).close(),
  };
}

const cases = [
  { dialect: 'sqlite', open: sqliteFromRelease, written: manifest.sqlite, legacyLedger: 'lead_schema_migrations', migrations: [1, 2, 3] },
  { dialect: 'postgres', open: postgresFromRelease, written: manifest.postgres, legacyLedger: 'leads_schema_migrations', migrations: [1, 3] },
] as const;

for (const c of cases) {
  describe(`lead database written by release ${manifest.release}: ${c.dialect}`, () => {
    let db: Upgraded;
    const { aliceAccount, bobAccount, idempotentBody } = c.written.accounts;

    it('migrates in place: every row kept, in the tables of the current schema, the old ledger moved into db_migrations', async () => {
      db = await c.open();
      for (const [table, rows] of Object.entries(c.written.rows)) {
        if (table === 'deliveries') continue;
        expect(sorted(await db.rows(RENAMED[table] ?? table)), table).toEqual(rows);
      }
      // The notification outbox rows moved to the service's one outbox (lead migration 003, task migration
      // 013), every field kept; the old table is left empty (an old process sends only what it writes there).
      expect(await db.rows('deliveries')).toEqual([]);
      const moved = await db.store.db.all<Row>(`SELECT * FROM webhook_outbox WHERE subject_kind = 'lead_request' ORDER BY id`);
      const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : (v as Record<string, unknown>));
      const expected = c.written.rows.deliveries!.map((d) => ({
        id: d.id,
        key_id: `leads:${String(c.written.rows.requests!.find((r) => r.id === d.request_id)!.account_id)}`,
        url: json(d.target).address,
        subject_kind: 'lead_request',
        subject_id: d.request_id,
        event: 'created',
        status: d.status === 'sending' ? 'pending' : d.status,
        attempts: d.attempts,
        next_attempt_at: d.next_attempt_at,
        lease_owner: null,
        lease_until: d.status === 'sending' ? d.lease_until : null,
        last_error: d.last_error,
        delivered_at: d.delivered_at,
        created_at: d.created_at,
        channel: d.channel,
        payload: json(d.payload),
        signing_secret: json(d.target).secret ?? null,
        max_attempts: d.max_attempts,
      }));
      expect(moved.map((m) => ({ ...m, payload: json(m.payload) }))).toEqual(sorted(expected).sort((a, b) => String(a.id).localeCompare(String(b.id))));
      expect(moved.length).toBeGreaterThan(0);
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
      const outbox = new WebhookStore(db.store.db);
      expect(await outbox.nextDueAt(T0, ['lead_request'])).toBe(T0 + 30_000);
      expect(await outbox.claimDue('upgrade-test', T0, 60_000, 10, ['lead_request'])).toEqual([]);
      // Claimed for a millisecond of the store's clock and then "crashed": the lease runs out, and the service
      // below takes it over.
      const due = await outbox.claimDue('upgrade-test', T0 + 30_000, 1, 10, ['lead_request']);
      expect(due).toMatchObject([
        {
          subjectId: 'req_fixture_one',
          channel: 'webhook',
          attempts: 2,
          signingSecret: 'whsec_fixture_secret',
          maxAttempts: 8,
          payload: { type: 'request.created' },
        },
      ]);
    });

    it('sends the moved notification from the one outbox, signed as before (X-Leads-Signature with the pro secret)', async () => {
      const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
      const receiver = await startLocalServer({
        handler: (req, res) => {
          let body = '';
          req.on('data', (c: Buffer) => (body += c.toString()));
          req.on('end', () => {
            received.push({ headers: req.headers, body });
            res.end('ok');
          });
        },
      });
      cleanups.push(() => receiver.close());
      // The fixture's receiver is a .test name; the migrated row is pointed at a loopback receiver instead.
      const [row] = await db.store.db.all<Row>(`SELECT id, payload FROM webhook_outbox WHERE subject_id = 'req_fixture_one' AND channel = 'webhook'`);
      await db.store.db.run('UPDATE webhook_outbox SET url = $1 WHERE id = $2', [`${receiver.origin}/leads`, row!.id]);
      const svc = await startLeadsForTest({ env: db.env });
      cleanups.push(() => svc.close());
      for (let i = 0; received.length === 0; i++) {
        if (i > 1_000) throw new Error('the moved notification was never sent');
        await new Promise((r) => setTimeout(r, 20));
      }
      const [hit] = received;
      expect(hit!.headers['x-leads-delivery']).toBe(row!.id);
      expect(hit!.headers['x-leads-event']).toBe('request.created');
      expect(JSON.parse(hit!.body)).toEqual(JSON.parse(String(row!.payload)));
      const headers = { timestamp: String(hit!.headers['x-leads-timestamp']), signature: String(hit!.headers['x-leads-signature']) };
      expect(verifyWebhook('whsec_fixture_secret', headers, hit!.body)).toBe(true);
      expect(verifyWebhook('whsec_other_secret', headers, hit!.body)).toBe(false);
      for (;;) {
        const [d] = (await db.store.listDeliveries('req_fixture_one')).filter((x) => x.channel === 'webhook');
        if (d!.status === 'delivered') {
          expect(d).toMatchObject({ attempts: 3, deliveredAt: expect.any(Number) });
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(received).toHaveLength(1);
    });
  });
}
