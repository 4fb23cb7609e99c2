// Upgrading in place: a SQLite data file and a PostgreSQL schema written by the release before the
// database kit (test/fixtures/release-1d6b9d1, made by its generate.mjs with that release's code) open
// with the current store, migrate without re-running anything, read back exactly what that release read,
// and take new writes that depend on the old rows (idempotency replay, a used nonce, leases, refunds,
// a pending key purchase, a used sign-in nonce, a leader lease).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/db/tasks/postgres-store.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import type { TaskStore } from '../../src/store/port.js';
import { dropTestSchema, newTestSchemaName, TEST_DATABASE_URL } from '../support/postgres.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/release-1d6b9d1');
const expected = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8')) as Record<'sqlite' | 'postgres', Record<string, unknown>>;
const T0 = 1_767_225_600_000;
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanup) await c();
});

async function openSqliteFixture(): Promise<{ store: TaskStore; ledger: () => Promise<number[]> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-upgrade-'));
  fs.copyFileSync(path.join(FIXTURE, 'sqlite/agent-utility.db'), path.join(dir, 'agent-utility.db'));
  const store = new SqliteStore(path.join(dir, 'agent-utility.db'));
  cleanup.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const db = (store as unknown as { db: { all: (t: string) => Promise<{ version: number }[]> } }).db;
  return { store, ledger: async () => (await db.all("SELECT version FROM db_migrations WHERE component = 'tasks' ORDER BY version")).map((r) => r.version) };
}

async function openPostgresFixture(): Promise<{ store: TaskStore; ledger: () => Promise<number[]>; client: pg.Client; schema: string }> {
  const schema = newTestSchemaName();
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(fs.readFileSync(path.join(FIXTURE, 'postgres.sql'), 'utf8').replaceAll('__SCHEMA__', schema));
  cleanup.push(async () => {
    await client.end();
    await dropTestSchema(schema);
  });
  const store = new PostgresStore({ connectionString: TEST_DATABASE_URL, schema, poolSize: 3 });
  return {
    store,
    client,
    schema,
    ledger: async () =>
      (await client.query(`SELECT version FROM ${schema}.db_migrations WHERE component = 'tasks' ORDER BY version`)).rows.map((r) => r.version as number),
  };
}

/** The reads the fixture's generator made with the old release, made again with the current code. */
async function readBack(store: TaskStore) {
  const tasks: Record<string, unknown> = {};
  for (const id of Object.keys((expected.sqlite as { tasks: object }).tasks)) {
    const task = await store.getTask(id);
    // Fields added after that release (migration 012: error_code) read as null on its rows; the rest as it read them.
    const { errorCode, ...asThatReleaseRead } = task ?? ({ errorCode: null } as Record<string, unknown>);
    expect(errorCode, id).toBeNull();
    tasks[id] = task === null ? null : asThatReleaseRead;
  }
  return JSON.parse(
    JSON.stringify({
      tasks,
      keys: await store.listKeys(),
      batch: await store.getBatch('batch_1'),
      batchCounts: await store.batchCounts('batch_1'),
      batchItems: (await store.listBatchItems('batch_1', 0, 10)).map((i) => ({ index: i.index, taskId: i.task?.id ?? null })),
      purchases: await store.listKeyPurchases('0xbuyer', 10),
      usage: await store.usage({ payer: { kind: 'key', id: 'key_a' }, from: T0, to: T0 + 86_400_000, group: 'tool' }),
      unsettled: (await store.listUnsettledPayments(T0 + 1_000_000, 10)).map((t) => t.id),
    }),
  ) as unknown;
}

const cases = [
  { name: 'sqlite' as const, open: openSqliteFixture, versions: [1, 4, 5, 6, 7, 9, 10, 12, 13, 14, 15, 18, 19] },
  { name: 'postgres' as const, open: openPostgresFixture, versions: [1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21] },
];

