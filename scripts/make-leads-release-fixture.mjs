// Writes test/fixtures/leads-release/: a lead database (SQLite file and PostgreSQL schema dump) written by
// an older release, for the upgrade test (test/integration/leads-upgrade.test.ts). Run it against a BUILT
// checkout of that release, never against the current code:
//   git worktree add /tmp/old <commit> && (cd /tmp/old && ln -s "$PWD/node_modules" . && npm run build)
//   node scripts/make-leads-release-fixture.mjs /tmp/old <commit>
// It needs PostgreSQL at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) and pg_dump.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';

const [releaseDir, releaseCommit] = process.argv.slice(2);
if (!releaseDir || !releaseCommit) throw new Error('usage: make-leads-release-fixture.mjs <built release checkout> <commit>');
const outDir = path.resolve('test/fixtures/leads-release');
const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const load = (rel) => import(pathToFileURL(path.join(releaseDir, 'dist/src', rel)).href);

const { openSqliteLeadStore } = await load('leads/sqlite-store.js');
const { openPostgresLeadStore } = await load('leads/postgres-store.js');
const { PostgresStore } = await load('store/postgres-store.js');
const { deliveriesFor } = await load('leads/notifications.js');
const { types } = await load('store/postgres-pool.js');
const { proIdFor } = await load('leads/ids.js');
const { bodyHash } = await load('leads/requests.js');

const sha256 = (s) => createHash('sha256').update(s).digest('hex');
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);
const DAY = '2026-11-20';
const limits = { searchesPerDay: 10, requestsPerDay: 10, categoriesPerDay: 2 };
const retry = { emailMaxAttempts: 5, webhookMaxAttempts: 8 };

// Plain keys and tokens are written to the manifest so the test can authenticate with them after the upgrade.
const secrets = {
  aliceOld: 'lk_fixture-alice-rotated-away-000000000000000',
  alice: 'lk_fixture-alice-current-0000000000000000000000',
  bob: 'lk_fixture-bob-current-00000000000000000000000000',
  verification: 'vt_fixture-unused-verification-token-00000000',
};

const pro = (externalId, name, services, extra = {}) => ({
  externalId,
  name,
  services,
  zip: '10001',
  lat: 40.7506,
  lng: -73.9971,
  phone: '+12125550100',
  email: null,
  webhookUrl: null,
  webhookSecret: null,
  address: '1 Fixture Street, New York, NY',
  rating: 4.5,
  reviewCount: 12,
  website: null,
  description: `${name}, written by release ${releaseCommit}`,
  isDemo: false,
  ...extra,
});

