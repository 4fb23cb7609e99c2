// PostgreSQL connection behaviour on a real server: many processes migrating one fresh schema at the same
// moment apply each migration once (advisory lock), and options given in DATABASE_URL survive next to
// the schema's search_path.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { taskMigrations } from '../../src/db/tasks/migrations.js';
import { createPool, inTransaction } from '../../src/db/postgres-pool.js';
import { PostgresStore } from '../../src/db/tasks/postgres-store.js';
import { dropTestSchema, newTestSchemaName, TEST_DATABASE_URL } from '../support/postgres.js';

const schemas: string[] = [];
afterAll(async () => {
  for (const s of schemas) await dropTestSchema(s);
});

describe('PostgreSQL connections and migrations', () => {
  it('migrates a fresh schema once when many stores start together', async () => {
    const schema = newTestSchemaName();
    schemas.push(schema);
    const stores = Array.from({ length: 6 }, () => new PostgresStore({ connectionString: TEST_DATABASE_URL, schema, poolSize: 2 }));
    try {
      await Promise.all(stores.map((s) => s.migrate()));
      await Promise.all(stores.map((s) => s.migrate()));
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    try {
      const applied = await c.query(`SELECT version, name FROM ${schema}.db_migrations WHERE component = 'tasks' ORDER BY version`);
      expect(applied.rows).toEqual(taskMigrations('postgres').migrations.map((m) => ({ version: m.version, name: m.name })));
      const tables = await c.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema]);
      expect(tables.rows.map((r) => r.table_name)).toEqual([
        'api_keys',
        'artifacts',
        'batch_items',
        'batches',
        'console_state',
        'credit_ledger',
        'db_migrations',
        'idempotency_keys',
        'key_purchases',
        'leader_leases',
        'payment_nonces',
        'rate_limit_windows',
        'task_sessions',
        'tasks',
        'webhook_attempts',
        'webhook_outbox',
        'webhook_secrets',
      ]);
    } finally {
      await c.end();
    }
  });

  it('keeps options from DATABASE_URL alongside the schema', async () => {
    const schema = newTestSchemaName();
    schemas.push(schema);
    const url = `${TEST_DATABASE_URL}${TEST_DATABASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c statement_timeout=4321')}`;
    const store = new PostgresStore({ connectionString: url, schema, poolSize: 1 });
    try {
      await store.migrate();
      await store.createKey({ id: 'key_opt', hash: 'h-opt', prefix: 'sk_live_opt', label: null, balanceMicros: 0, now: Date.now() });
      expect((await store.findKey('key_opt'))!.id).toBe('key_opt');
      // The row went to this schema, and the URL's option is in force on the store's connections.
      const pool = store.db.pool;
      const r = await pool.query('SELECT current_setting($1) AS timeout, current_schema() AS schema', ['statement_timeout']);
      expect(r.rows[0]).toEqual({ timeout: '4321ms', schema });
    } finally {
      await store.close();
    }
  });

  it('survives a connection breaking the moment the pool hands it to a waiting transaction', async () => {
    // The pool gives a released connection to the next waiter synchronously; the server's "terminating
    // connection" notice can follow in the same read, before the waiter's code has run. Emitting the
    // error right after the release replays that read deterministically.
    const pool = createPool({ connectionString: TEST_DATABASE_URL, schema: 'public', poolSize: 1 });
    try {
      const first = await pool.connect();
      const waiting = inTransaction(pool, (tx) => tx.query('SELECT 1 AS one'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(pool.waitingCount).toBe(1);
      first.release();
      expect(() => first.emit('error', new Error('terminating connection due to administrator command'))).not.toThrow();
      // The broken connection was not given back for reuse: the transaction failed or ran on a fresh one.
      await waiting.catch(() => undefined);
      const after = await inTransaction(pool, (tx) => tx.query('SELECT 2 AS two'));
      expect(after.rows).toEqual([{ two: 2 }]);
    } finally {
      await pool.end();
    }
  });
});