describe.each(cases)('upgrading a $name deployment of the previous release', ({ name, open, versions }) => {
  it('keeps every row, re-runs no migration, and takes new writes on the old rows', async () => {
    const { store, ledger } = await open();
    try {
      await store.migrate();
      await store.migrate();
      expect(await ledger()).toEqual(versions);
      expect(await readBack(store)).toEqual(expected[name]);

      const now = T0 + 100_000;
      const input = { domain: 'task_pending.test', record_type: 'A' };
      const task = (id: string) => ({ id, tool: 'dns.lookup', input, payer: { kind: 'key' as const, id: 'key_a' }, priceMicros: 1000, maxAttempts: 3, now });
      // The old idempotency record and payment nonce still answer.
      const idem = { scope: 'key:key_a', key: 'idem-1', requestHash: 'rh-1', windowMs: 86_400_000 };
      expect(await store.createTask(task('task_new1'), { chargeKeyId: 'key_a', idempotency: idem })).toMatchObject({
        kind: 'replayed',
        task: { id: 'task_pending' },
      });
      const nonce = { network: 'eip155:84532', asset: '0xasset', payer: '0xpayer', nonce: '0xnonce1' };
      expect(await store.createTask({ ...task('task_new2'), payer: { kind: 'x402', id: '0xpayer' } }, { nonce })).toEqual({
        kind: 'nonce_used',
        taskId: 'task_x402',
      });
      expect(await store.useSignInNonce('siwx-nonce-1', now, T0)).toBe(false);
      // The dead worker's lease is recovered; the queue hands out the old pending tasks, oldest due first.
      expect(await store.recoverExpiredLeases(now)).toEqual({ requeued: 1, failed: 0 });
      const claimed = await store.claimTasks({ owner: 'worker-new', limit: 10, leaseMs: 30_000, now });
      expect(claimed.map((t) => t.id)).toEqual(['task_pending', 'task_x402', 'task_b1', 'task_b2', 'task_running']);
      expect((await store.completeTask('task_b1', 'worker-new', { ok: true }, now))!.status).toBe('complete');
      // A refund of an old charge is paid once.
      await store.failTask('task_b2', 'worker-new', { error: 'unreachable', kind: 'transient', refund: true }, now);
      expect(await store.failTask('task_b2', 'worker-new', { error: 'again', kind: 'transient', refund: true }, now)).toBeNull();
      expect((await store.listBatchItems('batch_1', 0, 10)).map((i) => i.task!.status)).toEqual(['complete', 'failed', 'complete']);
      // The pending top-up settles against the old key; a new key and task go in beside the old rows.
      expect((await store.settleKeyPurchase('kp_topup', { payment: { status: 'settled' }, now }))!.key.balanceMicros).toBe(5_244_000 + 1000 + 1_000_000);
      expect(await store.settleKeyPurchase('kp_unpaid', { payment: {}, now })).toBeNull();
      await store.createKey({ id: 'key_new', hash: 'hash_new', prefix: 'sk_live_new', label: null, balanceMicros: 10_000, now });
      expect(await store.createTask(task('task_new3'), { chargeKeyId: 'key_new' })).toMatchObject({ kind: 'created', task: { chargedMicros: 1000 } });
      expect((await store.findKey('sk_live_new'))!.balanceMicros).toBe(9000);
      expect(await store.stats()).toMatchObject({ queueDepth: 1, running: 3 });
      // Migration 014: the old rows belong to no session (claimed above by a plain worker); a session's new
      // task waits for that session while its lease lives.
      await store.renewSession('session-new', 30_000);
      await store.createTask({ ...task('task_new4'), session: 'session-new' });
      const byOther = await store.claimTasks({ owner: 'worker-new', limit: 10, leaseMs: 30_000, now });
      expect(byOther.map((t) => t.id)).toEqual(['task_new3']);
      expect((await store.claimTasks({ owner: 'session-new', limit: 10, leaseMs: 30_000, now })).map((t) => t.id)).toEqual(['task_new4']);
      // Migration 015: the upgraded store holds leader leases (x402 settlement's), one holder at a time.
      expect(await store.holdLease('x402-settlement:test', 'node-a', 30_000)).toBe(true);
      expect(await store.holdLease('x402-settlement:test', 'node-b', 30_000)).toBe(false);
    } finally {
      await store.close();
    }
  });
});

it('keeps the claim release 1d6b9d1 calls, so its workers go on claiming during a rolling upgrade (PostgreSQL)', async () => {
  const { store, client, schema } = await openPostgresFixture();
  try {
    await store.migrate();
    // As that release's PostgreSQL store claimed: claim_tasks of migration 003, six arguments.
    await client.query(`SET search_path = ${schema}`);
    const now = T0 + 100_000;
    const r = await client.query<{ id: string }>('SELECT id FROM claim_tasks($1, $2, $3, $4, $5, $6)', [now, 10, 'worker-old', now + 30_000, null, null]);
    expect(r.rows.map((t) => t.id).sort()).toEqual(['task_b1', 'task_b2', 'task_pending', 'task_x402']);
  } finally {
    await store.close();
  }
});