async function fill(store) {
  await store.upsertPros(
    [
      pro('fx-1', 'Fixture Plumbing & Electric', ['plumber', 'electrician'], {
        email: 'owner@fixture-plumbing.test',
        webhookUrl: 'https://hooks.fixture-plumbing.test/leads',
        webhookSecret: 'whsec_fixture_secret',
      }),
      pro('fx-2', 'Fixture HVAC', ['hvac'], { email: 'desk@fixture-hvac.test', rating: null, reviewCount: null }),
      pro('fx-3', 'Fixture Roofing', ['roofer'], { phone: null, lat: 40.7128, lng: -74.006 }),
    ],
    { replace: false, now: T0 - 86_400_000 },
  );
  const pros = { one: await store.getPro(proIdFor('fx-1')), two: await store.getPro(proIdFor('fx-2')) };

  const alice = await store.issueKey(
    'alice@example.com',
    { id: 'key_alice_old', hash: sha256(secrets.aliceOld), prefix: secrets.aliceOld.slice(0, 8) },
    T0 - 7200_000,
  );
  await store.rotateKey('key_alice_old', { id: 'key_alice', hash: sha256(secrets.alice), prefix: secrets.alice.slice(0, 8) }, T0 - 3600_000);
  const bob = await store.issueKey('bob@example.com', { id: 'key_bob', hash: sha256(secrets.bob), prefix: secrets.bob.slice(0, 8) }, T0 - 3600_000);

  await store.createVerification({ tokenHash: sha256(secrets.verification), email: 'carol@example.com', createdAt: T0, expiresAt: Date.UTC(2100, 0, 1) });
  await store.createVerification({
    tokenHash: sha256('vt_fixture-used'),
    email: 'alice@example.com',
    createdAt: T0 - 7300_000,
    expiresAt: Date.UTC(2100, 0, 1),
  });
  await store.consumeVerification(sha256('vt_fixture-used'), T0 - 7200_000);
  await store.recordRegisterAttempt('192.0.2.10', sha256('alice@example.com'), T0 - 7300_000);
  await store.recordRegisterAttempt('192.0.2.10', sha256('carol@example.com'), T0 - 60_000);
  await store.recordRegisterAttempt('198.51.100.7', sha256('bob@example.com'), T0 - 3700_000);

  await store.consumeQuota(alice.accountId, DAY, 'searches', 'plumber', limits);
  await store.consumeQuota(alice.accountId, DAY, 'searches', 'hvac', limits);
  await store.consumeQuota(alice.accountId, DAY, 'requests', 'plumber', limits);
  await store.consumeQuota(bob.accountId, DAY, 'requests', 'hvac', limits);

  const search = (id, status, accountId) => ({
    id,
    accountId,
    service: 'plumbing',
    category: 'plumber',
    zip: '10001',
    radiusMiles: 10,
    limit: 5,
    status,
    results: null,
    meta: null,
    error: null,
    createdAt: T0 - 1000,
    completedAt: null,
  });
  await store.createSearch(search('srch_complete', 'pending', alice.accountId));
  await store.completeSearch(
    'srch_complete',
    [
      {
        id: pros.one.id,
        name: pros.one.name,
        phone: pros.one.phone,
        address: pros.one.address,
        rating: 4.5,
        review_count: 12,
        distance_miles: 0.4,
        website: null,
        description: null,
        services: ['plumber', 'electrician'],
      },
    ],
    { total: 1, dataset: 'imported', service: 'plumber', zip: '10001', radius_miles: 10, limit: 5 },
    T0 - 900,
  );
  await store.createSearch(search('srch_failed', 'pending', alice.accountId));
  await store.failSearch('srch_failed', 'The geocoder was unavailable.', T0 - 800);
  await store.createSearch(search('srch_pending', 'pending', bob.accountId));

  const request = (id, p, accountId, createdAt, category) => ({
    id,
    accountId,
    proId: p.id,
    proName: p.name,
    category,
    zip: '10001',
    name: 'Dana Requester',
    phone: '+12125550199',
    email: 'dana@example.com',
    notes: 'The kitchen sink leaks under the cabinet.',
    consent: { text: 'I agree to be contacted.', given_at: new Date(createdAt).toISOString(), submitted_by: accountId, ip: '192.0.2.44' },
    isDemo: false,
    createdAt,
  });
  const r1 = request('req_fixture_one', pros.one, alice.accountId, T0 - 500, 'plumber');
  const d1 = deliveriesFor(r1, pros.one, retry);
  // Hashed as that release hashed a POST /v1/requests body, so the test can replay the same body.
  const idempotentBody = { pro_id: pros.one.id, name: r1.name, phone: r1.phone, notes: r1.notes, service: 'plumber' };
  await store.createRequest({ request: r1, deliveries: d1, dedupSince: T0 - 86_400_000, idempotency: { key: 'order-17', bodyHash: bodyHash(idempotentBody) } });
  const email1 = d1.find((d) => d.channel === 'email');
  const hook1 = d1.find((d) => d.channel === 'webhook');
  await store.claimDueDeliveries(T0 - 400, 60_000, 10);
  await store.markDelivered(email1.id, T0 - 300);
  await store.markRetry(hook1.id, 1, T0 + 30_000, 'webhook answered HTTP 503', T0 - 300);

  const r2 = request('req_fixture_two', pros.two, bob.accountId, T0 - 200, 'hvac');
  const d2 = deliveriesFor(r2, pros.two, retry);
  await store.createRequest({ request: r2, deliveries: d2, dedupSince: T0 - 86_400_000 });
  await store.claimDueDeliveries(T0 - 100, 60_000, 10);
  await store.markFailed(d2[0].id, 5, 'mailbox unavailable', T0 - 50);

  // An old request whose requester details were erased (data minimisation), its payload emptied.
  const r3 = request('req_fixture_old', pros.two, bob.accountId, T0 - 40 * 86_400_000, 'hvac');
  const d3 = deliveriesFor(r3, pros.two, retry);
  await store.createRequest({ request: r3, deliveries: d3, dedupSince: T0 + 1 });
  await store.claimDueDeliveries(r3.createdAt + 10, 60_000, 10);
  await store.markDelivered(d3[0].id, r3.createdAt + 20);
  await store.eraseRequesterDetails(T0 - 30 * 86_400_000);
  return { aliceAccount: alice.accountId, bobAccount: bob.accountId, idempotentBody };
}

