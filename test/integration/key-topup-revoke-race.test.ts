// A top-up's credit and the revocation of its key decided inside the store, on both dialects: the credit
// goes to a live key only, in the statement that adds it. On PostgreSQL a revocation still in flight (its
// transaction holding the key's row) makes the settlement wait and then see the key revoked; a revocation
// after the credit leaves the credit in place. A refused credit keeps the purchase settled with refund_due.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/billing/api-keys.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import type { TaskStore } from '../../src/store/port.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../support/postgres.js';

let n = 0;
async function topup(store: TaskStore, keyId: string, micros: number) {
  const id = `kp_race${++n}`;
  const reserved = await store.reserveKeyPurchase({
    id,
    kind: 'topup',
    keyId,
    wallet: '0xabc',
    micros,
    payment: { scheme: 'exact' },
    nonce: { network: 'eip155:8453', asset: '0xa', payer: '0xabc', nonce: `nonce-race-${n}-${Date.now()}` },
    now: Date.now(),
  });
  expect(reserved.kind).toBe('reserved');
  return id;
}
const settle = (store: TaskStore, id: string) => store.settleKeyPurchase(id, { payment: { status: 'settled', transaction: '0x01' }, now: Date.now() });

describe('top-up of a revoked key: SQLite', () => {
  let store: SqliteStore | undefined;
  afterEach(async () => {
    await store?.close();
  });

  it('credits nothing to a key revoked before the credit, and records the payment as owed back', async () => {
    store = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-topup-race-')), 'db.sqlite'));
    await store.migrate();
    const { row } = await createApiKey(store, { creditsMicros: 1_000_000 });
    const id = await topup(store, row.id, 2_000_000);
    await store.revokeKey(row.id, Date.now());
    const settled = await settle(store, id);
    expect(settled).toMatchObject({ credited: false, purchase: { status: 'settled', payment: { refund_due: true } } });
    expect((await store.findKey(row.id))?.balanceMicros).toBe(1_000_000);
    // Settled once: a second settler gets nothing.
    expect(await settle(store, id)).toBeNull();
  });
});

describe('top-up of a revoked key: PostgreSQL', () => {
  let schema: TestSchema | undefined;
  let store: TaskStore | undefined;
  let client: pg.Client | undefined;
  afterEach(async () => {
    await client?.end().catch(() => undefined);
    await store?.close();
    await schema?.drop();
    client = store = schema = undefined;
  });

  async function open() {
    schema = await createTestSchema();
    store = await schema.openStore();
    client = new pg.Client({ connectionString: TEST_DATABASE_URL, application_name: 'topup-race-revoker' });
    await client.connect();
    await client.query(`SET search_path = ${schema.schema}`);
    return { store, client, schema };
  }

  /**
   * Waits until some backend waits on a lock in UPDATE api_keys (the settlement blocked by the revocation).
   * Asked on a connection of its own: inside the revoker's open transaction pg_stat_activity is a snapshot.
   */
  async function blockedOnLock(s: TestSchema) {
    for (let i = 0; i < 400; i++) {
      const rows = await s.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE api_keys SET balance_micros%' AND datname = current_database()`,
      );
      if (rows[0]!.n > 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the settlement never waited for the revocation');
  }

  /**
   * A top-up settled while another connection's transaction holds the key's row with a revocation in it;
   * the revocation then ends as `outcome` says. Returns what the settlement answered.
   */
  async function settleDuringRevocation(outcome: 'COMMIT' | 'ROLLBACK') {
    const { store, client, schema } = await open();
    const { row } = await createApiKey(store, { creditsMicros: 1_000_000 });
    const id = await topup(store, row.id, 2_000_000);
    await client.query('BEGIN');
    await client.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2', [Date.now(), row.id]);
    const settling = settle(store, id);
    await blockedOnLock(schema);
    await client.query(outcome);
    return { store, keyId: row.id, purchaseId: id, settled: await settling };
  }

  it('a revocation in flight wins over the credit that waits for it', async () => {
    const { store, keyId, settled } = await settleDuringRevocation('COMMIT');
    expect(settled).toMatchObject({ credited: false, purchase: { status: 'settled', payment: { refund_due: true } } });
    expect(await store.findKey(keyId)).toMatchObject({ balanceMicros: 1_000_000 });
    expect((await store.findKey(keyId))?.revokedAt).not.toBeNull();
  });

  it('a revocation rolled back leaves the credit to the live key', async () => {
    const { store, purchaseId, settled } = await settleDuringRevocation('ROLLBACK');
    expect(settled).toMatchObject({ credited: true, key: { balanceMicros: 3_000_000 } });
    expect((await store.listKeyPurchases('0xabc', 10)).find((p) => p.id === purchaseId)?.payment.refund_due).toBeUndefined();
  });
});