/** Rows in a stable order (by their JSON), whatever order the database returns them in. */
const sorted = (rows) => rows.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

const LEAD_TABLES_SQLITE = [
  'pros',
  'pro_categories',
  'accounts',
  'api_keys',
  'verifications',
  'register_attempts',
  'usage_daily',
  'usage_categories',
  'searches',
  'requests',
  'request_access',
  'idempotency_keys',
  'deliveries',
  'lead_schema_migrations',
];
const LEAD_TABLES_POSTGRES = LEAD_TABLES_SQLITE.map((t) =>
  t === 'api_keys' || t === 'idempotency_keys' ? `leads_${t}` : t === 'lead_schema_migrations' ? 'leads_schema_migrations' : t,
);

// ---- SQLite: DATA_DIR/leads.db ----
fs.mkdirSync(outDir, { recursive: true });
const sqliteFile = path.join(outDir, 'leads.db');
for (const f of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`]) fs.rmSync(f, { force: true });
const sqliteStore = openSqliteLeadStore(sqliteFile);
const sqliteAccounts = await fill(sqliteStore);
await sqliteStore.close();
const sdb = new Database(sqliteFile, { readonly: true });
// Every row, so the test can check that nothing was lost or altered (the ledger's applied_at aside).
const sqliteRows = Object.fromEntries(LEAD_TABLES_SQLITE.map((t) => [t, sorted(sdb.prepare(`SELECT * FROM ${t}`).all())]));
sdb.close();
for (const f of [`${sqliteFile}-wal`, `${sqliteFile}-shm`]) fs.rmSync(f, { force: true });

// ---- PostgreSQL: the task store's schema with the lead tables beside it ----
const schema = `leads_fixture_${randomBytes(4).toString('hex')}`;
const taskStore = new PostgresStore({ connectionString: databaseUrl, schema, poolSize: 2 });
await taskStore.migrate();
// A task-store API key: the lead tables must never be confused with the task store's own api_keys.
await taskStore.createKey({
  id: 'key_task_store',
  hash: sha256('sk_live_fixture-task-store-key'),
  prefix: 'sk_live_fixtur',
  label: 'fixture',
  balanceMicros: 5_000_000,
  now: T0,
});
await taskStore.close();
const pgStore = await openPostgresLeadStore({ connectionString: databaseUrl, schema, poolSize: 2 });
const pgAccounts = await fill(pgStore);
await pgStore.close();
const client = new pg.Client({ connectionString: databaseUrl, types });
await client.connect();
const pgRows = {};
for (const t of LEAD_TABLES_POSTGRES) pgRows[t] = sorted((await client.query(`SELECT * FROM ${schema}.${t}`)).rows);
const dump = execFileSync('pg_dump', ['--dbname', databaseUrl, '--schema', schema, '--no-owner', '--no-privileges', '--inserts'], { encoding: 'utf8' });
await client.query(`DROP SCHEMA ${schema} CASCADE`);
await client.end();
// The schema name becomes a placeholder the test replaces with a schema of its own; psql meta-commands go.
const sql = dump
  .split('\n')
  .filter((line) => !line.startsWith('\\') && !line.startsWith('--'))
  .join('\n')
  .replaceAll(schema, '__SCHEMA__')
  .replace(/\n{3,}/g, '\n\n');
fs.writeFileSync(path.join(outDir, 'postgres.sql'), sql);

fs.writeFileSync(
  path.join(outDir, 'manifest.json'),
  `${JSON.stringify({ release: releaseCommit, secrets, sqlite: { accounts: sqliteAccounts, rows: sqliteRows }, postgres: { accounts: pgAccounts, rows: pgRows } }, null, 2)}\n`,
);
console.log(`wrote ${outDir} (release ${releaseCommit})`);
